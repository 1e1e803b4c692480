"""The expected values of trec_eval's measures, computed by trec_eval itself,
for the cases of var('rankwise_test_cases') under convention 'trec_eval'
(make_expected.py asks this module for them instead of the oracle):
pytrec_eval, trec_eval 9.0's C code, for every measure it has, and below,
ported line for line, trec_eval 10.0's C where pytrec_eval has no such measure
(rbp_resid) or runs 9.0's older definition (iprec_at_recall, and 11pt_avg,
their mean). MEASURES names, for each rankwise metric, the trec_eval measure
that computes it; a metric it does not name is refused.

How a case's evaluation maps to trec_eval's:

- its lists are a run ordered by score_col, ties by item id descending
  (ties 'item_desc'): trec_eval's order (form_res_rels.c), which pytrec_eval
  and the ports below take from the scores;
- each example_id (the case's group) is a run of its own, evaluated against
  the same qrels, the interactions, whose grades must be whole numbers
  (trec_eval's qrels hold integers);
- users 'both' (the convention's) is plain trec_eval: the queries of the run
  that the qrels judge; 'interactions' is -c: every query of the qrels. trec_eval
  -c evaluates the same queries but divides their sum by all the queries of
  the qrels (meas_avg.c): a query without a run adds 0 to every sum, but to
  num_rel, the sum of every query's relevant documents (m_num_rel.c's
  te_calc_avg_num_rel), and to a geometric mean, ln(1e-5). Its per-user row
  is that share: 0, or its R for num_rel;
- a summary is the mean over the queries, the total for the counts and the
  geometric mean, of the values floored at 1e-5, for gm_map and gm_bpref
  (meas_avg.c's te_calc_avg_meas_s_gm); a per-user row is the query's value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pytrec_eval

# trec_eval's MIN_GEO_MEAN (trec_eval.h): a geometric mean's floor
MIN_GEO_MEAN = 1e-5


def rbp_resid(docs: dict[str, float], levels: dict[str, int], p: float) -> float:
    """m_rbp_resid.c, line for line: p^n + (1 - p) times the sum of p^(i-1) over the ranks i of the documents
    without a judgment (-1, or not in the qrels), when there is one; else 0."""
    ranked = sorted(docs, key=lambda doc: (docs[doc], doc), reverse=True)
    unjudged, total, weight = 0, 0.0, 1.0
    for doc in ranked:
        if levels.get(doc, -1) < 0:
            unjudged += 1
            total += weight
        weight *= p
    return weight + (1 - p) * total if unjudged else 0.0


def iprec_at_recall(docs: dict[str, float], levels: dict[str, int], relevance_level: int,
                    recalls: list[float]) -> list[float]:
    """m_iprec_at_recall.c of trec_eval 10.0, line for line (its 11pt_avg is their mean): pytrec_eval runs trec_eval
    9.0, which read the relevant documents a recall level needs as (long) (recall R + 0.9) where 10.0 rounds
    recall R (lround), so that the two differ at recall 0.8 of R = 3."""
    ranked = sorted(docs, key=lambda doc: (docs[doc], doc), reverse=True)
    relevant = [levels.get(doc, -1) >= relevance_level for doc in ranked]
    num_rel = sum(1 for level in levels.values() if level >= relevance_level)
    num_ret, num_rel_ret = len(ranked), sum(relevant)
    # lround: to the nearest, half away from zero
    cutoffs = [math.floor(recall * num_rel) + (1 if recall * num_rel - math.floor(recall * num_rel) >= 0.5 else 0)
               for recall in recalls]
    values = [0.0] * len(recalls)
    current = len(recalls) - 1
    while current >= 0 and cutoffs[current] > num_rel_ret:
        current -= 1
    int_precis = num_rel_ret / num_ret if num_ret else math.nan  # C's 0.0 / 0.0: -J may leave no document
    rel_so_far = num_rel_ret
    i = num_ret
    while i > 0 and rel_so_far > 0:
        int_precis = max(int_precis, rel_so_far / i)
        if relevant[i - 1]:
            while current >= 0 and rel_so_far == cutoffs[current]:
                values[current] = int_precis
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = int_precis
        current -= 1
    return values


@dataclass(frozen=True)
class Query:
    """One query of one run: pytrec_eval's measures of it, its documents'
    scores and its qrels."""
    measures: dict[str, float]
    docs: dict[str, float]
    levels: dict[str, int]
    relevance_level: int


def _utility(query: Query, k: int | None, parameters: dict[str, float]) -> float:
    """m_utility.c's sum on trec_eval's counts: pytrec_eval reads utility's
    weights wrongly (it computes the default ones only); the fourth weight d
    reads the collection's size (trec_eval's -N, n_items)."""
    measures = query.measures
    neither = parameters["n_items"] - measures["num_ret"] - measures["num_rel"] + measures["num_rel_ret"]
    return (parameters["a"] * measures["num_rel_ret"] + parameters["b"] * (measures["num_ret"] - measures["num_rel_ret"])
            + parameters["c"] * (measures["num_rel"] - measures["num_rel_ret"]) + parameters["d"] * neither)


def _rprec_mult(query: Query, k: int | None, parameters: dict[str, float]) -> float:
    multiple = f"Rprec_mult_{parameters['m']:3.2f}"
    if multiple not in query.measures:  # pytrec_eval computes its default multiples only: 0.2 to 2 by 0.2
        raise ValueError(f"trec_eval_reference: pytrec_eval has no {multiple}")
    return query.measures[multiple]


def _whole_list(name: str) -> Callable[[Query, int | None, dict[str, float]], float]:
    return lambda query, k, parameters: query.measures[name]


@dataclass(frozen=True)
class Measure:
    """How trec_eval computes a rankwise metric's value for one query.
    cutoffs: 'k' (the case's cutoffs, or the metric's own @k), 'own' (the
    whole list, or its own @k) or 'none' (the whole list: trec_eval's measure
    has no cutoff)."""
    value: Callable[[Query, int | None, dict[str, float]], float]
    cutoffs: str
    summary: str = "mean"
    parameters: tuple[tuple[str, float], ...] = ()


MEASURES: dict[str, Measure] = {
    "num_ret": Measure(_whole_list("num_ret"), "none", "sum"),
    "num_rel": Measure(_whole_list("num_rel"), "none", "sum"),
    "num_rel_ret": Measure(_whole_list("num_rel_ret"), "none", "sum"),
    "num_nonrel_judged_ret": Measure(_whole_list("num_nonrel_judged_ret"), "none", "sum"),
    # gm_map: AP (map, or map_cut_k within k), its summary the geometric mean
    "gm_map": Measure(lambda query, k, parameters: query.measures["map" if k is None else f"map_cut_{k}"], "k",
                      "geometric"),
    "bpref": Measure(_whole_list("bpref"), "none"),
    "gm_bpref": Measure(_whole_list("bpref"), "none", "geometric"),
    "inf_ap": Measure(_whole_list("infAP"), "none"),
    "iprec_at_recall": Measure(lambda query, k, parameters: iprec_at_recall(
        query.docs, query.levels, query.relevance_level, [parameters["recall"]])[0], "none",
        parameters=(("recall", 0.0),)),
    "ap_11pt": Measure(lambda query, k, parameters: sum(iprec_at_recall(
        query.docs, query.levels, query.relevance_level, [tenths / 10 for tenths in range(11)])) / 11, "none"),
    "r_precision_multiple": Measure(_rprec_mult, "none", parameters=(("m", 1.0),)),
    # relative_P_k within k, set_relative_P on the whole list
    "relative_precision": Measure(lambda query, k, parameters: query.measures[
        "set_relative_P" if k is None else f"relative_P_{k}"], "own"),
    "set_map": Measure(_whole_list("set_map"), "none"),
    "utility": Measure(_utility, "none", parameters=(("a", 1.0), ("b", -1.0), ("c", 0.0), ("d", 0.0), ("n_items", 0.0))),
    "bin_g": Measure(_whole_list("binG"), "none"),
    "ndcg_rel": Measure(_whole_list("ndcg_rel"), "none"),
    "g": Measure(_whole_list("G"), "none"),
    "rndcg": Measure(_whole_list("Rndcg"), "none"),
    "rbp_residual": Measure(lambda query, k, parameters: rbp_resid(query.docs, query.levels, parameters["p"]), "none",
                            parameters=(("p", 0.8),)),
}
# The measures every query is evaluated on, and those with cutoffs
PYTREC_EVAL_MEASURES = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "bpref", "infAP",
                        "Rprec_mult", "set_relative_P", "set_map", "binG", "ndcg_rel", "utility", "G", "Rndcg"}
PYTREC_EVAL_CUTOFF_MEASURES = ("map_cut", "relative_P")


def parse_metric(text: str) -> tuple[str, dict[str, float], int | None]:
    """'utility(a=2, c=-0.5)' as ('utility', {'a': 2.0, 'b': -1.0, 'c': -0.5},
    None), 'relative_precision@5' as ('relative_precision', {}, 5)."""
    head, _, own_cutoff = text.partition("@")
    name, _, rest = head.partition("(")
    name = name.strip()
    if name not in MEASURES:
        raise ValueError(f"trec_eval_reference: no trec_eval measure for {text!r}")
    parameters = dict(MEASURES[name].parameters)
    for pair in filter(None, (part.strip() for part in rest.rstrip(")").split(","))):
        key, _, given = (piece.strip() for piece in pair.partition("="))
        if key not in parameters:
            raise ValueError(f"trec_eval_reference: {text!r}: trec_eval's {name} takes no parameter {key!r}")
        parameters[key] = float(given)
    return name, parameters, int(own_cutoff) if own_cutoff else None


def _cutoffs(name: str, own_cutoff: int | None, cutoffs: list[int | None]) -> list[int | None]:
    kind = MEASURES[name].cutoffs
    if own_cutoff is not None:
        if kind == "none":
            raise ValueError(f"trec_eval_reference: {name} takes no cutoff")
        return [own_cutoff]
    return list(cutoffs) if kind == "k" else [None]


def _summary(summary: str, values: list[float]) -> float:
    """trec_eval's summary of the values of the queries (meas_avg.c)."""
    if summary == "sum":
        return sum(values)
    if summary == "geometric":
        return math.exp(sum(math.log(max(value, MIN_GEO_MEAN)) for value in values) / len(values))
    return sum(values) / len(values)


