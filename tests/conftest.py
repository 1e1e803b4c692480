from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
TESTS = REPO_ROOT / "tests"
# The folders that decide a test's lane, each also the marker of its tests
# (declared in pyproject.toml). tests/reference holds the oracles, no tests.
LANES = ("unit", "crosscheck", "dbt", "engines", "slow")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engines",
        default="duckdb,postgres,spark,clickhouse",
        help="comma-separated engines the dbt integration project is built on (default: all four)",
    )


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of tests/engines first, in their collected order: under
    pytest-xdist (`make test`) their builds on PostgreSQL and Spark (minutes on
    Spark) then start at once on separate workers and the rest of the suite runs
    beside them, instead of one of them starting last. A test file of tests/
    outside the lane folders would be in no lane: it is refused."""
    stray = {item.path for item in items if item.path.resolve().is_relative_to(TESTS) and not _lane(item.path)}
    if stray:
        raise pytest.UsageError(f"test files in tests/ but in none of its lane folders {LANES}: {sorted(map(str, stray))}")
    items.sort(key=lambda item: _lane(item.path) != "engines")
