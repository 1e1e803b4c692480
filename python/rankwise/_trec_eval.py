"""``rankwise trec_eval``: trec_eval's command line on :func:`rankwise.evaluate`.

trec_eval (https://github.com/usnistgov/trec_eval, version 10.0) reads a qrels
file and a run, and prints ``measure  qid|all  value`` lines. This module reads
the same files (:mod:`rankwise.trec`), the same measure names and parameters,
the same measure sets, and prints the same lines, in trec_eval's order and
layout; every number comes from :func:`rankwise.evaluate`, under
``convention='trec_eval'`` (ties broken by docno descending, as trec_eval's
``form_res_rels.c`` orders them), ``users='interactions'`` for ``-c`` and
``relevance_threshold`` for ``-l``.

The table :data:`MEASURES` lists trec_eval's measures in its order
(``measures.c``). A measure's lines name their rankwise metric through the
alias table of the macros (``macros/aliases/metric_aliases.sql``: ``P_10`` is
``precision@10``), but for the few whose parameters change the metric string or
the input (``rbp``'s persistence, ``ndcg``'s gain map, ``set_F``'s weight,
:data:`SPECIAL`). A measure whose lines have no rankwise metric yet is refused
with the list of those missing; adding its metric and its alias maps it.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ._render import renderer
from .errors import InputError, InvalidArgumentError, NoOverlapError, RankwiseWarning

__all__ = ["MEASURES", "MEASURE_SETS", "TrecEvalResult", "format_lines", "missing_measures", "trec_eval"]


@dataclass(frozen=True)
class TrecMeasure:
    """One of trec_eval's measures, as measures.c declares it."""

    name: str
    parameters: str = "none"
    """'none'; 'cutoffs' (positive integers, one line each: P.5,10 prints P_5
    and P_10); 'levels' (numbers, one line each, printed with two decimals:
    iprec_at_recall_0.10); 'pairs' (name=value, one line named by the text
    given: ndcg_1=3,2=9); 'numbers' (one line named by the text given:
    utility_2,-1,0,0)."""
    defaults: tuple[float, ...] = ()
    per_query: bool = True
    """Whether -q prints it for each query (num_q, gm_map and gm_bpref are
    summaries only)."""
    count: bool = False
    """Printed as an integer. What its `all` line is (the mean over the
    queries, their total or their geometric mean: trec_eval's meas_avg.c) is
    its metric's `summary` in the metric registry, which rankwise.evaluate's
    means follow."""


_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# trec_eval's measures in its order of output (measures.c, te_trec_measures),
# but for those that read other relevance formats (prefs, qrels_jg: -R).
MEASURES: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", per_query=False),
    TrecMeasure("num_q", per_query=False, count=True),
    TrecMeasure("num_ret", count=True),
    TrecMeasure("num_rel", count=True),
    TrecMeasure("num_rel_ret", count=True),
    TrecMeasure("map"),
    TrecMeasure("gm_map", per_query=False),
    TrecMeasure("Rprec"),
    TrecMeasure("bpref"),
    TrecMeasure("recip_rank"),
    TrecMeasure("iprec_at_recall", "levels", _RECALL_LEVELS),
    TrecMeasure("P", "cutoffs", _CUTOFFS),
    TrecMeasure("relstring", "numbers", (10,)),
    TrecMeasure("recall", "cutoffs", _CUTOFFS),
    TrecMeasure("infAP"),
    TrecMeasure("gm_bpref", per_query=False),
    TrecMeasure("Rprec_mult", "levels", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    TrecMeasure("utility", "numbers", (1.0, -1.0, 0.0, 0.0)),
    TrecMeasure("11pt_avg", "numbers", _RECALL_LEVELS),
    TrecMeasure("binG"),
    TrecMeasure("G", "pairs"),
    TrecMeasure("dcg", "pairs"),
    TrecMeasure("ideal_dcg", "pairs"),
    TrecMeasure("ndcg", "pairs"),
    TrecMeasure("ndcg_rel", "pairs"),
    TrecMeasure("Rndcg", "pairs"),
    TrecMeasure("ndcg_cut", "cutoffs", _CUTOFFS),
    TrecMeasure("map_cut", "cutoffs", _CUTOFFS),
    TrecMeasure("relative_P", "cutoffs", _CUTOFFS),
    TrecMeasure("success", "cutoffs", (1, 5, 10)),
    TrecMeasure("set_P"),
    TrecMeasure("set_relative_P"),
    TrecMeasure("set_recall"),
    TrecMeasure("set_map"),
    TrecMeasure("set_F", "numbers", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", count=True),
    TrecMeasure("yaap"),
    TrecMeasure("rbp", "pairs"),
    TrecMeasure("rbp_resid", "pairs"),
    TrecMeasure("unj", "cutoffs", (5, 10, 20)),
)
_BY_NAME = {measure.name: measure for measure in MEASURES}

# trec_eval's nicknames (measures.c).
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
MEASURE_SETS: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "all_trec": (*_OFFICIAL, "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg",
                 "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
            "set_map", "set_F"),
}

