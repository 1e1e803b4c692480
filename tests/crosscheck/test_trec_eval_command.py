"""`rankwise trec_eval` against trec_eval's own C code (pytrec_eval), to 1e-9,
on random TREC files: incomplete judgments (documents retrieved but never
judged, judgments of -1), ties in scores, graded relevance, queries of the run
without judgments and queries of the qrels missing from the run, with and
without -c, at -l 1 and 2. The files are written and read back, so the readers
are crossed too."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pandas as pd
import pytrec_eval
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import rankwise
from rankwise._trec_eval import trec_eval
from tests.reference.trec_eval_reference import iprec_at_recall, rbp_resid

from .strategies import Case, cases

COUNTS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
GEOMETRIC = {"gm_map", "gm_bpref"}
CROSS_CHECK = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
TOLERANCE = 1e-9
RECALL_LEVELS = [tenths / 10 for tenths in range(11)]  # iprec_at_recall's, 11pt_avg's


def _measures(k: int) -> tuple[list[str], set[str]]:
    """The -m arguments, and the names of the lines they print (those of
    pytrec_eval's measures)."""
    cutoffs = sorted({1, 3, k})
    joined = ",".join(map(str, cutoffs))
    arguments = [f"P.{joined}", f"recall.{joined}", "map", f"map_cut.{joined}", "ndcg", f"ndcg_cut.{joined}", "Rprec",
                 "recip_rank", f"success.{joined}", "set_P", "set_recall", "set_F", "num_q", "dcg", "ideal_dcg",
                 "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "bpref", "gm_map", "gm_bpref",
                 "iprec_at_recall", "11pt_avg", "Rprec_mult", f"relative_P.{joined}", "set_relative_P", "set_map",
                 "binG", "rbp_resid.p=0.8", "ndcg_rel", "G", "Rndcg", "infAP"]
    lines = {"map", "ndcg", "Rprec", "recip_rank", "set_P", "set_recall", "set_F", "num_ret", "num_rel", "num_rel_ret",
             "num_nonrel_judged_ret", "bpref", "11pt_avg", "set_relative_P", "set_map", "binG", "ndcg_rel", "G",
             "Rndcg", "infAP"}
    for measure in ("P", "recall", "map_cut", "ndcg_cut", "success", "relative_P"):
        lines |= {f"{measure}_{cutoff}" for cutoff in cutoffs}
    lines |= {f"iprec_at_recall_{tenths / 10:3.2f}" for tenths in range(11)}
    lines |= {f"Rprec_mult_{fifths / 5:3.2f}" for fifths in range(1, 11)}
    return arguments, lines


def _files(folder: Path, run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]]) -> tuple[Path, Path]:
    run_path, qrels_path = folder / "run", folder / "qrels"
    run_path.write_text("".join(f"{query}\tQ0\t{doc}\t0\t{score!r}\ttag\n"
                                for query, docs in run.items() for doc, score in docs.items()))
    qrels_path.write_text("".join(f"{query} 0 {doc} {level}\n" for query, docs in qrels.items()
                                  for doc, level in docs.items()))
    return qrels_path, run_path


def _by_line(lines: list[tuple[str, str, object]]) -> dict[tuple[str, str], object]:
    return {(name, query): value for name, query, value in lines}


@st.composite
def incomplete_cases(draw: st.DrawFn) -> tuple[Case, dict[str, dict[str, int]]]:
    """A case whose qrels mark some judgments -1 (in the pool, not judged), as
    trec_eval's qrels.rel_level does."""
    case = draw(cases())
    qrels = case.qrels()
    for docs in qrels.values():
        for doc in docs:
            if draw(st.integers(0, 5)) == 0:
                docs[doc] = -1
    return case, qrels


# pytrec_eval computes utility with its default weights only (it misreads utility.a,b,c,d): trec_eval's
# m_utility.c's sum over its counts stands for it with others
UTILITY = (2, -1, -0.5)
UTILITY_LINE = "utility_2,-1,-0.5,0"


