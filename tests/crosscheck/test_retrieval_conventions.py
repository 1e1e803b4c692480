"""rankwise's retrieval conventions against the tools that define them, on
random cases with incomplete judgments (most retrieved documents unjudged,
some judged non-relevant), graded relevance and tied scores:

- `judged@k` against ir_measures' `Judged@k` (its own provider);
- `judged_only` against trec_eval's `-J` (pytrec_eval, trec_eval's C code,
  with `judged_docs_only_flag`), every measure the two share.
"""

from __future__ import annotations

import math
import random

import ir_measures
import pandas as pd
import pytest
import pytrec_eval

import rankwise

SEEDS = range(6)


def random_case(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run of 8-25 queries, each 0-40 documents with scores drawn from few
    values (ties), and qrels that judge a random share of each query's
    documents (0-100%) and some documents it did not retrieve; relevance 0-3.
    A few queries have judgments only, a few documents only."""
    rng = random.Random(seed)
    run_rows, qrels_rows = [], []
    for query in range(rng.randint(8, 25)):
        qid = f"q{query}"
        documents = rng.sample(range(200), rng.randint(0, 40))
        judged_share = rng.random()
        has_run, has_qrels = rng.random() > 0.1, rng.random() > 0.1
        for doc in documents:
            if has_run:
                run_rows.append((qid, f"d{doc}", float(rng.randint(0, 12))))
            if has_qrels and rng.random() < judged_share:
                qrels_rows.append((qid, f"d{doc}", rng.choice([0, 0, 1, 2, 3])))
        if has_qrels:
            for doc in rng.sample(range(200, 260), rng.randint(0, 4)):
                qrels_rows.append((qid, f"d{doc}", rng.choice([0, 1, 2])))
    run = pd.DataFrame(run_rows, columns=["user_id", "item_id", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["user_id", "item_id", "relevance"])
    return run, qrels


def _nested_run(run: pd.DataFrame) -> dict[str, dict[str, float]]:
    nested: dict[str, dict[str, float]] = {}
    for row in run.itertuples():
        nested.setdefault(row.user_id, {})[row.item_id] = row.score
    return nested


def _nested_qrels(qrels: pd.DataFrame) -> dict[str, dict[str, int]]:
    nested: dict[str, dict[str, int]] = {}
    for row in qrels.itertuples():
        nested.setdefault(row.user_id, {})[row.item_id] = int(row.relevance)
    return nested


@pytest.mark.parametrize("seed", SEEDS)
def test_judged_is_ir_measures_judged(seed: int) -> None:
    run, qrels = random_case(seed)
    cutoffs = [1, 3, 5, 10, 20, 50]
    # ir_measures orders tied scores by document id ascending (ties='item_asc'),
    # and gives a query of the qrels without documents 0 (users='interactions')
    expected = {(str(metric.measure), metric.query_id): metric.value
                for metric in ir_measures.iter_calc([ir_measures.Judged @ k for k in cutoffs] + [ir_measures.Judged],
                                                    _nested_qrels(qrels), _nested_run(run))}
    assert len(expected) > 20
    actual = rankwise.evaluate(run, qrels, ["Judged"] + [f"Judged@{k}" for k in cutoffs], per_user=True,
                               score_col="score", relevance_col="relevance", ties="item_asc", users="interactions")
    compared = 0
    for row in actual.itertuples():
        name = "Judged" if pd.isna(row.k) else f"Judged@{int(row.k)}"
        assert math.isclose(row.value, expected[(name, row.user_id)], rel_tol=0, abs_tol=1e-9), (name, row.user_id)
        compared += 1
    assert compared == len(expected)
    # the means, under each judged strategy
    # (rank_bits up to 62, running_hits past it)
    for metrics in ([f"judged@{k}" for k in cutoffs[:4]], [f"judged@{k}" for k in cutoffs] + ["judged"]):
        means = rankwise.evaluate(run, qrels, metrics, score_col="score", relevance_col="relevance", ties="item_asc",
                                  users="interactions", confidence=None)
        assert len(means) == len(metrics)
        for row in means.itertuples():
            name = "Judged" if pd.isna(row.k) else f"Judged@{int(row.k)}"
            values = [value for (measure, _), value in expected.items() if measure == name]
            assert row.n_users == len(values)
            assert math.isclose(row.value, sum(values) / len(values), rel_tol=0, abs_tol=1e-9), name