# The options every evaluation of trec_eval's measures runs under, but users
# (-c) and relevance_threshold (-l): trec_eval's conventions, and the columns of
# the tables rankwise.read_qrels and rankwise.read_run return.
EVALUATION_OPTIONS = {"convention": "trec_eval", "ties": "item_desc", "score_col": "score",
                      "relevance_col": "relevance"}
_RBP_PERSISTENCE = 0.9  # m_rbp.c's default p
QUERY_SCALED = "query_scaled"  # a _Line's gains: each level over its query's largest (m_rbp.c)
WITH_POOL = "with_pool"  # a _Line's qrels: with their lines of relevance -1, the pool's unjudged documents (m_infap.c)


@dataclass(frozen=True)
class _Line:
    """One output line of a measure: its printed name, and what computes it:
    `metric` (a rankwise metric string, evaluated on the qrels with the gains
    of `gains`: a gain map, QUERY_SCALED for each level over its query's
    largest, or WITH_POOL for the qrels with their lines of relevance -1),
    'n_users' for num_q, 'runid' for the run's tag; None when
    rankwise has no metric for it yet."""

    name: str
    metric: str | None
    gains: tuple[tuple[int, float], ...] | str = ()
    summary_level: int | None = None
    """The relevance level of its `all` line, when it is not -l's."""
    recall_levels: tuple[float, ...] = ()
    """The recall levels it interpolates precision at (iprec_at_recall: its
    own; 11pt_avg: the eleven it averages): trec_eval starts from the
    precision of the whole list, num_rel_ret / num_ret, which is 0 / 0 for a
    query -J leaves without a document (m_iprec_at_recall.c, m_11pt_avg.c)."""


@dataclass(frozen=True)
class _Requested:
    measure: TrecMeasure
    parameters: str | None  # the text after the '.', as given


@dataclass
class TrecEvalResult:
    """The lines trec_eval would print, and the notes on what it (and so
    rankwise) leaves out."""

    lines: list[tuple[str, str, Any]] = field(default_factory=list)
    """(measure, qid or 'all', value): a float, an int for the counts, the tag
    for runid."""
    notes: list[str] = field(default_factory=list)


