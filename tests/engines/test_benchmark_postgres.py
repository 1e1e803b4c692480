"""benchmarks/postgres.py's tools on the benchmark's generated data, on a
pgserver PostgreSQL as the benchmark starts it: rankwise's PostgreSQL SQL gives
the means rankwise gives on DuckDB, binary and graded, with the session's
settings and at the server's defaults, and the floor queries run, so the
benchmark's PostgreSQL section compares a correct query with the floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import postgres
from benchmarks.generate import generate
from benchmarks.spark import METRICS, reference_values


def test_the_benchmark_postgres_tools_run_and_agree_with_rankwise_on_duckdb(tmp_path: Path) -> None:
    folder, _ = generate(tmp_path, 500, 0.3)
    measured = {tool: postgres.measure(tool, folder) for tool in postgres.WORKERS}
    for measurement in measured.values():
        assert measurement["seconds"] > 0 and measurement["cpu_seconds"] >= 0 and measurement["peak_mib"] > 0
    # each rankwise tool, binary and graded, at the session's settings and the server's defaults
    assert len(postgres.OPTIONS) == 4
    for tool, options in postgres.OPTIONS.items():
        values = measured[tool]["values"]
        expected = reference_values(folder, options)
        assert values.keys() == expected.keys() == {f"{metric}@10" for metric in METRICS}
        for key, value in values.items():
            assert value == pytest.approx(expected[key], abs=1e-9), (tool, key)
    # the relevance is read: graded NDCG differs from binary NDCG on this data
    assert measured[postgres.TOOL + postgres.GRADED]["values"]["ndcg@10"] != measured[postgres.TOOL]["values"]["ndcg@10"]
