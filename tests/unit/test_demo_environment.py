"""`make demo`'s environment holds what README offers next to the demo:
Parquet from pandas and Arrow tables need pyarrow, which duckdb does not
bring. And `make test`'s environment holds the demo's, since its stamp counts
as the demo's too (Makefile)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _requirements(extra: str) -> set[str]:
    """The packages an extra of pyproject.toml installs, its rankwise[...]
    extras expanded, by name."""
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = set()
    for requirement in extras[extra]:
        nested = re.fullmatch(r"rankwise\[([\w,-]+)\]", requirement)
        if nested:
            for name in nested[1].split(","):
                names |= _requirements(name)
        else:
            names.add(re.match(r"[\w-]+", requirement)[0].lower())
    return names


def test_the_demo_installs_pyarrow_and_the_test_environment_holds_the_demos() -> None:
    demo = _requirements("demo")
    assert {"pyarrow", "plotly", "dbt-core", "dbt-duckdb"} <= demo
    assert demo <= _requirements("test")
    makefile = (REPO_ROOT / "Makefile").read_text()
    stamp = makefile[makefile.index("$(DEMO_STAMP):"):]
    assert '-m pip install --quiet -e ".[demo]"' in stamp.split("\n\n")[0]