def trec_eval(qrels: Any, run: Any, measures: Sequence[str] = (), *, per_query: bool = False,
              complete: bool = False, relevance_level: int = 1, max_docs: int | None = None,
              judged_only: bool = False, summary: bool = True, collection_size: int = 0) -> TrecEvalResult:
    """trec_eval's output for a qrels and a run, every number computed by
    :func:`rankwise.evaluate`.

    Args:
        qrels: A path, or the table :func:`rankwise.read_qrels` returns.
        run: A path, or the table :func:`rankwise.read_run` returns (read as one
            run, whatever its tags, as trec_eval reads a file).
        measures: trec_eval's -m arguments: measures, with parameters after a
            dot (``P.5,10``), or sets (``official``, the default, ``all_trec``,
            ``set``).
        per_query: -q: the lines of each query before the summary.
        complete: -c: every query of the qrels counts, a query without
            documents in the run scoring 0 (``users='interactions'``).
        relevance_level: -l: the smallest relevance that is relevant.
        max_docs: -M: only the first max_docs documents of each query, in
            trec_eval's order, are read.
        judged_only: -J: only the judged documents of each query are read,
            ranked again among themselves (``judged_only=True``); a query
            whose documents are all unjudged scores as trec_eval scores a
            query without a document: 0, but for num_rel and utility, and NaN
            where trec_eval divides 0 by 0 (iprec_at_recall at the levels its
            relevant documents round to none of, 11pt_avg).
        summary: False for -n: no summary lines.
        collection_size: -N: the documents of the collection, which utility's
            fourth weight (of the documents neither retrieved nor relevant)
            reads.

    Raises:
        rankwise.InvalidArgumentError: an unknown measure, a malformed
            parameter, or measures rankwise does not compute yet (all
            listed).
    """
    from . import _api
    from .trec import read_qrels, read_run

    if max_docs is not None and max_docs < 1:
        raise InvalidArgumentError(f"rankwise trec_eval: -M must be a positive number of documents; got {max_docs}.")
    requested = _requested(measures or ["official"])
    lines = {item.measure.name: _lines(item, collection_size) for item in requested}
    missing = missing_measures(lines)
    if missing:
        raise InvalidArgumentError(_missing_message(missing, requested))

    notes: list[str] = []
    if isinstance(qrels, (str, os.PathLike)):
        qrels = read_qrels(qrels)
    if isinstance(run, (str, os.PathLike)):
        run = read_run(run)
    runid = str(run["model"].iloc[-1]) if "model" in run.columns else ""
    run = run[["user_id", "item_id", "score"]]
    qrels = qrels[["user_id", "item_id", "relevance"]]
    _refuse_duplicates(qrels, "the qrels judge", "judgment")
    _refuse_duplicates(run, "the run retrieves", "line")
    pooled_qrels = qrels
    qrels = _judged(qrels, notes)
    run = _cut(run, max_docs, notes)
    _note_queries(qrels, run, complete, notes)

    users = "interactions" if complete else "both"
    emptied: dict[str, int] = {}
    if judged_only:
        qrels, users, emptied = _judged_only(qrels, run, complete, relevance_level, notes)
    if complete and relevance_level != 1 and "num_rel" in lines:
        # -c: trec_eval's num_rel summary counts the relevant documents of every query of the qrels at relevance 1,
        # whatever -l says (m_num_rel.c, te_calc_avg_num_rel); its lines of each query read -l's
        lines["num_rel"] = [replace(line, summary_level=1) for line in lines["num_rel"]]

    Variant = tuple[tuple[tuple[int, float], ...], int]  # (gain map, relevance level)

    def evaluated(metrics: list[str], variant: Variant, by_user: bool) -> Any:
        gains, level = variant
        options: dict[str, Any] = {}
        if gains == WITH_POOL and not judged_only:  # -J drops the pool's unjudged documents as the others
            gained, options["negative_relevance"] = pooled_qrels, "pooled"
        else:
            gained = qrels if gains in ((), WITH_POOL) else qrels.assign(relevance=_mapped_gains(qrels, gains))
        with warnings.catch_warnings():
            # -J's drops are said once, in the notes (_judged_only)
            warnings.filterwarnings("ignore", message=r"rankwise: \d+ unjudged item", category=RankwiseWarning)
            call = partial(_api.evaluate, run, gained, metrics, per_user=by_user, confidence=None, users=users,
                           relevance_threshold=level, judged_only=judged_only, **EVALUATION_OPTIONS, **options)
            try:
                return call()
            except NoOverlapError:
                # -J left no document to any query scored (_judged_only kept those in the qrels), and the run
                # may then share no document id with the qrels, which evaluate refuses as ids written
                # differently; trec_eval scores those queries (the note names them). The overlap is evaluate's
                # last check: the others passed.
                if not judged_only or len(emptied) < qrels["user_id"].nunique():
                    raise
                return call(validate=False)

    def summary_variant(line: _Line) -> Variant:
        return (line.gains, relevance_level if line.summary_level is None else line.summary_level)

    # One evaluation per gain map and relevance level (most often one: the
    # qrels as read, at -l), of every metric its lines name; each metric's
    # rows are found again by their metric_label.
    variants: dict[Variant, dict[str, str]] = {}
    per_query_variants: set[Variant] = set()
    for line in (line for item in requested for line in lines[item.measure.name] if line.metric != "runid"):
        metric = "map" if line.metric == "n_users" else line.metric  # num_q: the n_users of any mean
        per_query_variants.add((line.gains, relevance_level))
        for variant in {(line.gains, relevance_level), summary_variant(line)}:
            taken = variants.setdefault(variant, {}).setdefault(_label(metric), metric)
            if taken != metric:
                raise AssertionError(f"{taken} and {metric} would share their rows in one evaluation")
    means: dict[tuple[Any, ...], float] = {}
    by_query: dict[tuple[Any, ...], float] = {}
    n_users = None
    for variant, keyed in variants.items():
        metrics = list(keyed.values())
        for row in evaluated(metrics, variant, False).itertuples():
            means[(variant, row.metric_label)] = row.value
            n_users = int(row.n_users)
        if per_query and variant in per_query_variants:
            for row in evaluated(metrics, variant, True).itertuples():
                by_query[(variant[0], row.metric_label, str(row.user_id))] = row.value

    def undefined(line: _Line, query: str) -> bool:
        """Whether trec_eval divides 0 by 0 for the line of the query: a query
        -J leaves without a document, at a recall level whose share of its
        relevant documents rounds to none (lround(level * num_rel) <=
        num_rel_ret, 0: m_iprec_at_recall.c gives those levels the precision
        of the whole list, m_11pt_avg.c adds it to its sum); trec_eval prints
        the NaN, and its mean over the queries, NaN too."""
        return query in emptied and any(level * emptied[query] < 0.5 for level in line.recall_levels)

    result = TrecEvalResult(notes=notes)
    ordered = sorted(requested, key=lambda item: MEASURES.index(item.measure))
    undefined_lines = list(dict.fromkeys(line.name for item in ordered for line in lines[item.measure.name]
                                         for query in emptied if undefined(line, query)))
    if undefined_lines:
        notes.append(f"-J: {_examples(undefined_lines)} divide 0 by 0 in the queries left without a document, as "
                     "trec_eval does (the precision of an empty list): NaN, in their summary too.")
    if per_query:
        queries = sorted({key[2] for key in by_query})
        for query in queries:
            for item in ordered:
                if not item.measure.per_query:
                    continue
                for line in lines[item.measure.name]:
                    value = by_query[(line.gains, _label(line.metric), query)]
                    if undefined(line, query):
                        value = math.nan
                    result.lines.append((line.name, query, _shown(item.measure, value)))
    if summary:
        for item in ordered:
            for line in lines[item.measure.name]:
                if line.metric == "runid":
                    result.lines.append((line.name, "all", runid))
                elif line.metric == "n_users":
                    result.lines.append((line.name, "all", n_users))
                else:
                    value = means[(summary_variant(line), _label(line.metric))]
                    if any(undefined(line, query) for query in emptied):
                        value = math.nan
                    result.lines.append((line.name, "all", _shown(item.measure, value)))
    return result


