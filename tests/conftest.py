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
