"""Every worked example of the specification, tests/golden/golden-examples.md (the
five documents' examples, with the exact value of each), against the expected
values the integration tests assert within 1e-9, and those expected values
against the oracle that computed them.

The exact value of a golden row is read from its own row of the specification's
tables (the "exact value" column), never searched for anywhere in the text: a
figure such as "0.4" occurs in many rows, so finding it proves nothing. Erratum
rows are asserted at the exact value, not the figure the document printed.
tests/unit/test_expected_cases.py then runs rankwise.evaluate on the same
inputs and compares it with the same expected values."""

from __future__ import annotations

import csv
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.reference import make_expected, random_inputs

REPO_ROOT = Path(__file__).resolve().parents[2]
SPECIFICATION = REPO_ROOT / "tests" / "golden" / "golden-examples.md"
SEEDS = REPO_ROOT / "integration_tests" / "seeds"


class Golden(NamedTuple):
    """One value of the specification and where the expected seed holds it.

    document and case name the table row (its "case" cell, verbatim); position
    is which of the values of its "exact value" cell (some cells hold two, as
    "0.4, 0.666667"). key is (variant, example_id, user_id or "" for a mean,
    metric, k or "" for the whole list) in expected__cases.csv."""

    document: str
    case: str
    position: int
    key: tuple[str, str, str, str, str]


def _key(variant: str, example: str, user: str, metric: str, k: str) -> tuple[str, str, str, str, str]:
    return (f"golden__{variant}", example, user, metric, k)


GOLDEN_ROWS = [
    Golden("000", "P and R", 0, _key("default", "doc000_precision_recall", "doc000_user", "precision", "5")),
    Golden("000", "P and R", 1, _key("default", "doc000_precision_recall", "doc000_user", "recall", "5")),
    Golden("000", "AP@3 a", 0, _key("default", "doc000_ap_at_3", "doc000_ap_a", "map", "3")),
    Golden("000", "AP@3 b", 0, _key("default", "doc000_ap_at_3", "doc000_ap_b", "map", "3")),
    Golden("000", "AP@3 c", 0, _key("default", "doc000_ap_at_3", "doc000_ap_c", "map", "3")),
    Golden("000", "AP@3 d", 0, _key("default", "doc000_ap_at_3", "doc000_ap_d", "map", "3")),
    Golden("000", "AP@3 e", 0, _key("default", "doc000_ap_at_3", "doc000_ap_e", "map", "3")),
    Golden("000", "AP@3 f", 0, _key("default", "doc000_ap_at_3", "doc000_ap_f", "map", "3")),
    Golden("001", '"mAP" example 1', 0, _key("default", "doc001_example_1", "doc001_ex1", "map_to_full_recall", "")),
    Golden("001", '"mAP@5" example 1', 0, _key("default", "doc001_example_1", "doc001_ex1", "map_to_full_recall", "5")),
    Golden("001", "standard AP example 1", 0, _key("default", "doc001_example_1", "doc001_ex1", "map", "")),
    Golden("001", '"mAP" example 2 (relevant at 2, 6, 7, 9, 10)', 0,
           _key("default", "doc001_example_2", "doc001_ex2", "map_to_full_recall", "")),
    Golden("001", "standard AP example 2", 0, _key("default", "doc001_example_2", "doc001_ex2", "map", "")),
    Golden("001", "binary nDCG@10 example 1", 0, _key("default", "doc001_example_1", "doc001_ex1", "ndcg", "10")),
    Golden("001", "binary nDCG@10 example 2", 0, _key("default", "doc001_example_2", "doc001_ex2", "ndcg", "10")),
    Golden("001", "yut sticks", 0, _key("default", "doc001_yut_sticks", "", "entropy", "")),
    Golden("001", "model A", 0, _key("default", "doc001_model_a", "", "entropy", "")),
    Golden("001", "model B", 0, _key("default", "doc001_model_b", "", "entropy", "")),
    Golden("002", "q1 P@1, R@1", 0, _key("default", "doc002_queries", "doc002_q1", "precision", "1")),
    Golden("002", "q1 P@1, R@1", 1, _key("default", "doc002_queries", "doc002_q1", "recall", "1")),
    Golden("002", "q2 P@1, R@1", 0, _key("default", "doc002_queries", "doc002_q2", "precision", "1")),
    Golden("002", "q2 P@1, R@1", 1, _key("default", "doc002_queries", "doc002_q2", "recall", "1")),
    Golden("002", "q1 P@2, R@2", 0, _key("default", "doc002_queries", "doc002_q1", "precision", "2")),
    Golden("002", "q1 P@2, R@2", 1, _key("default", "doc002_queries", "doc002_q1", "recall", "2")),
    Golden("002", "q2 P@2, R@2", 0, _key("default", "doc002_queries", "doc002_q2", "precision", "2")),
    Golden("002", "q2 P@2, R@2", 1, _key("default", "doc002_queries", "doc002_q2", "recall", "2")),
    Golden("002", "q1 P@3, R@3", 0, _key("default", "doc002_queries", "doc002_q1", "precision", "3")),
    Golden("002", "q1 P@3, R@3", 1, _key("default", "doc002_queries", "doc002_q1", "recall", "3")),
    Golden("002", "q2 P@3, R@3", 0, _key("default", "doc002_queries", "doc002_q2", "precision", "3")),
    Golden("002", "q2 P@3, R@3", 1, _key("default", "doc002_queries", "doc002_q2", "recall", "3")),
    # document 002 divides AP by the hits, not by m: ap_denominator='hits'
    Golden("002", "q1 AP", 0, _key("ap_hits", "doc002_queries", "doc002_q1", "map", "")),
    Golden("002", "q2 AP", 0, _key("ap_hits", "doc002_queries", "doc002_q2", "map", "")),
    Golden("002", "MAP", 0, _key("ap_hits", "doc002_queries", "", "map", "")),
    Golden("003", "P@5", 0, _key("default", "doc003_precision_at_5", "doc003_user", "precision", "5")),
    Golden("003", "mean P@3", 0, _key("default", "doc003_mean_precision_at_3", "", "precision", "3")),
    Golden("004", "AP@5 query 1", 0, _key("default", "doc004_map_mrr", "doc004_q1", "map", "5")),
    Golden("004", "AP@5 query 2", 0, _key("default", "doc004_map_mrr", "doc004_q2", "map", "5")),
    Golden("004", "MAP@5", 0, _key("default", "doc004_map_mrr", "", "map", "5")),
    Golden("004", "MRR", 0, _key("default", "doc004_map_mrr", "", "mrr", "")),
    Golden("004", "DCG@5", 0, _key("default", "doc004_dcg", "doc004_user", "dcg", "5")),
    Golden("004", "IDCG@5", 0, _key("default", "doc004_dcg", "doc004_user", "idcg", "5")),
    Golden("004", "NDCG@5", 0, _key("default", "doc004_dcg", "doc004_user", "ndcg", "5")),
    Golden("004", "NDCG@5, exponential gain 2^rel - 1", 0,
           _key("gain_exponential", "doc004_dcg", "doc004_user", "ndcg", "5")),
]