def _shown(measure: TrecMeasure, value: float) -> float | int:
    """A count as the integer trec_eval prints (evaluate's values are floats)."""
    return int(round(value)) if measure.count else value


def format_lines(result: TrecEvalResult) -> str:
    """The lines as trec_eval prints them (meas_print_single.c,
    meas_print_final.c): ``%-22s\\t%s\\t%6.4f``, an integer for the counts, the
    tag for runid, ``-nan`` for a NaN."""
    text = []
    for name, query, value in result.lines:
        if isinstance(value, str):
            shown = value
        elif isinstance(value, int):
            shown = str(value)
        elif math.isnan(value):
            # trec_eval's 0.0 / 0.0 (-J: _Line.recall_levels) is x86-64's NaN, its sign bit set, which %6.4f prints
            # so; Python's format drops the sign
            shown = "  -nan"
        else:
            shown = f"{value:6.4f}"
        text.append(f"{name:<22}\t{query}\t{shown}\n")
    return "".join(text)


def missing_measures(lines: dict[str, list[_Line]]) -> list[str]:
    """The measures of `lines` with a line rankwise does not compute yet."""
    return [name for name, measure_lines in lines.items() if any(line.metric is None for line in measure_lines)]


# What the table of docs/search.md says of the measures whose parameters change
# the metric string or the input.
_HOW = {
    "runid": "the run's tag (its last line's, as trec_eval reads it)",
    "num_q": "`n_users` of the means",
    "num_rel": "its summary is a total over the queries; with `-c`, of their documents of relevance 1 and up whatever "
               "`-l` says, as trec_eval's (`num_rel(rel=1)`)",
    "dcg": "a gain map (`dcg.2=9`): evaluated on the qrels with each level's gain as its relevance",
    "ideal_dcg": "a gain map, as dcg",
    "ndcg": "a gain map (`ndcg.1=3,2=9`), as dcg; a negative gain is refused",
    "ndcg_rel": "a gain map, as ndcg",
    "G": "a gain map, as ndcg",
    "Rndcg": "a gain map, as ndcg",
    "rbp": "`rbp.p=0.8` sets p (0.9 by default, as trec_eval's); evaluated on the qrels with each level scaled so "
           "that each query tops at the qrels' largest (trec_eval divides a level by its query's largest, rankwise's "
           "graded gain by the qrels')",
    "rbp_resid": "`rbp_resid.p=0.8` sets p (0.9 by default, as trec_eval's)",
    "infAP": "the qrels' lines of relevance -1 are the pool's unjudged documents (`negative_relevance='pooled'`)",
    "set_F": "`set_F.0.5` weighs recall by 0.5 against precision (`f1(recall_weight=0.5)`)",
    "utility": "`utility.a,b,c,d`: the worths of a relevant and a non-relevant document retrieved, of a relevant one "
               "missed, and of one neither retrieved nor relevant among the collection's `-N` documents",
    "11pt_avg": "at trec_eval's eleven levels only (`11pt_avg.0.5` is not yet)",
}


