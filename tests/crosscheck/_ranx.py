"""ranx, imported when a cross-check first runs rather than when pytest collects
the module: the import compiles numba code for several seconds, which a run that
deselects the cross-checks (`make test-fast`) should not pay."""

from __future__ import annotations

import functools
import warnings
from types import ModuleType


@functools.cache
def ranx() -> ModuleType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's compile-time warnings
        import ranx as module
    return module
