"""rankwise's retrieval conventions against the tools that define them, on
random cases with incomplete judgments (most retrieved documents unjudged,
some judged non-relevant), graded relevance and tied scores:

- `judged@k` against ir_measures' `Judged@k` (its own provider);
- `judged_only` against trec_eval's `-J` (pytrec_eval, trec_eval's C code,
  with `judged_docs_only_flag`, and ports of trec_eval 10.0's measures where
  pytrec_eval differs or lacks one), every measure `rankwise trec_eval`
  checks without -J.
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

from .test_trec_eval_command import (CROSS_CHECK, TOLERANCE, _by_line, _check_lines, _expected, _files,
                                     _judged_docs_only, incomplete_cases, judged_case)

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


# trec_eval -J: every line of `rankwise trec_eval -J` against trec_eval's (pytrec_eval with
# judged_docs_only_flag, and the ports of trec_eval 10.0 of test_trec_eval_command.py reading the run -J leaves),
# every measure test_every_line_matches_trec_eval checks, on its random TREC files (judgments of -1, unjudged
# documents, ties, graded relevance, queries on one side only, queries whose documents are all unjudged), with and
# without -c.
@CROSS_CHECK
@given(drawn=incomplete_cases(), k=st.integers(4, 40), level=st.sampled_from([1, 2]), complete=st.booleans())
def test_judged_only_is_trec_eval_s_minus_j(drawn: tuple[Any, dict[str, dict[str, int]]], k: int, level: int,
                                             complete: bool) -> None:
    run, qrels, _ = judged_case(drawn, shares_a_judged_document=False)
    arguments, names, expected = _expected(run, qrels, k, level, judged_only=True)
    kept = _judged_docs_only(run, qrels)
    event(f"lines of relevance -1: {any(level_ < 0 for docs in qrels.values() for level_ in docs.values())}")
    event(f"documents dropped by -J: {kept != run}")
    event(f"a query keeps no document: {any(not kept[query] for query in set(run) & set(qrels))}")
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, arguments, per_query=True, complete=complete, relevance_level=level,
                           judged_only=True)
    _check_lines(_by_line(result.lines), expected, names, qrels, level, complete, judged_only=True)


@pytest.mark.parametrize("complete", [False, True])
@pytest.mark.parametrize("level", [1, 2])
def test_minus_j_on_a_run_without_a_judged_document(complete: bool, level: int) -> None:
    """A run of which -J keeps no document, and whose document ids the qrels
    never judge 0 or more (one is judged -1): rankwise.evaluate refuses such
    tables (NoOverlapError, ids written differently?), trec_eval scores each
    query as one without a document, and so does rankwise trec_eval -J: 0, but
    num_rel and utility, and NaN where trec_eval divides 0 by 0."""
    run = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0, "d9": 0.5}}
    qrels = {"q1": {"d4": 1, "d5": 0, "d6": 2}, "q2": {"d7": 0, "d9": -1}, "q3": {"d8": 2}}
    arguments, names, expected = _expected(run, qrels, 5, level, judged_only=True)
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, arguments, per_query=True, complete=complete, relevance_level=level,
                           judged_only=True)
    actual = _by_line(result.lines)
    _check_lines(actual, expected, names, qrels, level, complete, judged_only=True)
    assert math.isnan(actual[("11pt_avg", "all")])
    assert any(note.startswith("-J: 4 unjudged document(s) of the run are dropped before ranking; 2 queries keep "
                               "none") for note in result.notes), result.notes


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


def _beir_evaluate(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]], k_values: list[int],
                   ignore_identical_ids: bool = True) -> dict[str, float]:
    """BEIR's EvaluateRetrieval.evaluate and evaluate_custom(metric='r_cap')
    (beir-cellar/beir, beir/retrieval/evaluation.py and custom_metrics.py),
    reproduced line for line on pytrec_eval, as beir itself runs it, but for
    its rounding of each mean to 5 decimals, which is left out to compare to
    1e-9 (beir needs torch: it is not installed for this)."""
    results = {qid: dict(rels) for qid, rels in results.items()}
    if ignore_identical_ids:
        for qid, rels in results.items():
            for pid in list(rels):
                if qid == pid:
                    results[qid].pop(pid)
    means: dict[str, float] = {}
    joined = ",".join(str(k) for k in k_values)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{joined}", f"ndcg_cut.{joined}", f"recall.{joined}",
                                                       f"P.{joined}"})
    scores = evaluator.evaluate(results)
    for k in k_values:
        for name, measure in (("NDCG", "ndcg_cut"), ("MAP", "map_cut"), ("Recall", "recall"), ("P", "P")):
            means[f"{name}@{k}"] = sum(scores[query_id][f"{measure}_{k}"] for query_id in scores) / len(scores)
    # custom_metrics.recall_cap: sorted by score, relevant = level > 0, over len(qrels)
    capped = {k: 0.0 for k in k_values}
    for query_id, doc_scores in results.items():
        top_hits = sorted(doc_scores.items(), key=lambda item: item[1], reverse=True)[0:max(k_values)]
        query_relevant_docs = [doc_id for doc_id in qrels[query_id] if qrels[query_id][doc_id] > 0]
        for k in k_values:
            retrieved_docs = [row[0] for row in top_hits[0:k] if qrels[query_id].get(row[0], 0) > 0]
            capped[k] += len(retrieved_docs) / min(len(query_relevant_docs), k)
    for k in k_values:
        means[f"R_cap@{k}"] = capped[k] / len(qrels)
    return means


def beir_case(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A corpus where queries are documents too (BEIR's ArguAna, Quora): each
    query's run may retrieve the query itself; distinct scores (BEIR's R_cap
    keeps tied scores in dict order); every query of the qrels has a relevant
    document (BEIR's R_cap divides by min(R, k)), and every query of the run
    is in the qrels (it looks each up)."""
    rng = random.Random(1000 + seed)
    ids = [f"id{number}" for number in range(120)]
    run_rows, qrels_rows = [], []
    for query in rng.sample(ids, rng.randint(10, 30)):
        judged = rng.sample(ids, rng.randint(1, 12))
        relevant = set(rng.sample(judged, rng.randint(1, len(judged))))
        qrels_rows += [(query, doc, rng.randint(1, 3) if doc in relevant else 0) for doc in judged]
        if rng.random() < 0.85:
            retrieved = rng.sample(ids, rng.randint(1, 60))
            if rng.random() < 0.5 and query not in retrieved:
                retrieved.append(query)
            scores = rng.sample(range(10_000), len(retrieved))
            run_rows += [(query, doc, score / 100) for doc, score in zip(retrieved, scores)]
    return (pd.DataFrame(run_rows, columns=["user_id", "item_id", "score"]),
            pd.DataFrame(qrels_rows, columns=["user_id", "item_id", "relevance"]))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_beir_preset_is_beir_s_evaluation(seed: int) -> None:
    run, qrels = beir_case(seed)
    nested_run = _nested_run(run)
    assert any(query in docs for query, docs in nested_run.items())
    expected = _beir_evaluate(_nested_qrels(qrels), nested_run, [1, 3, 5, 10, 100, 1000])
    with pytest.warns(rankwise.RankwiseWarning, match=r"item\(s\) whose id is their user's \(ignore_identical_ids\)"):
        actual = rankwise.evaluate(run, qrels, ["beir"] + [f"R_cap@{k}" for k in (1, 3, 5, 10, 100, 1000)],
                                   convention="beir", score_col="score", relevance_col="relevance", confidence=None)
    names = {"ndcg": "NDCG", "map": "MAP", "recall": "Recall", "precision": "P", "recall_cap": "R_cap"}
    assert len(actual) == len(expected) == 30
    for row in actual.itertuples():
        name = f"{names[row.metric]}@{int(row.k)}"
        assert math.isclose(row.value, expected[name], rel_tol=0, abs_tol=1e-9), name
    # without the preset's ignore_identical_ids the numbers are another run's
    kept = rankwise.evaluate(run, qrels, ["ndcg@10"], convention="beir", ignore_identical_ids=False, score_col="score",
                             relevance_col="relevance", confidence=None)
    plain = _beir_evaluate(_nested_qrels(qrels), nested_run, [10], ignore_identical_ids=False)
    assert math.isclose(kept["value"].iloc[0], plain["NDCG@10"], rel_tol=0, abs_tol=1e-9)