def mapping_table() -> str:
    """Each trec_eval measure and the rankwise metric that computes it, with
    trec_eval's default parameters, as a markdown table (docs/search.md holds
    it)."""
    rows = ["| trec_eval measure | rankwise metric | parameters and limits |", "|---|---|---|"]
    for measure in MEASURES:
        measure_lines = _lines(_Requested(measure, None))
        if any(line.metric is None for line in measure_lines):
            computed = "not yet"
        elif measure.name in ("runid", "num_q"):
            computed = ""
        elif len(measure_lines) > 3:
            computed = f"`{measure_lines[0].metric}` ... `{measure_lines[-1].metric}`"
        else:
            computed = ", ".join(f"`{line.metric}`" for line in measure_lines)
        summary = "mean" if computed in ("not yet", "") else _summary(measure_lines[0].metric)
        how = _HOW.get(measure.name, {"sum": "its summary is a total over the queries",
                                      "geometric": "its summary is a geometric mean"}.get(summary, ""))
        if measure.parameters == "cutoffs" and computed != "not yet":
            how = f"cutoffs: `{measure.name}.5,10`"
        rows.append(f"| `{measure.name}` | {computed} | {how} |")
    return "\n".join(rows) + "\n"


# The measures whose parameters change the metric string or the input, rather
# than only the name of a line: each returns the lines of the measure for the
# parameter text given (None: trec_eval's defaults).
def _rbp_lines(measure: TrecMeasure, text: str | None) -> list[_Line]:
    persistence = _RBP_PERSISTENCE
    name = measure.name
    printed = name if text is None else f"{name}_{text}"
    for key, value in _pairs(measure, text):
        if key != "p":
            raise InvalidArgumentError(f"rankwise trec_eval: -m {name}.{text}: rankwise computes {name} with the "
                                       f"parameter p (the persistence) only, not {key!r} (a gain of a relevance level).")
        if not 0 < value < 1:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {name}.{text}: p must be above 0 and below 1.")
        persistence = value
    if measure.name == "rbp_resid":  # m_rbp_resid.c: what the unjudged documents could add
        return [_Line(printed, f"rbp_residual(p={persistence!r})")]
    # trec_eval's gain of a document is its relevance level over the largest
    # level of its query when that is above 1 (m_rbp.c), whatever -l says:
    # rankwise's graded gain, from relevance 1 on, on the qrels whose levels
    # are scaled so that each query tops at the qrels' largest level.
    return [_Line(printed, f"rbp(p={persistence!r}, gain=graded, rel=1)", QUERY_SCALED)]


def _gain_map_lines(measure: TrecMeasure, text: str | None) -> list[_Line]:
    """ndcg, dcg, ideal_dcg: a gain for each relevance level given
    (`ndcg.1=3,2=9`), the others keeping their level as gain (gain_init.c)."""
    metric = _alias(measure.name)
    if text is None:
        return [_Line(measure.name, metric)]
    gains = []
    for key, value in _pairs(measure, text):
        if not re.fullmatch(r"[+-]?[0-9]+", key) or int(key) < 0:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: {key!r} is not a relevance "
                                       "level; give each gain as level=gain, such as 2=9.")
        if value < 0:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: the gain {value!r} of level "
                                       f"{key} is negative, and rankwise's gains are not (a negative gain is not "
                                       "supported yet).")
        gains.append((int(key), value))
    return [_Line(f"{measure.name}_{text}", metric, tuple(sorted(gains)))]


def _set_f_lines(measure: TrecMeasure, text: str | None) -> list[_Line]:
    weights = _numbers(measure, text)
    if len(weights) > 1:
        raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: {measure.name} takes one weight "
                                   "(trec_eval reads the first only).")
    printed = measure.name if text is None else f"{measure.name}_{text}"
    # rankwise's f1 is set_F's harmonic mean, its recall_weight set_F's x
    metric = _alias(measure.name)
    return [_Line(printed, metric if weights[0] == 1.0 else f"{metric}(recall_weight={weights[0]!r})")]


def _utility_lines(measure: TrecMeasure, text: str | None, collection_size: int = 0) -> list[_Line]:
    """utility.a,b,c,d: the worths of the four cells of the contingency table;
    d, that of the documents neither retrieved nor relevant, reads the
    collection's size (trec_eval's -N, 0 when not given, as trec_eval's)."""
    weights = _numbers(measure, text)
    if len(weights) != 4:
        raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: {measure.name} takes four numbers, "
                                   "the worths of a relevant and a non-relevant document retrieved, and of a relevant "
                                   "and a non-relevant document not retrieved.")
    printed = measure.name if text is None else f"{measure.name}_{text}"
    a, b, c, d = (repr(int(weight)) if weight == int(weight) else repr(weight) for weight in weights)
    fourth = f", d={d}, n_items={collection_size}" if weights[3] != 0 else ""
    return [_Line(printed, f"utility(a={a}, b={b}, c={c}{fourth})")]


