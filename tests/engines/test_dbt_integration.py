"""`dbt build` of integration_tests/ on every engine (DuckDB, PostgreSQL, Spark,
ClickHouse): seeds, the case models, and the tests that compare them with the
oracle's expected values within 1e-9. The same expected values on every engine make the
engines' numbers identical to within 1e-9."""

from __future__ import annotations

import csv

import pytest
import yaml

from .dbt_project_runner import INTEGRATION_PROJECT, DbtRun

CASES = yaml.safe_load((INTEGRATION_PROJECT / "dbt_project.yml").read_text())["vars"]["rankwise_test_cases"]


def test_dbt_build_succeeds(dbt_build: DbtRun) -> None:
    failures = [
        f"{result['unique_id']}: {result['status']} {result.get('message') or ''}"
        for result in dbt_build.results
        if result["status"] not in ("success", "pass")
    ]
    assert dbt_build.returncode == 0 and not failures, "\n".join(failures) or dbt_build.output[-5000:]


@pytest.mark.parametrize(
    "test_name",
    [
        "equal_within_tolerance_actual__cases",
        "equal_within_tolerance_actual__self_information",
        "equal_within_tolerance_package_models__golden_default",
        "equal_within_tolerance_beyond_accuracy__actual",
        "equal_within_tolerance_reference_overlap__actual",
        "equal_within_tolerance_propensity__actual",
        "equal_within_tolerance_popularity_bias__actual",
        "equal_within_tolerance_popularity_by_user_group__actual",
        "equal_within_tolerance_popularity_comparison__actual",
        "equal_within_tolerance_exposure__actual",
        "equal_within_tolerance_exposure_by_item_group__actual",
        # some cases under the engine's non-default session settings (empty on DuckDB)
        "equal_within_tolerance_settings__actual_cases",
        *(
            f"valid_{table}_input__{seed}__{table}"
            for seed in ("golden", "invalid", "random")
            for table in ("recommendations", "interactions")
        ),
    ],
)
def test_every_assertion_ran_and_passed(dbt_build: DbtRun, test_name: str) -> None:
    statuses = [r["status"] for r in dbt_build.results if r["unique_id"].startswith("test.") and test_name in r["unique_id"]]
    assert statuses == ["pass"], (test_name, statuses, dbt_build.output[-3000:])


def test_every_case_has_expected_values() -> None:
    """The tolerance test fails on any row missing from either side, so every
    case must be in the expected seed for it to be asserted at all."""
    with (INTEGRATION_PROJECT / "seeds" / "expected__cases.csv").open(newline="") as handle:
        variants = {row["variant"] for row in csv.DictReader(handle)}
    assert variants == {case["name"] for case in CASES}


def test_the_project_folder_keeps_no_engine_state(dbt_build: DbtRun) -> None:
    """Spark's metastore and warehouse, and every database file, live where
    profiles.yml puts them, not in the folder dbt runs in (which, run by hand, is
    the working tree's integration_tests/)."""
    assert dbt_build.returncode == 0
    leftovers = [
        path.name
        for path in dbt_build.project.iterdir()
        if path.name in ("metastore_db", "spark-warehouse", "derby.log") or path.suffix == ".duckdb"
    ]
    assert leftovers == []
