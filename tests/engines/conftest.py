from __future__ import annotations

from collections.abc import Callable

import pytest

from .dbt_project_runner import DbtRun, run_dbt
from .engines import ENGINES
from .metrics_history_run import history_commands


def _selected_engines(config: pytest.Config) -> list[str]:
    engines = [name.strip() for name in config.getoption("engines").split(",") if name.strip()]
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown:
        raise pytest.UsageError(f"--engines: unknown engine(s) {unknown}; choose from {sorted(ENGINES)}")
    return engines


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" in metafunc.fixturenames:
        metafunc.parametrize("engine", _selected_engines(metafunc.config), scope="session")


def _needs_unselected_engine(item: pytest.Item, selected: list[str]) -> bool:
    """The parity tests compare with the Python wrapper, which runs on DuckDB:
    they belong to a run that includes DuckDB; a test marked
    needs_engines(...) starts those engines itself, and belongs to a run that
    selects them all."""
    needed = set()
    for marker in item.iter_markers("needs_engines"):
        needed.update(marker.args)
    if "duckdb_build" in getattr(item, "fixturenames", ()):
        needed.add("duckdb")
    return not needed <= set(selected)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of engines --engines leaves out are deselected, not skipped: they
    run in `make test`, which selects every engine."""
    selected = _selected_engines(config)
    deselected = [item for item in items if _needs_unselected_engine(item, selected)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]


@pytest.fixture(scope="session")
def selected_engines(request: pytest.FixtureRequest) -> list[str]:
    """The engines --engines names, for a test that starts engines of its own."""
    return _selected_engines(request.config)


@pytest.fixture(scope="session")
def dbt_builds(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], DbtRun]:
    """One `dbt build` of integration_tests/ per engine for the whole session,
    and in the same dbt process the metrics history's builds
    (tests/engines/test_metrics_history.py)."""
    builds: dict[str, DbtRun] = {}

    def build(engine: str) -> DbtRun:
        if engine not in builds:
            builds[engine] = run_dbt(["build"], tmp_path_factory.mktemp(f"dbt_build_{engine}"), engine,
                                     and_then=history_commands(engine))
        return builds[engine]

    return build


@pytest.fixture(scope="session")
def dbt_build(dbt_builds: Callable[[str], DbtRun], engine: str) -> DbtRun:
    return dbt_builds(engine)


@pytest.fixture(scope="session")
def duckdb_build(dbt_builds: Callable[[str], DbtRun]) -> DbtRun:
    return dbt_builds("duckdb")