def _judged_docs_only(run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]]
                      ) -> dict[str, dict[str, float]]:
    """The run as -J leaves it (form_res_rels.c, judged_docs_only_flag): each query's documents judged 0 or more,
    in their order; those not in the qrels and those judged -1 are dropped (a query may keep none)."""
    return {query: {doc: score for doc, score in docs.items() if qrels.get(query, {}).get(doc, -1) >= 0}
            for query, docs in run.items()}


def _expected(run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]], k: int, level: int,
              judged_only: bool = False) -> tuple[list[str], set[str], dict[str, dict[str, float]]]:
    """The -m arguments of every measure checked, the names of their lines, and trec_eval 10.0's value of each
    line of each query of the run that the qrels judge: pytrec_eval's (trec_eval 9.0's C code, -J its
    judged_docs_only_flag), but for utility with other weights, iprec_at_recall and 11pt_avg (10.0 rounds where 9.0
    truncated) and rbp_resid (pytrec_eval has none), computed by ports of trec_eval 10.0's m_*.c; under -J those
    read the run -J leaves, as form_res_rels.c hands it to every measure."""
    arguments, names = _measures(k)
    arguments.append("utility.{},{},{},0".format(*UTILITY))
    expected = pytrec_eval.RelevanceEvaluator(qrels, names | GEOMETRIC, relevance_level=level,
                                              judged_docs_only_flag=judged_only).evaluate(run)
    read = _judged_docs_only(run, qrels) if judged_only else run
    for query, measures in expected.items():
        measures[UTILITY_LINE] = (UTILITY[0] * measures["num_rel_ret"]
                                  + UTILITY[1] * (measures["num_ret"] - measures["num_rel_ret"])
                                  + UTILITY[2] * (measures["num_rel"] - measures["num_rel_ret"]))
        measures.update(_interpolated(read[query], qrels[query], level))
        measures["rbp_resid_p=0.8"] = rbp_resid(read[query], qrels[query], 0.8)
    return arguments, names | {UTILITY_LINE, "rbp_resid_p=0.8"}, expected


def _interpolated(docs: dict[str, float], levels: dict[str, int], relevance_level: int) -> dict[str, float]:
    """The lines of iprec_at_recall and 11pt_avg (their mean) by trec_eval 10.0."""
    values = iprec_at_recall(docs, levels, relevance_level, RECALL_LEVELS)
    return {f"iprec_at_recall_{recall:3.2f}": value for recall, value in zip(RECALL_LEVELS, values)} | {
        "11pt_avg": sum(values) / len(values)}


def _same(actual: float, expected: float) -> bool:
    """Equal to TOLERANCE, or both NaN (trec_eval prints the NaN of a 0 / 0)."""
    if math.isnan(expected):
        return math.isnan(actual)
    return math.isclose(actual, expected, rel_tol=0, abs_tol=TOLERANCE)