def _read_case(case: dict, recommendations: list[dict[str, str]], interactions: list[dict[str, str]]
               ) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, dict[str, int]], int, bool]:
    """The runs by example_id, the qrels, trec_eval's -l and whether -c."""
    options = dict(case["options"])
    if options.pop("convention", None) != "trec_eval" or case.get("partition_by"):
        raise ValueError(f"trec_eval_reference: case {case['name']}: convention 'trec_eval', group_by only")
    score, relevance = options.pop("score_col", None), options.pop("relevance_col", None)
    if score is None or relevance is None or options.pop("ties", "item_desc") != "item_desc":
        raise ValueError(f"trec_eval_reference: case {case['name']}: scores ordered as trec_eval's, and grades")
    users = options.pop("users", "both")
    relevance_level = options.pop("relevance_threshold", 1)
    if users not in ("both", "interactions") or relevance_level != 1 or options:
        # -c at another -l sums num_rel at level 1 (te_calc_avg_num_rel): not modelled
        raise ValueError(f"trec_eval_reference: case {case['name']}: options trec_eval has no flag for: "
                         f"{options or {'users': users, 'relevance_threshold': relevance_level}}")
    runs: dict[str, dict[str, dict[str, float]]] = {}
    for row in recommendations:
        runs.setdefault(row["example_id"], {}).setdefault(row["user_id"], {})[row["item_id"]] = float(row[score])
    qrels: dict[str, dict[str, int]] = {}
    for row in interactions:
        grade = float(row[relevance])
        if not grade.is_integer():
            raise ValueError(f"trec_eval_reference: case {case['name']}: trec_eval's qrels hold whole grades, "
                             f"not {row[relevance]}")
        qrels.setdefault(row["user_id"], {})[row["item_id"]] = int(grade)
    return runs, qrels, relevance_level, users == "interactions"