SPECIAL: dict[str, Callable[[TrecMeasure, str | None], list[_Line]]] = {
    "runid": lambda measure, text: [_Line("runid", "runid")],
    "num_q": lambda measure, text: [_Line("num_q", "n_users")],
    "rbp": _rbp_lines,
    "rbp_resid": _rbp_lines,
    "dcg": _gain_map_lines,
    "ideal_dcg": _gain_map_lines,
    "ndcg": _gain_map_lines,
    "ndcg_rel": _gain_map_lines,
    "infAP": lambda measure, text: [_Line("infAP", _alias("infAP"), WITH_POOL)],
    "G": _gain_map_lines,
    "Rndcg": _gain_map_lines,
    "set_F": _set_f_lines,
}


def _lines(item: _Requested, collection_size: int = 0) -> list[_Line]:
    measure, text = item.measure, item.parameters
    if text is not None and measure.parameters == "none":
        raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: {measure.name} takes no "
                                   "parameter.")
    if measure.name == "utility":
        return _utility_lines(measure, text, collection_size)
    if measure.name in SPECIAL:
        return SPECIAL[measure.name](measure, text)
    if measure.parameters == "cutoffs":
        names = [f"{measure.name}_{cutoff}" for cutoff in _cutoffs(measure, text)]
    elif measure.parameters == "levels":
        levels = _levels(measure, text)
        names = [f"{measure.name}_{level:3.2f}" for level in levels]
        if measure.name == "iprec_at_recall":
            return [_Line(name, _alias(name), recall_levels=(level,)) for name, level in zip(names, levels)]
    else:
        if measure.parameters == "numbers":
            _numbers(measure, text)
        elif measure.parameters == "pairs":
            _pairs(measure, text)
        names = [measure.name if text is None else f"{measure.name}_{text}"]
        if measure.name == "11pt_avg":
            return [_Line(names[0], _alias(names[0]), recall_levels=tuple(_numbers(measure, text)))]
    return [_Line(name, _alias(name)) for name in names]


def _alias(name: str) -> str | None:
    """The rankwise metric string of trec_eval's line `name` (P_5, recip_rank)
    by the macros' alias table; None when it has none."""
    return renderer().call("_python_registry", "metric_alias", {"metric": name})


def _label(metric: str | None) -> str:
    """The output's metric_label of a metric string, by the parser."""
    return renderer().call("_python_registry", "metric_label", {"metric": metric})


def _summary(metric: str | None) -> str:
    """What a metric's mean over the users is ('mean', 'sum', 'geometric'),
    by the metric registry."""
    return renderer().call("_python_registry", "metric_summary", {"metric": _metric_key(metric)[0]})


def _requested(arguments: Iterable[str]) -> list[_Requested]:
    """The measures -m asks for, each once, with the parameters given (as
    trec_eval, the first -m giving a measure parameters sets them; a second,
    different, is refused rather than ignored)."""
    chosen: dict[str, _Requested] = {}
    for argument in arguments:
        name, dot, text = argument.partition(".")
        if dot and not text:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {argument}: no parameter after the '.'.")
        names = MEASURE_SETS.get(name)
        if names is not None and dot:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {argument}: {name} is a set of measures, which "
                                       "takes no parameter.")
        if names is None:
            if name not in _BY_NAME:
                raise InvalidArgumentError(_unknown_message(argument, name))
            names = (name,)
        for each in names:
            given = text if dot else None
            previous = chosen.get(each)
            if previous is None or previous.parameters is None:
                chosen[each] = _Requested(_BY_NAME[each], given if given is not None else
                                          (previous.parameters if previous else None))
            elif given is not None and given != previous.parameters:
                raise InvalidArgumentError(
                    f"rankwise trec_eval: -m {each}.{previous.parameters} and -m {each}.{given}: trec_eval reads the "
                    f"first parameters of a measure only; give them in one, such as -m {each}.{previous.parameters},"
                    f"{given}.")
    return list(chosen.values())