def test_the_msmarco_preset_is_ms_marco_s_mrr_at_10() -> None:
    """ms_marco_eval.py's compute_metrics: for each query of the candidates,
    1 / the first rank (of its ranks as given, up to 10) holding a relevant
    passage, summed and divided by the queries of the qrels."""
    rng = random.Random(7)
    run_rows, qrels_rows = [], []
    for query in range(40):
        relevant = rng.sample(range(500), rng.randint(1, 3))
        qrels_rows += [(query, passage, 1) for passage in relevant]
        if rng.random() < 0.9:
            candidates = rng.sample(range(500), 30) + ([relevant[0]] if rng.random() < 0.6 else [])
            rng.shuffle(candidates)
            run_rows += [(query, passage, rank) for rank, passage in enumerate(dict.fromkeys(candidates), start=1)]
    run = pd.DataFrame(run_rows, columns=["user_id", "item_id", "rank"])
    qrels = pd.DataFrame(qrels_rows, columns=["user_id", "item_id", "relevance"])
    mrr = 0.0
    for query, rows in run.groupby("user_id"):
        relevant = set(qrels.loc[qrels["user_id"] == query, "item_id"])
        ranked = rows.sort_values("rank")["item_id"].tolist()[:10]
        mrr += next((1 / (position + 1) for position, passage in enumerate(ranked) if passage in relevant), 0.0)
    expected = mrr / qrels["user_id"].nunique()
    actual = rankwise.evaluate(run, qrels, "msmarco", convention="msmarco", confidence=None)
    assert list(actual["metric_label"]) == ["mrr@10"]
    assert math.isclose(actual["value"].iloc[0], expected, rel_tol=0, abs_tol=1e-12)


