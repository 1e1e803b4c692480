from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engines",
        default="duckdb,postgres,spark",
        help="comma-separated engines the dbt integration project is built on (default: all three)",
    )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files that start PostgreSQL or Spark first, in their collected order:
    under pytest-xdist (`make test`) their minutes-long builds then start at once
    on separate workers and the rest of the suite runs beside them, instead of
    one of them starting last."""
    with_engines = {item.path for item in items if item.get_closest_marker("engines")}
    items.sort(key=lambda item: item.path not in with_engines)
