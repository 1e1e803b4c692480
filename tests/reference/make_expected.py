"""Writes the random input seeds (random_inputs.py), then computes
integration_tests/seeds/expected__cases.csv with the oracle, for every case of
var('rankwise_test_cases') in integration_tests/dbt_project.yml.

    python tests/reference/make_expected.py
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import yaml

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.reference import oracle, random_inputs  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
PROJECT = REPO_ROOT / "integration_tests"
SEEDS = PROJECT / "seeds"
EXPECTED = SEEDS / "expected__cases.csv"
HEADER = ["variant", "example_id", "user_id", "metric", "k", "expected_value", "expected_n_users"]


def cases() -> list[dict]:
    return yaml.safe_load((PROJECT / "dbt_project.yml").read_text())["vars"]["rankwise_test_cases"]


def _read(seed: str) -> list[dict[str, str]]:
    with (SEEDS / f"{seed}.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def _inputs(case: dict) -> tuple[dict, dict]:
    options = case["options"]
    by_score = "score_col" in options
    rows: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for row in _read(case["recommendations"]):
        position = float(row[options["score_col"]]) if by_score else int(row["rank"])
        rows.setdefault((row["example_id"], row["user_id"]), []).append((row["item_id"], position))
    lists = {key: oracle.ranked(items, by_score, options.get("ties", "item_desc")) for key, items in rows.items()}
    truths: dict[str, dict[str, float]] = {}
    for row in _read(case["interactions"]):
        relevance = float(row[options["relevance_col"]]) if "relevance_col" in options else 1.0
        truths.setdefault(row["user_id"], {})[row["item_id"]] = relevance
    return lists, truths


def expected_rows() -> list[list[str]]:
    """Every row the model actual__cases must produce, with its expected value."""
    rows = []
    for case in cases():
        names = {field for field in oracle.Options.__dataclass_fields__}
        options = oracle.Options(**{key: value for key, value in case["options"].items() if key in names})
        lists, truths = _inputs(case)
        means, per_user = oracle.evaluate(lists, truths, case["metrics"], case["k"], options)
        for group, metric, k, value, n_users in means:
            rows.append([case["name"], group, "", metric, "" if k is None else str(k), repr(value), str(n_users)])
        for group, user, metric, k, value in per_user:
            rows.append([case["name"], group, user, metric, "" if k is None else str(k), repr(value), ""])
    return sorted(rows)


def render() -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(expected_rows())
    return buffer.getvalue()


if __name__ == "__main__":
    random_inputs.write_seeds(SEEDS)
    EXPECTED.write_text(render())
    print(f"wrote {EXPECTED.relative_to(REPO_ROOT)}")
