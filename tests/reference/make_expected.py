"""Writes the random input seeds (random_inputs.py), then computes
integration_tests/seeds/expected__cases.csv with the oracle, for every case of
var('rankwise_test_cases') in integration_tests/dbt_project.yml, but with
trec_eval itself (trec_eval_reference.py) for the cases under convention
'trec_eval'.

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

from tests.reference import oracle, random_inputs, trec_eval_reference  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
PROJECT = REPO_ROOT / "integration_tests"
SEEDS = PROJECT / "seeds"
EXPECTED = SEEDS / "expected__cases.csv"
HEADER = ["variant", "example_id", "user_id", "metric", "k", "expected_value", "expected_n_users"]


def cases() -> list[dict]:
    return yaml.safe_load((PROJECT / "dbt_project.yml").read_text())["vars"]["rankwise_test_cases"]


def evaluate_arguments(case: dict) -> dict:
    """The arguments of rankwise.evaluate for a case, as the model actual__cases
    passes them: example_id a partition of both seeds where the case says
    partition_by (each worked example has its own truth), else a group."""
    split = "partition_by" if case.get("partition_by") else "group_by"
    return {"metrics": case["metrics"], "k": case["k"], split: ["example_id"], **case["options"]}


def _read(seed: str) -> list[dict[str, str]]:
    with (SEEDS / f"{seed}.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def _inputs(case: dict) -> tuple[dict, dict]:
    """The lists per (example_id, user) and the truth per partition and user."""
    options = case["options"]
    by_score = "score_col" in options
    rows: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for row in _read(case["recommendations"]):
        position = float(row[options["score_col"]]) if by_score else int(row["rank"])
        rows.setdefault((row["example_id"], row["user_id"]), []).append((row["item_id"], position))
    lists = {key: oracle.ranked(items, by_score, options.get("ties", "item_desc")) for key, items in rows.items()}
    # The truth per partition: one partition (None) unless the case partitions
    # both tables by example_id.
    truths: dict[str | None, dict[str, dict[str, float]]] = {}
    for row in _read(case["interactions"]):
        relevance = float(row[options["relevance_col"]]) if "relevance_col" in options else 1.0
        partition = row["example_id"] if case.get("partition_by") else None
        truths.setdefault(partition, {}).setdefault(row["user_id"], {})[row["item_id"]] = relevance
    return lists, truths


def expected_rows() -> list[list[str]]:
    """Every row the model actual__cases must produce, with its expected value."""
    rows = []
    for case in cases():
        if case["options"].get("convention") == "trec_eval":
            means, per_user = trec_eval_reference.evaluate(case, _read(case["recommendations"]),
                                                           _read(case["interactions"]))
            rows += _rows(case, means, per_user)
            continue
        names = {field for field in oracle.Options.__dataclass_fields__}
        options = oracle.Options(**{key: value for key, value in case["options"].items() if key in names})
        lists, truths = _inputs(case)
        if case.get("partition_by"):
            means, per_user = [], []
            for partition in sorted({example for example, _ in lists}):
                own = {key: ranking for key, ranking in lists.items() if key[0] == partition}
                partition_means, partition_users = oracle.evaluate(own, truths.get(partition, {}), case["metrics"],
                                                                   case["k"], options)
                means += partition_means
                per_user += partition_users
        else:
            means, per_user = oracle.evaluate(lists, truths.get(None, {}), case["metrics"], case["k"], options)
        rows += _rows(case, means, per_user)
    return sorted(rows)


def _rows(case: dict, means: list[tuple], per_user: list[tuple]) -> list[list[str]]:
    """The rows of expected__cases.csv of a case's means and per-user values."""
    rows = []
    for group, metric, k, value, n_users in means:
        rows.append([case["name"], group, "", metric, "" if k is None else str(k), repr(value), str(n_users)])
    for group, user, metric, k, value in per_user:
        rows.append([case["name"], group, user, metric, "" if k is None else str(k), repr(value), ""])
    return rows


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
