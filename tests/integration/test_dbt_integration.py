"""`dbt build` of integration_tests/ on DuckDB: seeds, the case models, and the
tests that compare them with the oracle's expected values within 1e-9."""

from __future__ import annotations

import duckdb
import yaml

from .dbt_project_runner import INTEGRATION_PROJECT, DbtRun


def test_dbt_build_succeeds(dbt_build: DbtRun) -> None:
    failures = [
        f"{result['unique_id']}: {result['status']} {result.get('message') or ''}"
        for result in dbt_build.results
        if result["status"] not in ("success", "pass")
    ]
    assert dbt_build.returncode == 0 and not failures, "\n".join(failures) or dbt_build.output[-5000:]


def test_every_expected_value_is_asserted(dbt_build: DbtRun) -> None:
    """The tolerance tests ran, on models that produced a row for every case."""
    tests = {r["unique_id"] for r in dbt_build.results if r["unique_id"].startswith("test.")}
    assert any("equal_within_tolerance_actual__cases" in t for t in tests)
    assert any("equal_within_tolerance_actual__self_information" in t for t in tests)
    assert any("equal_within_tolerance_package_models__golden_default" in t for t in tests)
    for seed in ("golden", "invalid"):
        assert any(f"valid_recommendations_input__{seed}__recommendations" in t for t in tests)
        assert any(f"valid_interactions_input__{seed}__interactions" in t for t in tests)
    cases = yaml.safe_load((INTEGRATION_PROJECT / "dbt_project.yml").read_text())["vars"]["rankwise_test_cases"]
    with duckdb.connect(str(dbt_build.database), read_only=True) as con:
        variants = {row[0] for row in con.sql("select distinct variant from main.actual__cases").fetchall()}
    assert variants == {case["name"] for case in cases}
