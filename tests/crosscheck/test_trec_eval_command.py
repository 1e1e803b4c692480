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

import pytrec_eval
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rankwise._trec_eval import trec_eval
from rankwise.errors import InvalidArgumentError
from tests.reference.trec_eval_reference import iprec_at_recall, rbp_resid

from .strategies import Case, cases

COUNTS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
GEOMETRIC = {"gm_map", "gm_bpref"}
CROSS_CHECK = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
TOLERANCE = 1e-9


def _measures(k: int, with_inf_ap: bool) -> tuple[list[str], set[str]]:
    """The -m arguments, and the names of the lines they print (those of
    pytrec_eval's measures); infAP where the qrels have no line of relevance
    -1, which rankwise refuses for it."""
    cutoffs = sorted({1, 3, k})
    joined = ",".join(map(str, cutoffs))
    arguments = [f"P.{joined}", f"recall.{joined}", "map", f"map_cut.{joined}", "ndcg", f"ndcg_cut.{joined}", "Rprec",
                 "recip_rank", f"success.{joined}", "set_P", "set_recall", "set_F", "num_q", "dcg", "ideal_dcg",
                 "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "bpref", "gm_map", "gm_bpref",
                 "iprec_at_recall", "11pt_avg", "Rprec_mult", f"relative_P.{joined}", "set_relative_P", "set_map",
                 "binG", "rbp_resid.p=0.8", "ndcg_rel"] + (["infAP"] if with_inf_ap else [])
    lines = {"map", "ndcg", "Rprec", "recip_rank", "set_P", "set_recall", "set_F", "num_ret", "num_rel", "num_rel_ret",
             "num_nonrel_judged_ret", "bpref", "11pt_avg", "set_relative_P", "set_map", "binG", "ndcg_rel"} | (
                 {"infAP"} if with_inf_ap else set())
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


@CROSS_CHECK
@given(drawn=incomplete_cases(), k=st.integers(4, 40), level=st.sampled_from([1, 2]), complete=st.booleans())
def test_every_line_matches_trec_eval(drawn: tuple[Case, dict[str, dict[str, int]]], k: int, level: int,
                                      complete: bool) -> None:
    case, qrels = drawn
    run = case.run()
    assume(case.is_evaluable())
    # rankwise keeps no query without a judgment (its note says so), and
    # refuses a run that retrieves no judged document (NoOverlapError)
    judged = {query: {doc for doc, level_ in docs.items() if level_ >= 0} for query, docs in qrels.items()}
    assume(all(judged.values()))
    assume(set(run) & set(qrels))
    assume({doc for docs in run.values() for doc in docs} & {doc for docs in judged.values() for doc in docs})
    with_inf_ap = all(level_ >= 0 for docs in qrels.values() for level_ in docs.values())
    event("infAP" if with_inf_ap else "no infAP: -1 lines")
    arguments, names = _measures(k, with_inf_ap)
    # pytrec_eval computes utility with its default weights only (it misreads utility.a,b,c,d): trec_eval's
    # m_utility.c's sum over its counts stands for it with others
    utility = (2, -1, -0.5)
    arguments.append("utility.{},{},{},0".format(*utility))
    expected = pytrec_eval.RelevanceEvaluator(qrels, names | GEOMETRIC, relevance_level=level).evaluate(run)
    for measures in expected.values():
        measures["utility_2,-1,-0.5,0"] = (utility[0] * measures["num_rel_ret"]
                                           + utility[1] * (measures["num_ret"] - measures["num_rel_ret"])
                                           + utility[2] * (measures["num_rel"] - measures["num_rel_ret"]))
    names = names | {"utility_2,-1,-0.5,0"}
    for query, measures in expected.items():  # trec_eval 10.0's levels, where pytrec_eval runs trec_eval 9.0
        values = iprec_at_recall(run[query], qrels[query], level, [tenths / 10 for tenths in range(11)])
        measures.update({f"iprec_at_recall_{tenths / 10:3.2f}": values[tenths] for tenths in range(11)})
        measures["11pt_avg"] = sum(values) / 11
        measures["rbp_resid_p=0.8"] = rbp_resid(run[query], qrels[query], 0.8)  # pytrec_eval has none
    names = names | {"rbp_resid_p=0.8"}
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        result = trec_eval(qrels_path, run_path, arguments, per_query=True, complete=complete, relevance_level=level)
    actual = _by_line(result.lines)
    queries = set(qrels) if complete else set(expected)
    assert {query for _, query in actual} == queries | {"all"}
    for query, measures in expected.items():
        assert set(measures) == names | GEOMETRIC
        for name, value in measures.items():
            if name in GEOMETRIC:  # printed in the summary only
                continue
            assert math.isclose(actual[(name, query)], value, rel_tol=0, abs_tol=TOLERANCE), (name, query)
        # pytrec_eval has no dcg nor ideal_dcg: their quotient is its ndcg
        ideal = actual[("ideal_dcg", query)]
        assert math.isclose(actual[("dcg", query)] / ideal if ideal else 0, measures["ndcg"], rel_tol=0,
                             abs_tol=TOLERANCE), query
    unretrieved = {name: 0.0 for name in names}  # -c: the sums over the queries of the qrels without a run
    for query in queries - set(expected):  # each scores 0, but for its num_rel
        relevant = sum(1 for level_ in qrels[query].values() if level_ >= level)
        missed = {"num_rel": relevant, "utility_2,-1,-0.5,0": utility[2] * relevant}  # and the relevant ones missed
        assert all(actual[(name, query)] == missed.get(name, 0) for name in names)
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
            assert math.isclose(actual[(name, "all")], total / len(queries), rel_tol=0, abs_tol=TOLERANCE), name
    for name in GEOMETRIC:
        # pytrec_eval's value of a query is log(max(value, 1e-5)); a query without a run adds log(1e-5)
        logs = sum(measures[name] for measures in expected.values()) + (len(queries) - len(expected)) * math.log(1e-5)
        assert math.isclose(actual[(name, "all")], math.exp(logs / len(queries)), rel_tol=0, abs_tol=TOLERANCE), name


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
def test_rbp_matches_trec_eval_s_definition_or_is_refused(case: Case, p: float) -> None:
    assume(case.is_evaluable())
    run, qrels = case.run(), case.qrels()
    assume(set(run) & set(qrels))
    tops = {max(docs.values()) for docs in qrels.values() if max(docs.values()) > 0}
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = _files(Path(folder), run, qrels)
        event("refused" if len(tops) > 1 else "computed")
        if len(tops) > 1:
            try:
                trec_eval(qrels_path, run_path, [f"rbp.p={p}"], per_query=True)
            except InvalidArgumentError as error:
                assert "rbp is not computed for these qrels yet" in str(error)
                return
            raise AssertionError("rbp was computed on qrels whose queries top at different levels")
        actual = _by_line(trec_eval(qrels_path, run_path, [f"rbp.p={p}"], per_query=True).lines)
    for query, value in _trec_eval_rbp(run, qrels, p).items():
        assert math.isclose(actual[(f"rbp_p={p}", query)], value, rel_tol=0, abs_tol=TOLERANCE), query