def _check_lines(actual: dict[tuple[str, str], object], expected: dict[str, dict[str, float]], names: set[str],
                 qrels: dict[str, dict[str, int]], level: int, complete: bool, judged_only: bool = False) -> None:
    """Every line of `rankwise trec_eval -q` against trec_eval's values of each query (_expected): those of each
    query, the queries -c adds, and the summary (means, the counts' sums, the geometric means)."""
    queries = set(qrels) if complete else set(expected)
    assert {query for _, query in actual} == queries | {"all"}
    for query, measures in expected.items():
        assert set(measures) == names | GEOMETRIC
        for name, value in measures.items():
            if name in GEOMETRIC:  # printed in the summary only
                continue
            assert _same(actual[(name, query)], value), (name, query, actual[(name, query)], value)
        # pytrec_eval has no dcg nor ideal_dcg: their quotient is its ndcg
        ideal = actual[("ideal_dcg", query)]
        assert math.isclose(actual[("dcg", query)] / ideal if ideal else 0, measures["ndcg"], rel_tol=0,
                            abs_tol=TOLERANCE), query
    unretrieved = {name: 0.0 for name in names}  # -c: the sums over the queries of the qrels without a run
    for query in queries - set(expected):
        # trec_eval 10.0 scores such a query on a run of one unjudged document (trec_eval.c's bogus_ranking), which
        # -J drops: each line 0 but num_rel, utility (the relevant documents missed) and the interpolated precisions
        # of that run (0; under -J, of no document: 0 / 0). Its clean-up then sets num_ret, utility, unj and
        # rbp_resid to 0, finding them by their names without parameters, and so misses utility_2,-1,-0.5,0 and
        # rbp_resid_p=0.8: without -J they keep the bogus document's share (utility b more, rbp_resid 1), which
        # rankwise leaves out, giving the values -J gives
        relevant = sum(1 for level_ in qrels[query].values() if level_ >= level)
        bogus = {query: {"ceci_nest_pas_un_docno": 1.0}}
        missed = {"num_rel": relevant, UTILITY_LINE: UTILITY[2] * relevant} | _interpolated(
            (_judged_docs_only(bogus, qrels) if judged_only else bogus)[query], qrels[query], level)
        assert all(_same(actual[(name, query)], missed.get(name, 0)) for name in names), query
        for name, value in missed.items():
            unretrieved[name] += value
        assert isinstance(actual[("num_rel", query)], int)
    assert actual[("num_q", "all")] == len(queries)
    for name in names:
        total = sum(measures[name] for measures in expected.values()) + unretrieved[name]
        if name in COUNTS:  # trec_eval sums the counts over the queries
            if name == "num_rel" and complete:
                # -c: the relevant documents of every query of the qrels, at relevance 1 whatever -l says
                # (m_num_rel.c's te_calc_avg_num_rel)
                total = sum(1 for docs in qrels.values() for level_ in docs.values() if level_ > 0)
            assert actual[(name, "all")] == total, name
        else:
            assert _same(actual[(name, "all")], total / len(queries)), name
    for name in GEOMETRIC:
        # pytrec_eval's value of a query is log(max(value, 1e-5)); a query without a run adds log(1e-5)
        logs = sum(measures[name] for measures in expected.values()) + (len(queries) - len(expected)) * math.log(1e-5)
        assert math.isclose(actual[(name, "all")], math.exp(logs / len(queries)), rel_tol=0, abs_tol=TOLERANCE), name


def judged_case(drawn: tuple[Case, dict[str, dict[str, int]]], shares_a_judged_document: bool = True
                ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]], dict[str, set[str]]]:
    """The run, the qrels and each query's judged documents of a drawn case
    that rankwise scores: every query of the qrels with a judged document
    (rankwise keeps no query without one, and its note says so), a query
    shared with the run, and a judged document retrieved (else rankwise
    refuses the run, NoOverlapError; -J reads a run without one:
    test_minus_j_on_a_run_without_a_judged_document)."""
    case, qrels = drawn
    run = case.run()
    assume(case.is_evaluable())
    judged = {query: {doc for doc, level_ in docs.items() if level_ >= 0} for query, docs in qrels.items()}
    assume(all(judged.values()))
    assume(set(run) & set(qrels))
    if shares_a_judged_document:
        assume({doc for docs in run.values() for doc in docs} & {doc for docs in judged.values() for doc in docs})
    return run, qrels, judged


@CROSS_CHECK
@given(drawn=incomplete_cases(), k=st.integers(4, 40), level=st.sampled_from([1, 2]), complete=st.booleans())
def test_every_line_matches_trec_eval(drawn: tuple[Case, dict[str, dict[str, int]]], k: int, level: int,
                                      complete: bool) -> None:
    run, qrels, _ = judged_case(drawn)
    arguments, names, expected = _expected(run, qrels, k, level)
    event(f"lines of relevance -1: {any(level_ < 0 for docs in qrels.values() for level_ in docs.values())}")
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, arguments, per_query=True, complete=complete, relevance_level=level)
    _check_lines(_by_line(result.lines), expected, names, qrels, level, complete)


