"""Every row of ../shared/golden-examples.md (the worked examples of the five
specification documents) against the expected values the integration tests
assert within 1e-9, and those expected values against the oracle that computed
them. Erratum rows are asserted at the exact value, not the printed figure."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from tests.reference import make_expected, random_inputs

REPO_ROOT = Path(__file__).resolve().parents[1]
GOLDEN_EXAMPLES = REPO_ROOT.parent / "shared" / "golden-examples.md"
SEEDS = REPO_ROOT / "integration_tests" / "seeds"

# (document, case as golden-examples.md names it, exact value as printed there,
#  (variant, example_id, user_id or "" for a mean, metric, k or "" for the whole list))
GOLDEN_ROWS = [
    ("000", "P", "0.4", ("golden__default", "doc000_precision_recall", "doc000_user", "precision", "5")),
    ("000", "R", "0.666667", ("golden__default", "doc000_precision_recall", "doc000_user", "recall", "5")),
    ("000", "AP@3 a", "0.111111", ("golden__default", "doc000_ap_at_3", "doc000_ap_a", "map", "3")),
    ("000", "AP@3 b (document truncates 0.38)", "0.388889", ("golden__default", "doc000_ap_at_3", "doc000_ap_b", "map", "3")),
    ("000", "AP@3 c", "1.0", ("golden__default", "doc000_ap_at_3", "doc000_ap_c", "map", "3")),
    ("000", "AP@3 d", "0.333333", ("golden__default", "doc000_ap_at_3", "doc000_ap_d", "map", "3")),
    ("000", "AP@3 e (erratum: 0.28 printed)", "0.166667", ("golden__default", "doc000_ap_at_3", "doc000_ap_e", "map", "3")),
    ("000", "AP@3 f", "0.111111", ("golden__default", "doc000_ap_at_3", "doc000_ap_f", "map", "3")),
    ("001", "mAP example 1 (non-standard)", "0.632628", ("golden__default", "doc001_example_1", "doc001_ex1", "map_to_full_recall", "")),
    ("001", "mAP@5 example 1 (non-standard)", "0.713333", ("golden__default", "doc001_example_1", "doc001_ex1", "map_to_full_recall", "5")),
    ("001", "standard AP example 1", "0.725397", ("golden__default", "doc001_example_1", "doc001_ex1", "map", "")),
    ("001", "mAP example 2 (non-standard)", "0.336468", ("golden__default", "doc001_example_2", "doc001_ex2", "map_to_full_recall", "")),
    ("001", "standard AP example 2", "0.441270", ("golden__default", "doc001_example_2", "doc001_ex2", "map", "")),
    ("001", "binary nDCG@10 example 1", "0.889109", ("golden__default", "doc001_example_1", "doc001_ex1", "ndcg", "10")),
    ("001", "binary nDCG@10 example 2", "0.647988", ("golden__default", "doc001_example_2", "doc001_ex2", "ndcg", "10")),
    ("001", "yut sticks entropy (erratum: 1.40875 printed)", "1.407532", ("golden__default", "doc001_yut_sticks", "", "entropy", "")),
    ("001", "model A entropy", "0.0", ("golden__default", "doc001_model_a", "", "entropy", "")),
    ("001", "model B entropy (= ln 5)", "1.609438", ("golden__default", "doc001_model_b", "", "entropy", "")),
    ("002", "q1 P@1", "0", ("golden__default", "doc002_queries", "doc002_q1", "precision", "1")),
    ("002", "q1 R@1", "0", ("golden__default", "doc002_queries", "doc002_q1", "recall", "1")),
    ("002", "q2 P@1", "1", ("golden__default", "doc002_queries", "doc002_q2", "precision", "1")),
    ("002", "q2 R@1", "0.2", ("golden__default", "doc002_queries", "doc002_q2", "recall", "1")),
    ("002", "q1 P@2", "0.5", ("golden__default", "doc002_queries", "doc002_q1", "precision", "2")),
    ("002", "q1 R@2", "0.2", ("golden__default", "doc002_queries", "doc002_q1", "recall", "2")),
    ("002", "q2 P@2", "0.5", ("golden__default", "doc002_queries", "doc002_q2", "precision", "2")),
    ("002", "q2 R@2", "0.2", ("golden__default", "doc002_queries", "doc002_q2", "recall", "2")),
    ("002", "q1 P@3 (erratum: 0.6 printed)", "0.666667", ("golden__default", "doc002_queries", "doc002_q1", "precision", "3")),
    ("002", "q1 R@3", "0.4", ("golden__default", "doc002_queries", "doc002_q1", "recall", "3")),
    ("002", "q2 P@3 (0.3 truncated)", "0.333333", ("golden__default", "doc002_queries", "doc002_q2", "precision", "3")),
    ("002", "q2 R@3", "0.2", ("golden__default", "doc002_queries", "doc002_q2", "recall", "3")),
    ("002", "q1 AP over hits (erratum: 0.55 printed)", "0.583333", ("golden__ap_hits", "doc002_queries", "doc002_q1", "map", "")),
    ("002", "q2 AP over hits", "1.0", ("golden__ap_hits", "doc002_queries", "doc002_q2", "map", "")),
    ("002", "MAP over hits (erratum: 0.775 printed)", "0.791667", ("golden__ap_hits", "doc002_queries", "", "map", "")),
    ("002", "q1 AP with m = 5", "0.233333", ("golden__default", "doc002_queries", "doc002_q1", "map", "")),
    ("002", "q2 AP with m = 5", "0.2", ("golden__default", "doc002_queries", "doc002_q2", "map", "")),
    ("003", "P@5", "0.4", ("golden__default", "doc003_precision_at_5", "doc003_user", "precision", "5")),
    ("003", "mean P@3", "0.333333", ("golden__default", "doc003_mean_precision_at_3", "", "precision", "3")),
    ("004", "AP@5 query 1", "0.604167", ("golden__default", "doc004_map_mrr", "doc004_q1", "map", "5")),
    ("004", "AP@5 query 2", "0.479167", ("golden__default", "doc004_map_mrr", "doc004_q2", "map", "5")),
    ("004", "MAP@5 (erratum: 0.546 printed)", "0.541667", ("golden__default", "doc004_map_mrr", "", "map", "5")),
    ("004", "MRR", "0.75", ("golden__default", "doc004_map_mrr", "", "mrr", "")),
    ("004", "DCG@5", "6.678882", ("golden__default", "doc004_dcg", "doc004_user", "dcg", "5")),
    ("004", "IDCG@5 (over the whole truth)", "9.271925", ("golden__default", "doc004_dcg", "doc004_user", "idcg", "5")),
    ("004", "NDCG@5 (erratum: 6.29 / 8.88 = 0.721 printed)", "0.720334", ("golden__default", "doc004_dcg", "doc004_user", "ndcg", "5")),
    ("004", "NDCG@5 exponential gain", "0.671380", ("golden__gain_exponential", "doc004_dcg", "doc004_user", "ndcg", "5")),
]

# Document 001's information of single outcomes, asserted in dbt against
# rankwise.self_information (integration_tests/models/actual__self_information.sql).
SELF_INFORMATION_ROWS = [("gae", "0.980829"), ("yut", "2.772589")]


def _seed(name: str) -> list[dict[str, str]]:
    with (SEEDS / f"{name}.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def expected_values() -> dict[tuple[str, ...], float]:
    return {
        (row["variant"], row["example_id"], row["user_id"], row["metric"], row["k"]): float(row["expected_value"])
        for row in _seed("expected__cases")
    }


def test_the_expected_seed_is_what_the_oracle_computes() -> None:
    assert (SEEDS / "expected__cases.csv").read_text() == make_expected.render()


def test_the_random_input_seeds_are_what_their_seeded_generator_draws() -> None:
    for name, text in random_inputs.render_seeds().items():
        assert (SEEDS / f"{name}.csv").read_text() == text, name


def test_every_golden_row_is_listed_in_the_specification() -> None:
    text = GOLDEN_EXAMPLES.read_text(encoding="utf-8")
    for _, case, exact, _ in GOLDEN_ROWS:
        assert exact in text, case
    for _, exact in SELF_INFORMATION_ROWS:
        assert exact in text


@pytest.mark.parametrize(
    ("document", "case", "exact", "key"), GOLDEN_ROWS, ids=[f"{d} {c}" for d, c, _, _ in GOLDEN_ROWS]
)
def test_golden_row(document: str, case: str, exact: str, key: tuple[str, ...], expected_values) -> None:
    assert key in expected_values, f"document {document}, {case}: no expected value for {key}"
    assert math.isclose(expected_values[key], float(exact), rel_tol=0, abs_tol=5e-7)


@pytest.mark.parametrize(("outcome", "exact"), SELF_INFORMATION_ROWS)
def test_golden_information_of_an_outcome(outcome: str, exact: str) -> None:
    row = next(row for row in _seed("expected__self_information") if row["outcome"] == outcome)
    probability = int(row["numerator"]) / int(row["denominator"])
    assert math.isclose(float(row["expected_value"]), -math.log(probability), rel_tol=0, abs_tol=1e-15)
    assert math.isclose(float(row["expected_value"]), float(exact), rel_tol=0, abs_tol=5e-7)
