from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
TESTS = REPO_ROOT / "tests"
# The folders that decide a test's lane, each also the marker of its tests
# (declared in pyproject.toml). tests/reference holds the oracles, no tests.
# tests/dbt_versions runs only when named (`make test-dbt-versions`): see
# pytest_ignore_collect.
LANES = ("unit", "crosscheck", "dbt", "engines", "slow", "dbt_versions")
DBT_VERSIONS = TESTS / "dbt_versions"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engines",
        default="duckdb,postgres,spark,clickhouse",
        help="comma-separated engines the dbt integration project is built on (default: all four)",
    )
    parser.addoption(
        "--rewrite-readme",
        action="store_true",
        help="write the example outputs of README.md from the calls the README tests run, instead of comparing "
             "them (tests/unit/readme_examples.py)",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """tests/dbt_versions (a virtual environment and a few minutes per dbt
    version) is left out of `make test` and of a bare `pytest`: it is collected
    only when named on the command line, as `make test-dbt-versions` does."""
    if collection_path.resolve() != DBT_VERSIONS:
        return None
    named = [Path(argument.split("::")[0]).resolve() for argument in config.args]
    return None if any(path == DBT_VERSIONS or path.is_relative_to(DBT_VERSIONS) for path in named) else True


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


def _lane(path: Path) -> str | None:
    """The folder of tests/ a test file is in, which is its lane
    (docs/contributing.md); None for a file outside those folders."""
    path = path.resolve()
    if not path.is_relative_to(TESTS):
        return None
    folder, *rest = path.relative_to(TESTS).parts
    return folder if rest and folder in LANES else None


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test carries its folder's name as a marker, so that `pytest -m unit`
    or `-m "not engines"` selects by kind without a marker in any file."""
    lane = _lane(item.path)
    if lane is not None:
        item.add_marker(lane)


ENGINE_NAMES = ("duckdb", "postgres", "spark", "clickhouse")
# The test files that read the integration build of an engine (the session
# fixtures dbt_build and duckdb_build), which a worker makes once for every test
# that asks: they run in the work unit of that build's own tests, so that no
# second worker builds it again. test_parity reads DuckDB's build, the metrics
# history the build of its test's engine.
INTEGRATION_BUILD = "tests/engines/test_dbt_integration.py"
READ_AN_INTEGRATION_BUILD = ("tests/engines/test_parity.py", "tests/engines/test_metrics_history.py")


def _work_unit(nodeid: str) -> str:
    """The work unit of a test under pytest-xdist (`--dist loadfile`): its file,
    so that a file's module fixtures (a dbt build, a started engine) are built
    once; a test of tests/engines parametrized by engine, its file and engine,
    so that one file's builds on several engines run on several workers; a
    file that reads an integration build, the unit of that build."""
    path, _, name = nodeid.partition("::")
    engines = []
    if path.startswith("tests/engines/") and name.endswith("]"):
        engines = [part for part in name[name.index("[") + 1:-1].split("-") if part in ENGINE_NAMES]
    if path in READ_AN_INTEGRATION_BUILD:
        return f"{INTEGRATION_BUILD}::{engines[0] if engines else 'duckdb'}"
    return f"{path}::{engines[0]}" if engines else path


# optional: the verify_*.py scripts of tests/crosscheck/peers run in venvs without pytest-xdist
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile` with the work units of _work_unit (pytest-xdist's
    loadgroup reads its groups off node ids it can no longer rename under
    pytest 9); other modes as xdist has them."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class EngineAwareFileScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _work_unit(nodeid)

    return EngineAwareFileScheduling(config, log)


def _starts_late(item: pytest.Item) -> tuple[bool, bool]:
    """The order work units start in: what starts Spark first (its builds take
    minutes), then the rest of tests/engines, then the others, each in its
    collected order. `make test` keeps this order (--no-loadscope-reorder);
    xdist would otherwise start the units with the most tests first, and the
    Spark builds, which have few tests, last."""
    starts_spark = _work_unit(item.nodeid).endswith("::spark") or "spark" in item.path.name
    return (_lane(item.path) != "engines", not starts_spark)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The work units in their order (_starts_late). A test file of tests/
    outside the lane folders would be in no lane: it is refused."""
    stray = {item.path for item in items if item.path.resolve().is_relative_to(TESTS) and not _lane(item.path)}
    if stray:
        raise pytest.UsageError(f"test files in tests/ but in none of its lane folders {LANES}: {sorted(map(str, stray))}")
    items.sort(key=_starts_late)