def _unknown_message(argument: str, name: str) -> str:
    hint = ""
    match = re.fullmatch(r"(.+)_([0-9.]+)", name)
    if match and match.group(1) in _BY_NAME:
        hint = f" trec_eval gives parameters after a dot: -m {match.group(1)}.{match.group(2)}."
    sets = ", ".join(MEASURE_SETS)
    return (f"rankwise trec_eval: unknown measure '{argument}'.{hint} trec_eval's measures: "
            f"{', '.join(measure.name for measure in MEASURES)}; its sets: {sets}.")


def _missing_message(missing: list[str], requested: list[_Requested]) -> str:
    computed = [item for item in sorted(requested, key=lambda item: MEASURES.index(item.measure))
                if item.measure.name not in missing]
    asked = " ".join(f"-m {item.measure.name}" + (f".{item.parameters}" if item.parameters is not None else "")
                     for item in computed)
    return (f"rankwise trec_eval: rankwise does not compute these trec_eval measures yet: {', '.join(missing)}. "
            + (f"Of those asked, it computes: {asked}." if computed else "It computes none of those asked."))


def _cutoffs(measure: TrecMeasure, text: str | None) -> list[int]:
    """trec_eval's get_long_cutoffs: each read as atol reads it (23.4 is 23),
    sorted; positive and distinct."""
    if text is None:
        return [int(value) for value in measure.defaults]
    cutoffs = []
    for piece in text.split(","):
        match = re.match(r"\s*[+-]?[0-9]+", piece)
        if match is None or int(match.group()) <= 0:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: the cutoff {piece!r} is not a "
                                       "positive integer.")
        cutoffs.append(int(match.group()))
    if len(set(cutoffs)) < len(cutoffs):
        raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: a cutoff is given twice.")
    return sorted(cutoffs)


def _levels(measure: TrecMeasure, text: str | None) -> list[float]:
    """trec_eval's get_double_cutoffs: numbers, sorted and distinct."""
    values = sorted(_numbers(measure, text))
    if len(set(values)) < len(values):
        raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: a value is given twice.")
    return values


def _numbers(measure: TrecMeasure, text: str | None) -> list[float]:
    if text is None:
        return [float(value) for value in measure.defaults]
    values = []
    for piece in text.split(","):
        value = _number(piece)
        if value is None:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: {piece!r} is not a number.")
        values.append(value)
    return values


def _pairs(measure: TrecMeasure, text: str | None) -> list[tuple[str, float]]:
    """trec_eval's get_param_pairs: name=number, separated by commas."""
    if text is None:
        return []
    pairs = []
    for piece in text.split(","):
        key, equals, value = piece.partition("=")
        number = _number(value) if equals else None
        if not key or number is None:
            raise InvalidArgumentError(f"rankwise trec_eval: -m {measure.name}.{text}: write each parameter as "
                                       f"name=number, separated by commas; got {piece!r}.")
        pairs.append((key, number))
    return pairs


