from __future__ import annotations

import pytest

from .dbt_project_runner import DbtRun, run_dbt


@pytest.fixture(scope="session")
def dbt_build(tmp_path_factory: pytest.TempPathFactory) -> DbtRun:
    """One `dbt build` of integration_tests/ for the whole session."""
    return run_dbt(["build"], tmp_path_factory.mktemp("dbt_build"))