def _trec_eval_unj(run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]],
                   cutoffs: list[int]) -> dict[str, dict[int, float]]:
    """m_unjudged.c's te_calc_unj (trec_eval 10.0; pytrec_eval 0.5 predates
    it), ported: documents in trec_eval's order (score descending, then docno
    descending: form_res_rels.c), a document unjudged when the qrels lack it
    or judge it -1; at each cutoff the unjudged so far over the cutoff, the
    cutoffs past the end of the run over their own value."""
    values = {}
    for query, docs in run.items():
        if query not in qrels:
            continue
        ranked = sorted(docs, key=lambda doc: (docs[doc], doc), reverse=True)
        unjudged = [qrels[query].get(doc, -1) < 0 for doc in ranked]
        values[query] = {cutoff: sum(unjudged[:cutoff]) / cutoff for cutoff in cutoffs}
    return values


@CROSS_CHECK
@given(drawn=incomplete_cases(), cutoffs=st.lists(st.integers(1, 40), min_size=1, max_size=3, unique=True),
       complete=st.booleans())
def test_unjudged_is_trec_eval_s_unj(drawn: tuple[Any, dict[str, dict[str, int]]], cutoffs: list[int],
                                      complete: bool) -> None:
    run, qrels, judged = judged_case(drawn)
    cutoffs = sorted(cutoffs)
    expected = _trec_eval_unj(run, qrels, cutoffs)
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, ["unj." + ",".join(map(str, cutoffs))], per_query=True,
                           complete=complete)
    actual = _by_line(result.lines)
    queries = set(qrels) if complete else set(expected)
    assert {query for _, query in actual} == queries | {"all"}
    for query in queries:
        for cutoff in cutoffs:
            value = expected.get(query, {}).get(cutoff, 0.0)  # -c: a query without documents, 0
            assert math.isclose(actual[(f"unj_{cutoff}", query)], value, rel_tol=0, abs_tol=TOLERANCE), (cutoff, query)
    for cutoff in cutoffs:
        mean = sum(values[cutoff] for values in expected.values()) / len(queries)
        assert math.isclose(actual[(f"unj_{cutoff}", "all")], mean, rel_tol=0, abs_tol=TOLERANCE), cutoff
