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
import tempfile
from pathlib import Path
from typing import Any

import ir_measures
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import assume, event, given
from hypothesis import strategies as st

import rankwise
from rankwise._trec_eval import trec_eval

from .test_trec_eval_command import CROSS_CHECK, TOLERANCE, _by_line, _files, _measures, incomplete_cases

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


# trec_eval -J: every line of `rankwise trec_eval -J` against pytrec_eval with
# judged_docs_only_flag, on the random TREC files of test_trec_eval_command.py
# (judgments of -1, unjudged documents, ties, graded relevance, queries on one
# side only), with and without -c.
@CROSS_CHECK
@given(drawn=incomplete_cases(), k=st.integers(4, 40), level=st.sampled_from([1, 2]), complete=st.booleans())
def test_judged_only_is_trec_eval_s_minus_j(drawn: tuple[Any, dict[str, dict[str, int]]], k: int, level: int,
                                             complete: bool) -> None:
    case, qrels = drawn
    run = case.run()
    assume(case.is_evaluable())
    judged = {query: {doc for doc, level_ in docs.items() if level_ >= 0} for query, docs in qrels.items()}
    assume(all(judged.values()))
    assume(set(run) & set(qrels))
    assume({doc for docs in run.values() for doc in docs} & {doc for docs in judged.values() for doc in docs})
    arguments, names = _measures(k)
    expected = pytrec_eval.RelevanceEvaluator(qrels, names, relevance_level=level,
                                              judged_docs_only_flag=True).evaluate(run)
    event(f"documents dropped by -J: {sum(doc not in judged.get(query, ()) for query, docs in run.items() for doc in docs) > 0}")
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, arguments, per_query=True, complete=complete, relevance_level=level,
                           judged_only=True)
    actual = _by_line(result.lines)
    queries = set(qrels) if complete else set(expected)
    assert {query for _, query in actual} == queries | {"all"}
    for query, measures in expected.items():
        assert set(measures) == names
        for name, value in measures.items():
            assert math.isclose(actual[(name, query)], value, rel_tol=0, abs_tol=TOLERANCE), (name, query)
    for query in queries - set(expected):
        assert all(actual[(name, query)] == 0 for name in names)
    assert actual[("num_q", "all")] == len(queries)
    for name in names:
        mean = sum(measures[name] for measures in expected.values()) / len(queries)
        assert math.isclose(actual[(name, "all")], mean, rel_tol=0, abs_tol=TOLERANCE), name


def test_minus_j_on_trec_eval_s_own_files() -> None:
    """trec_eval's test files (tests/fixtures/trec_eval/): most documents of
    results.test are unjudged; -J's lines equal pytrec_eval's with
    judged_docs_only_flag, and the note counts the documents dropped."""
    from rankwise.trec import read_qrels, read_run

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"
    qrels, run = read_qrels(folder / "qrels.test"), read_run(folder / "results.test")
    nested_qrels = {query: dict(zip(rows["item_id"], rows["relevance"].astype(int)))
                    for query, rows in qrels.groupby("user_id")}
    nested_run = {query: dict(zip(rows["item_id"], rows["score"].astype(float))) for query, rows in run.groupby("user_id")}
    names = {"map", "P_5", "P_10", "ndcg_cut_10", "recip_rank", "Rprec", "recall_100"}
    expected = pytrec_eval.RelevanceEvaluator(nested_qrels, names, judged_docs_only_flag=True).evaluate(nested_run)
    plain = pytrec_eval.RelevanceEvaluator(nested_qrels, names).evaluate(nested_run)
    assert any(expected[query]["map"] != plain[query]["map"] for query in expected)
    result = trec_eval(folder / "qrels.test", folder / "results.test",
                       ["map", "P.5,10", "ndcg_cut.10", "recip_rank", "Rprec", "recall.100"], per_query=True,
                       judged_only=True)
    actual = _by_line(result.lines)
    assert len(expected) == 3
    for query, measures in expected.items():
        for name, value in measures.items():
            assert math.isclose(actual[(name, query)], value, rel_tol=0, abs_tol=TOLERANCE), (name, query)
    dropped = sum(doc not in nested_qrels.get(query, {}) for query, docs in nested_run.items() for doc in docs
                  if query in nested_qrels)
    assert any(note.startswith(f"-J: {dropped} unjudged document(s)") for note in result.notes), result.notes