def evaluate(case: dict, recommendations: list[dict[str, str]], interactions: list[dict[str, str]]
             ) -> tuple[list[tuple], list[tuple]]:
    """The case's means per example_id and per-user values, as trec_eval
    computes them, in the oracle's shape: means rows (group, metric, k, value,
    n_users), per-user rows (group, user, metric, k, value)."""
    runs, qrels, relevance_level, complete = _read_case(case, recommendations, interactions)
    asked = [parse_metric(metric) for metric in case["metrics"]]
    cutoffs = sorted({k for name, _, own in asked for k in _cutoffs(name, own, case["k"]) if k is not None})
    wanted = set(PYTREC_EVAL_MEASURES)
    if cutoffs:
        wanted |= {f"{measure}.{','.join(map(str, cutoffs))}" for measure in PYTREC_EVAL_CUTOFF_MEASURES}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, wanted, relevance_level=relevance_level)
    means, per_user = [], []
    for group in sorted(runs):
        run = runs[group]
        evaluated = evaluator.evaluate(run)  # the queries of the run the qrels judge
        queries = {query: Query(measures, run[query], qrels[query], relevance_level)
                   for query, measures in evaluated.items()}
        for query in queries.values():  # the weights of _utility's sum are trec_eval's: its defaults give its value
            assert query.measures["utility"] == _utility(query, None, dict(MEASURES["utility"].parameters))
        missing = sorted(set(qrels) - set(queries)) if complete else []
        for name, parameters, own_cutoff in asked:
            measure = MEASURES[name]
            for k in _cutoffs(name, own_cutoff, case["k"]):
                values = []
                for user, query in sorted(queries.items()):
                    value = measure.value(query, k, parameters)
                    per_user.append((group, user, name, k, value))
                    values.append(value)
                for user in missing:  # -c: its share of the summary
                    share = float(sum(level >= relevance_level for level in qrels[user].values())) if (
                        name == "num_rel") else 0.0
                    per_user.append((group, user, name, k, share))
                    values.append(share)
                means.append((group, name, k, _summary(measure.summary, values), len(values)))
    return means, per_user