def _number(text: str) -> float | None:
    match = re.fullmatch(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*", text)
    return float(match.group(1)) if match else None


def _metric_key(metric: str | None) -> tuple[str, int | None]:
    """(rankwise metric name, cutoff or None) of a metric string, as the
    output's `metric` and `k` columns give it."""
    assert metric is not None
    head, _, cutoff = metric.partition("@")
    return head.split("(")[0].strip(), int(cutoff) if cutoff else None


def _refuse_duplicates(table: Any, what: str, kept: str) -> None:
    """A document twice in one query of the qrels or of the run, which
    trec_eval refuses too (form_res_rels.c: "duplicate docs"); said here in
    the files' words, where rankwise.evaluate's message would name a table and
    an option this command does not have."""
    repeated = table[table.duplicated(["user_id", "item_id"], keep=False)]
    if len(repeated):
        example = repeated.iloc[0]
        pairs = len(repeated.drop_duplicates(["user_id", "item_id"]))
        raise InputError(f"rankwise trec_eval: {what} {pairs} document(s) twice for one query (for example "
                         f"{example['item_id']!r} of query {example['user_id']!r}); trec_eval refuses them too: keep "
                         f"one {kept} per document of a query.")


def _judged(qrels: Any, notes: list[str]) -> Any:
    """The qrels less their negative relevances (trec_eval: in the pool but
    not judged, which every measure reads as not judged but infAP, which
    reads them from the qrels as given: WITH_POOL)."""
    negative = qrels["relevance"] < 0
    if not negative.any():
        return qrels
    kept = qrels[~negative]
    lost = sorted(set(qrels["user_id"]) - set(kept["user_id"]))
    notes.append(f"{int(negative.sum())} qrels line(s) have a negative relevance (trec_eval: a document of the pool "
                 "left unjudged); every measure computed here reads them as unjudged documents, as trec_eval does, but "
                 "infAP, whose estimate counts them in the pool."
                 + (f" Queries {', '.join(lost)} have no other judgment and are left out (trec_eval counts them, "
                    "every measure 0)." if lost else ""))
    return kept


def _judged_only(qrels: Any, run: Any, complete: bool, relevance_level: int,
                 notes: list[str]) -> tuple[Any, str, dict[str, int]]:
    """-J: the qrels and the user set that score each query on its judged
    documents (judged_only=True drops the others before ranking), and the
    queries scored without a document, with their relevant documents at -l
    (trec_eval's num_rel). trec_eval scores a query of the run whose documents
    are all unjudged with num_ret 0, where judged_only leaves it without a
    list: every query of the qrels that the run has (every one with -c)
    counts, as users='interactions' counts them. With -c, trec_eval 10.0
    reads a query the run lacks as a run of one unjudged document
    (trec_eval.c's bogus_ranking), which -J drops too."""
    judged = run.merge(qrels[["user_id", "item_id"]], on=["user_id", "item_id"], how="inner")
    dropped = len(run) - len(judged)
    emptied = sorted(set(run["user_id"]) & set(qrels["user_id"]) - set(judged["user_id"]))
    if dropped:
        notes.append(f"-J: {dropped} unjudged document(s) of the run are dropped before ranking"
                     + (f"; {len(emptied)} quer{'y' if len(emptied) == 1 else 'ies'} keep none and score 0 "
                        f"({_examples(emptied)})" if emptied else "") + ".")
    if not complete:
        qrels = qrels[qrels["user_id"].isin(set(run["user_id"]))]
    else:
        emptied += sorted(set(qrels["user_id"]) - set(run["user_id"]))
    relevant = qrels[qrels["relevance"] >= relevance_level].groupby("user_id").size()
    return qrels, "interactions", {str(query): int(relevant.get(query, 0)) for query in emptied}


def _cut(run: Any, max_docs: int | None, notes: list[str]) -> Any:
    """-M: the first max_docs documents of each query in trec_eval's order
    (score descending, then docno descending: form_res_rels.c)."""
    if max_docs is None:
        return run
    ordered = run.sort_values(["user_id", "score", "item_id"], ascending=[True, False, False], kind="stable")
    kept = ordered.groupby("user_id", sort=False).head(max_docs)
    dropped = len(run) - len(kept)
    if dropped:
        queries = int((ordered.groupby("user_id", sort=False).size() > max_docs).sum())
        notes.append(f"-M {max_docs}: {dropped} document(s) ranked past {max_docs} in {queries} quer"
                     f"{'y' if queries == 1 else 'ies'} are not read (trec_eval drops them too, without a word).")
    return kept


def _note_queries(qrels: Any, run: Any, complete: bool, notes: list[str]) -> None:
    judged = set(qrels["user_id"])
    retrieved = set(run["user_id"])
    unjudged = sorted(retrieved - judged)
    if unjudged:
        notes.append(f"{len(unjudged)} of the run's {len(retrieved)} queries have no judgment in the qrels and are "
                     f"not evaluated, as trec_eval does ({_examples(unjudged)}).")
    unretrieved = sorted(judged - retrieved)
    if unretrieved:
        if complete:
            notes.append(f"{len(unretrieved)} of the qrels' {len(judged)} queries have no document in the run and "
                         f"score 0 (-c) ({_examples(unretrieved)}).")
        else:
            notes.append(f"{len(unretrieved)} of the qrels' {len(judged)} queries have no document in the run and are "
                         f"left out of the means ({_examples(unretrieved)}); -c counts them, each measure 0. "
                         "(trec_eval 10.0 stops on such a query without -c; trec_eval 9 left it out.)")


def _examples(ids: list[str]) -> str:
    shown = ", ".join(ids[:5])
    return shown + (", ..." if len(ids) > 5 else "")


def _mapped_gains(qrels: Any, gains: tuple[tuple[int, float], ...] | str) -> Any:
    """Each judged document's gain under an ndcg gain map (the level's gain
    given, or the level itself); or, QUERY_SCALED, its level times the qrels'
    largest over its query's largest when that is above 1, so that rankwise's
    graded gain (a relevance over the qrels' largest) is trec_eval's rbp gain
    (a level over its query's largest, m_rbp.c)."""
    relevance = qrels["relevance"]
    if gains == QUERY_SCALED:
        query_largest = relevance.groupby(qrels["user_id"]).transform("max").clip(lower=1)
        return (relevance * (max(relevance.max(), 1) / query_largest)).astype("float64")
    mapping = dict(gains)
    return relevance.map(lambda level: mapping.get(int(level), float(level))).astype("float64")