# Values the specification states in a sentence or a parenthesis rather than in
# a cell of its own: (document, pattern whose groups are the values, position,
# key). Each pattern is matched in its document's section only.
M_EQUALS_5 = r"with m = 5 the values would be (\d+\.\d+) and (\d+(?:\.\d+)?)"
# mean P@3 "0.333333 (2/3 and 0)": the two lists' own P@3
MEAN_P_AT_3_PARTS = r"\| 0\.333333 \((\d+/\d+) and (\d+)\) \|"
PROSE_ROWS = [
    ("002", M_EQUALS_5, 0, _key("default", "doc002_queries", "doc002_q1", "map", "")),
    ("002", M_EQUALS_5, 1, _key("default", "doc002_queries", "doc002_q2", "map", "")),
    ("003", MEAN_P_AT_3_PARTS, 0, _key("default", "doc003_mean_precision_at_3", "doc003_case_1", "precision", "3")),
    ("003", MEAN_P_AT_3_PARTS, 1, _key("default", "doc003_mean_precision_at_3", "doc003_case_2", "precision", "3")),
]

# Document 001's information of single outcomes (table rows of the entropy
# table), asserted in dbt against rankwise.self_information
# (integration_tests/models/actual__self_information.sql): case -> outcome.
SELF_INFORMATION_ROWS = {'information of "gae"': "gae", 'information of "yut"': "yut"}

TOLERANCE = 5e-7  # the specification prints six decimals


