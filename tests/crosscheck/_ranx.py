"""ranx, imported when a cross-check first runs rather than when pytest collects
the module, and run by the Python interpreter rather than compiled by numba.
Its metrics are numba functions compiled on their first call: about 50 s in a
fresh environment (CI), several times what the cross-checks' small cases take
to run the same Python code interpreted (NUMBA_DISABLE_JIT, numba's switch for
exactly that). A caller who sets NUMBA_DISABLE_JIT=0 gets the compiled code."""

from __future__ import annotations

import functools
import os
import warnings
from types import ModuleType


@functools.cache
def ranx() -> ModuleType:
    os.environ.setdefault("NUMBA_DISABLE_JIT", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's compile-time warnings
        import ranx as module
    return module