@CROSS_CHECK
@given(case=cases(), gains=st.dictionaries(st.integers(0, 4), st.integers(0, 12), min_size=1, max_size=4))
def test_a_gain_map_matches_trec_eval_on_qrels_whose_levels_are_the_gains(case: Case, gains: dict[int, int]) -> None:
    """ndcg.1=3,2=9 gives each level its gain; with whole gains, trec_eval's ndcg
    of the qrels whose levels are replaced by their gains is the same number."""
    assume(case.is_evaluable())
    run, qrels = case.run(), case.qrels()
    assume(set(run) & set(qrels))
    relabelled = {query: {doc: gains.get(level, level) for doc, level in docs.items()} for query, docs in qrels.items()}
    expected = pytrec_eval.RelevanceEvaluator(relabelled, {"ndcg"}).evaluate(run)
    text = ",".join(f"{level}={gain}" for level, gain in gains.items())
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        actual = _by_line(trec_eval(qrels_path, run_path, [f"ndcg.{text}"], per_query=True).lines)
    for query, measures in expected.items():
        assert math.isclose(actual[(f"ndcg_{text}", query)], measures["ndcg"], rel_tol=0, abs_tol=TOLERANCE), query


def _trec_eval_rbp(run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]], p: float) -> dict[str, float]:
    """m_rbp.c (pytrec_eval has no rbp): documents ordered by score, then docno
    descending; a level's gain is the level over the query's largest level
    when that is above 1."""
    values = {}
    for query, docs in run.items():
        if query not in qrels:
            continue
        levels = qrels[query]
        largest = max(max((level for level in levels.values() if level >= 0), default=0), 1)
        ranked = sorted(docs, key=lambda doc: (docs[doc], doc), reverse=True)
        values[query] = (1 - p) * sum(max(levels.get(doc, 0), 0) / largest * p ** rank
                                      for rank, doc in enumerate(ranked))
    return values


@CROSS_CHECK
@given(case=cases(), p=st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_rbp_matches_trec_eval_s_definition(case: Case, p: float) -> None:
    """Also where the queries top at different levels: trec_eval divides a
    level by its query's largest, rankwise's graded gain by the qrels'."""
    assume(case.is_evaluable())
    run, qrels = case.run(), case.qrels()
    assume(set(run) & set(qrels))
    tops = {max(docs.values()) for docs in qrels.values() if max(docs.values()) > 0}
    event("queries top at different levels" if len(tops) > 1 else "one top level")
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        actual = _by_line(trec_eval(qrels_path, run_path, [f"rbp.p={p}"], per_query=True).lines)
    for query, value in _trec_eval_rbp(run, qrels, p).items():
        assert math.isclose(actual[(f"rbp_p={p}", query)], value, rel_tol=0, abs_tol=TOLERANCE), query


@CROSS_CHECK
@given(drawn=incomplete_cases(), level=st.sampled_from([1, 2]))
def test_pooled_negative_relevance_is_trec_eval_s_pool(drawn: tuple[Case, dict[str, dict[str, int]]],
                                                       level: int) -> None:
    """rankwise.evaluate's negative_relevance='pooled': inf_ap equals trec_eval's infAP on qrels whose -1 lines
    are the pool's unjudged documents (pytrec_eval), and every other metric is that of the qrels without them."""
    run, qrels, _ = judged_case(drawn)
    event(f"lines of relevance -1: {any(level_ < 0 for docs in qrels.values() for level_ in docs.values())}")
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"infAP"}, relevance_level=level).evaluate(run)
    table = pd.DataFrame([(query, doc, score) for query, docs in run.items() for doc, score in docs.items()],
                         columns=["user_id", "item_id", "score"])
    truth = pd.DataFrame([(query, doc, level_) for query, docs in qrels.items() for doc, level_ in docs.items()],
                         columns=["user_id", "item_id", "relevance"])
    options = {"per_user": True, "confidence": None, "convention": "trec_eval", "score_col": "score",
               "relevance_col": "relevance", "relevance_threshold": level}
    metrics = ["inf_ap", "map", "bpref", "num_nonrel_judged_ret", "judged@10"]
    pooled = rankwise.evaluate(table, truth, metrics, negative_relevance="pooled", **options)
    dropped = rankwise.evaluate(table, truth[truth["relevance"] >= 0], metrics, **options)
    for row in pooled[pooled["metric"] == "inf_ap"].itertuples():
        assert math.isclose(row.value, expected[row.user_id]["infAP"], rel_tol=0, abs_tol=TOLERANCE), row.user_id
    others = pooled["metric"] != "inf_ap"
    assert pooled[others]["value"].tolist() == dropped[dropped["metric"] != "inf_ap"]["value"].tolist()