def _sections(text: str) -> dict[str, str]:
    """The text of each document's section, by its number ("## 000 (...)")."""
    parts = re.split(r"^## (\d{3}) .*$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _exact_values(cell: str) -> list[str]:
    """The values of an "exact value" cell, without the bold marks of an erratum
    and without the parenthesised notes: "**0.666667**, 0.4 (erratum: ...)"
    gives ["0.666667", "0.4"]."""
    bare = re.sub(r"\([^)]*\)", "", cell).replace("**", "")
    return [value.strip() for value in bare.split(",") if value.strip()]


def specification_rows(text: str) -> dict[tuple[str, str], list[str]]:
    """(document, case) -> the values of the row's "exact value" cell, for every
    row of every table of the specification that has that column."""
    rows: dict[tuple[str, str], list[str]] = {}
    for document, section in _sections(text).items():
        header: list[str] | None = None
        for line in section.splitlines():
            if not line.startswith("|"):
                header = None
                continue
            cells = _cells(line)
            if header is None:
                header = cells
            elif set("".join(cells)) <= set("-: ") or "exact value" not in header:
                continue  # the separator line, or a table without exact values
            else:
                case = cells[header.index("case")]
                assert (document, case) not in rows, f"document {document}: two rows named {case!r}"
                rows[(document, case)] = _exact_values(cells[header.index("exact value")])
    return rows


@pytest.fixture(scope="module")
def specification() -> str:
    return SPECIFICATION.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def table_rows(specification: str) -> dict[tuple[str, str], list[str]]:
    return specification_rows(specification)


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


def test_every_row_of_the_specification_is_a_golden_test(table_rows: dict[tuple[str, str], list[str]]) -> None:
    covered = {(row.document, row.case, row.position) for row in GOLDEN_ROWS}
    covered |= {("001", case, 0) for case in SELF_INFORMATION_ROWS}
    listed = {(document, case, position) for (document, case), values in table_rows.items()
              for position in range(len(values))}
    assert listed - covered == set(), "values of the specification no golden row asserts"
    assert covered - listed == set(), "golden rows naming no value of the specification"


def test_the_table_reader_reads_each_kind_of_cell() -> None:
    """The reader on the specification's own cell forms: two values, an erratum
    in bold with its note, and a parenthesised aside holding other figures."""
    assert _exact_values("0.4, 0.666667") == ["0.4", "0.666667"]
    assert _exact_values("**0.666667**, 0.4 (erratum: 2/3 printed as 0.6)") == ["0.666667", "0.4"]
    assert _exact_values("0.333333 (2/3 and 0)") == ["0.333333"]
    table = "## 009 (x)\n\n| case | exact value |\n|---|---|\n| a | 1, 2 |\n| b | **3** (note, 4) |\n\nprose | 5\n"
    assert specification_rows(table) == {("009", "a"): ["1", "2"], ("009", "b"): ["3"]}


@pytest.mark.parametrize("golden", GOLDEN_ROWS, ids=[f"{row.document} {row.case} [{row.position}]" for row in GOLDEN_ROWS])
def test_golden_row(golden: Golden, table_rows: dict[tuple[str, str], list[str]], expected_values) -> None:
    assert (golden.document, golden.case) in table_rows, f"document {golden.document} has no row {golden.case!r}"
    exact = float(table_rows[(golden.document, golden.case)][golden.position])
    assert golden.key in expected_values, f"no expected value for {golden.key}"
    assert math.isclose(expected_values[golden.key], exact, rel_tol=0, abs_tol=TOLERANCE)


@pytest.mark.parametrize(("document", "pattern", "position", "key"), PROSE_ROWS,
                         ids=[f"{row[0]} {row[3][2]} {row[3][3]}" for row in PROSE_ROWS])
def test_golden_value_stated_in_prose(document: str, pattern: str, position: int, key: tuple[str, ...],
                                      specification: str, expected_values) -> None:
    found = re.search(pattern, _sections(specification)[document])
    assert found, f"document {document}: no text matching {pattern!r}"
    exact = float(Fraction(found.group(position + 1)))
    assert math.isclose(expected_values[key], exact, rel_tol=0, abs_tol=TOLERANCE)


@pytest.mark.parametrize(("case", "outcome"), SELF_INFORMATION_ROWS.items())
def test_golden_information_of_an_outcome(case: str, outcome: str, table_rows) -> None:
    row = next(row for row in _seed("expected__self_information") if row["outcome"] == outcome)
    probability = int(row["numerator"]) / int(row["denominator"])
    assert math.isclose(float(row["expected_value"]), -math.log(probability), rel_tol=0, abs_tol=1e-15)
    (exact,) = table_rows[("001", case)]
    assert math.isclose(float(row["expected_value"]), float(exact), rel_tol=0, abs_tol=TOLERANCE)
