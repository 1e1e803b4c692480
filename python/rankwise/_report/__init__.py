"""rankwise.report: one self-contained HTML file of an evaluation's tables and
plots, readable offline (plotly.js is written into the file)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack

import duckdb

from .._api import check, evaluate, exposure_by_item_group
from .._compare import compare
from .._gates import GateOn, failing_comparisons, failing_metrics
from .._options import EvaluateOptions, options_read_for
from .._plan import macro_arguments, plan_of
from ..errors import InvalidArgumentError, RankwiseWarning
from . import _html, _tables
from ._html import require_plotly

# The columns of an evaluate() result that are not group columns.
_VALUE_COLUMNS = ("metric", "k", "metric_label", "value", "n_users", "n_users_without_list", "ci_low", "ci_high", "ci_clipped")


@dataclass
class Gates:
    """Bounds on metric labels of the means that the report judges, by the
    rule of rankwise.failing_metrics: `at_least` and `at_most`, on the value or
    a bound of its interval (`on`). Non-inferiority, the gate of a comparison,
    comes with its margin."""

    at_least: dict[str, float] = field(default_factory=dict)
    at_most: dict[str, float] = field(default_factory=dict)
    on: str = "value"

    def __bool__(self) -> bool:
        return bool(self.at_least or self.at_most)


@dataclass
class Verdict:
    """How the report judges: `alpha` (the level of rankwise.compare's
    `significant` and of its non-inferiority test), the `margin` the comparison
    was run at (its p_non_inferiority columns), the correction's name when
    known, and the gates on the means."""

    alpha: float = 0.05
    margin: float | None = None
    correction: str | None = None
    gates: Gates = field(default_factory=Gates)


@dataclass
class ReportData:
    """What a report shows: the means (one row per series, metric and k), and
    optionally the per-user values, the means per partition, the check notes
    and a comparison (rankwise.compare's rows, each model against a baseline or
    every pair) with the gates. With partitions, `means`, `per_user` and
    `comparison` are those of the last partition, which `scope` names."""

    means: Any
    series: list[str]
    per_user: Any = None
    partitions: Any = None
    partition_by: list[str] = field(default_factory=list)
    scope: str | None = None
    notes: Any = None
    title: str = "rankwise report"
    comparison: Any = None
    verdict: Verdict = field(default_factory=lambda: Verdict())
    # the rows rankwise.failing_metrics and failing_comparisons return
    failing_metrics: Any = None
    failing_comparisons: Any = None
    # rankwise.exposure_by_item_group's rows (item_group_col given)
    item_groups: Any = None


def _assemble(means: Any, per_user: Any, series: list[str], partition_by: list[str], notes: Any,
              title: str, comparison: Any = None, verdict: Verdict | None = None, item_groups: Any = None) -> ReportData:
    """The report's views of results evaluated per partition (evaluate's
    partition_by: folds, weeks) and grouped by the series columns. A user may be
    in every partition, so the only means are per partition: the table, the
    curves, the distributions, the heatmap and the verdict show the last one
    (the largest partition values), and a chart shows every partition."""
    judged = {"comparison": comparison, "verdict": verdict or Verdict(), "item_groups": item_groups}
    if not partition_by:
        return _judged(ReportData(means=means, series=series, per_user=per_user, notes=notes, title=title, **judged))
    partitions = means[partition_by].drop_duplicates()
    last = max(partitions.itertuples(index=False, name=None), key=_sortable)
    scope = (", ".join(f"{column} = {value}" for column, value in zip(partition_by, last))
             + f", the last of {len(partitions)} partitions")

    def of_last(table: Any) -> Any:
        import pandas as pd

        rows = pd.Series(True, index=table.index)
        for column, value in zip(partition_by, last):
            rows &= table[column].isna() if pd.isna(value) else table[column] == value
        return table[rows].drop(columns=partition_by)

    judged["comparison"] = of_last(comparison) if comparison is not None else None
    judged["item_groups"] = of_last(item_groups) if item_groups is not None else None
    return _judged(ReportData(means=of_last(means), series=series,
                              per_user=of_last(per_user) if per_user is not None else None, partitions=means,
                              partition_by=partition_by, scope=scope, notes=notes, title=title, **judged))


def _judged(data: ReportData) -> ReportData:
    """The data with the rows that fail its gates, by the rules of
    rankwise.failing_metrics and failing_comparisons."""
    gates = data.verdict.gates
    if gates:
        data.failing_metrics = failing_metrics(data.means, at_least=gates.at_least, at_most=gates.at_most,
                                               on=gates.on)
    if data.comparison is not None and "p_non_inferiority_adjusted" in data.comparison.columns:
        data.failing_comparisons = failing_comparisons(data.comparison, alpha=data.verdict.alpha)
    return data


def _sortable(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """Partition values in order, NULL (a partition of its own) first."""
    import pandas as pd

    return tuple((False, "") if pd.isna(value) else (True, value) for value in values)


def _pandas(table: Any, argument: str, producer: str = "rankwise.evaluate") -> Any:
    """A result as pandas, from any output evaluate() or compare() gives."""
    import pandas as pd

    if table is None or isinstance(table, pd.DataFrame):
        return table
    if isinstance(table, duckdb.DuckDBPyRelation):
        return table.df()
    if hasattr(table, "to_pandas"):  # pyarrow and polars
        return table.to_pandas()
    raise InvalidArgumentError(
        f"rankwise.report: argument `{argument}` must be a result of {producer} (pandas, polars, "
        f"pyarrow or a DuckDB relation); got {type(table).__name__}.")


def _with_labels(table: Any, argument: str) -> Any:
    """The result with a metric_label column (results written before it existed
    have none)."""
    import pandas as pd

    for column in ("metric", "k", "value"):
        if column not in table.columns:
            raise InvalidArgumentError(
                f"rankwise.report: argument `{argument}` has no column `{column}`; pass a result of rankwise.evaluate.")
    if "metric_label" not in table.columns:
        labels = [metric if pd.isna(k) else f"{metric}@{int(k)}" for metric, k in zip(table["metric"], table["k"])]
        table = table.assign(metric_label=labels)
    return table


def _group_columns(table: Any, first: int = 0) -> list[str]:
    """The group columns of an evaluate() result: those before `metric` (and,
    per user, after the user column)."""
    columns = list(table.columns)
    return [column for column in columns[first:columns.index("metric")] if column not in _VALUE_COLUMNS]


def _from_results(result: Any, per_user: Any, partition_by: list[str], notes: Any, title: str,
                  comparison: Any = None, verdict: Verdict | None = None) -> ReportData:
    means = _with_labels(_pandas(result, "result"), "result")
    groups = _group_columns(means)
    if not set(partition_by) <= set(groups):
        raise InvalidArgumentError(
            f"rankwise.report: `partition_by` names the partition columns of `result`; its group and partition "
            f"columns are {groups}, not {partition_by}.")
    per_user_table = _pandas(per_user, "per_user")
    if per_user_table is not None:
        per_user_table = _with_labels(per_user_table, "per_user")
        if _group_columns(per_user_table, first=1) != groups:
            raise InvalidArgumentError(
                f"rankwise.report: `per_user` is grouped by {_group_columns(per_user_table, first=1)} and `result` by "
                f"{groups}; evaluate both with the same group_by and partition_by.")
    series = [column for column in groups if column not in partition_by]
    comparison_table = _pandas(comparison, "comparison", "rankwise.compare")
    if comparison_table is not None:
        _check_comparison(comparison_table, partition_by)
    if verdict is not None and verdict.margin is not None and (
            comparison_table is None or "p_non_inferiority_adjusted" not in comparison_table.columns):
        raise InvalidArgumentError(
            "rankwise.report: with `result`, `margin` names the margin `comparison` was computed at; pass a "
            "comparison of rankwise.compare with that margin.")
    return _assemble(means, per_user_table, series, partition_by, _pandas(notes, "notes"), title, comparison_table,
                     verdict)


def _check_comparison(comparison: Any, partition_by: list[str]) -> None:
    """A comparison the report can draw: rankwise.compare's rows, with the
    partition columns of the means."""
    needed = {"metric", "metric_label", "model", "baseline", "diff", "p_adjusted", "significant", "wins", "ties",
              "losses"}
    missing = needed - set(comparison.columns)
    if missing:
        raise InvalidArgumentError(
            f"rankwise.report: `comparison` must be a result of rankwise.compare; it has no column "
            f"{', '.join(sorted(missing))}.")
    if not set(partition_by) <= set(comparison.columns):
        raise InvalidArgumentError(
            f"rankwise.report: `comparison` has no partition column {', '.join(sorted(set(partition_by) - set(comparison.columns)))}; "
            "compare with the partition_by of the means.")


def _listed(value: Sequence[str] | str | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def compute(
    recommendations: Any,
    interactions: Any,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    items: Any = None,
    train: Any = None,
    con: duckdb.DuckDBPyConnection | None = None,
    title: str = "rankwise report",
    baseline: Any = None,
    model_col: str | None = None,
    correction: str = "holm",
    verdict: Verdict | None = None,
    stage: Callable[[str], None] = lambda name: None,
    **options: Unpack[EvaluateOptions],
) -> ReportData:
    """Checks the inputs, then evaluates them once per view of the report, and
    with a baseline compares the models; `stage` is told when each stage
    starts (the command line shows it). A warning about the inputs is given
    once, not once per evaluation."""
    with _each_warning_once():
        return _compute(recommendations, interactions, metrics, k, group_by=group_by, partition_by=partition_by,
                        items=items, train=train, con=con, title=title, baseline=baseline, model_col=model_col,
                        correction=correction, verdict=verdict, stage=stage, **options)


@contextmanager
def _each_warning_once() -> Iterator[None]:
    """The warnings given inside, each RankwiseWarning once: the report
    evaluates the same inputs several times (the means, the per-user values,
    the comparison), and each evaluation warns of the same input."""
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RankwiseWarning)
            yield
    finally:
        _give_once(caught)


def _give_once(caught: list[warnings.WarningMessage]) -> None:
    given = set()
    for warning in caught:
        if issubclass(warning.category, RankwiseWarning):
            if str(warning.message) in given:
                continue
            given.add(str(warning.message))
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


def _compute(
    recommendations: Any,
    interactions: Any,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None,
    *,
    group_by: Sequence[str] | str | None,
    partition_by: Sequence[str] | str | None,
    items: Any,
    train: Any,
    con: duckdb.DuckDBPyConnection | None,
    title: str,
    baseline: Any,
    model_col: str | None,
    correction: str,
    verdict: Verdict | None,
    stage: Callable[[str], None],
    **options: Unpack[EvaluateOptions],
) -> ReportData:
    series, partitions = _listed(group_by), _listed(partition_by)
    verdict = verdict or Verdict()
    if verdict.margin is not None and baseline is None:
        raise InvalidArgumentError("rankwise.report: `margin` is how much worse than the baseline still counts as no "
                                   "worse: give the `baseline` too.")
    compared_by = _model_column(model_col, series) if baseline is not None else None
    if options.get("reference") is not None:
        # rbo and intersection compare each model's lists with the reference
        # model's: the models are those of the same column as the baseline's
        options = {**options, "model_col": model_col or (series[0] if series else None)}
    stage("checking")
    # The check reads the inputs, not the metrics: the options of metrics alone
    # (the catalog's feature columns...) are left out.
    notes = check(recommendations, interactions, k=k, group_by=series, partition_by=partitions, con=con,
                  **options_read_for(set(), options))
    # The check ran every validation evaluate() would: evaluate again only to
    # raise the typed error of the first problem found.
    validate = bool((notes["severity"] == "error").any())
    stage("computing")
    arguments: dict[str, Any] = {"k": k, "group_by": series, "partition_by": partitions, "con": con,
                                 "validate": validate, **options}
    means = evaluate(recommendations, interactions, metrics, items=items, train=train, **arguments)
    # A group-level metric (entropy, coverage...) has one value per group, none
    # per user: the plan says which metrics have per-user or per-list values.
    plan = plan_of("report", macro_arguments("report", metrics, k, series, False, options, partitions),
                   items=items is not None, train=train is not None)
    with_values = plan.names_of_level("user", "list")
    per_list = [metric for metric in _listed(metrics) if metric.split("@")[0] in with_values]
    per_user = None
    if per_list:
        read = plan.inputs_read_by(with_values)
        per_list_inputs = {role: value for role, value in (("items", items), ("train", train)) if role in read}
        # the options only other metrics read (item_group_col...) left out
        per_list_names = {metric.split("@")[0].split("(")[0] for metric in per_list}
        read = options_read_for(per_list_names, options)
        per_user = evaluate(recommendations, interactions, per_list, per_user=True, **per_list_inputs,
                            **{name: value for name, value in arguments.items() if name not in options or name in read})
    comparison = None
    if compared_by is not None:
        compared = [metric for metric in _listed(metrics) if metric.split("@")[0] in plan.compared_names()]
        if not compared:
            raise InvalidArgumentError(
                f"rankwise.report: the verdict compares the models on per-user metrics (ndcg, map, recall...); none "
                f"of {', '.join(_listed(metrics))} is one, so there is nothing to compare with the baseline.")
        stage("comparing")
        comparison = compare(recommendations, interactions, compared, k, model_col=compared_by, baseline=baseline,
                             group_by=[column for column in series if column != compared_by], partition_by=partitions,
                             alpha=verdict.alpha, correction=correction, margin=verdict.margin, con=con,
                             validate=validate, **options_read_for(plan.compared_names(), options))
        verdict = Verdict(alpha=verdict.alpha, margin=verdict.margin, correction=correction, gates=verdict.gates)
    item_groups = None
    if options.get("item_group_col") is not None and items is not None:
        # who the lists give attention to: each item group's shares of the
        # exposure and of the relevant pairs, charted one against the other
        stage("exposure by item group")
        item_groups = exposure_by_item_group(recommendations, interactions, items, k, group_by=series,
                                             partition_by=partitions, con=con, validate=validate,
                                             **options_read_for({"exposure_disparity"}, options))
    return _assemble(means, per_user, series, partitions, notes, title, comparison, verdict, item_groups)


def _model_column(model_col: str | None, series: list[str]) -> str:
    """The column whose values the baseline is one of: `model_col`, or the
    first group column."""
    if not series:
        raise InvalidArgumentError("rankwise.report: a `baseline` is one of the models of a group column: give "
                                   "`group_by` (such as group_by='model').")
    if model_col is None:
        return series[0]
    if model_col not in series:
        raise InvalidArgumentError(f"rankwise.report: `model_col` must be one of the group columns {series}; got "
                                   f"{model_col!r}.")
    return model_col


def write(data: ReportData, path: str | os.PathLike[str]) -> Path:
    """Writes the report's HTML next to `path`, then renames it into place."""
    target = Path(path).resolve()
    if target.suffix.lower() not in (".html", ".htm"):
        raise InvalidArgumentError(f"rankwise.report: the file name must end in .html; got '{path}'.")
    temporary = target.with_name(f".{target.name}.partial")
    try:
        temporary.write_text(_html.render(data), encoding="utf-8")
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def decisions(data: ReportData) -> Any:
    """The verdict's decisions as a table: one row per model compared with the
    baseline (within the comparison's group columns), what the page's verdict
    says of it. Empty without a comparison against one baseline."""
    import pandas as pd

    judged = _tables.verdict(data)
    if judged is None or judged["baseline"] is None:
        return pd.DataFrame(columns=["model", "baseline", "decision", "better", "no_different", "worse", "summary"])
    return pd.DataFrame(
        [(*decision["key"], judged["baseline"], decision["status_words"], decision["counts"]["better"],
          decision["counts"]["no different"], decision["counts"]["worse"], decision["text"])
         for decision in judged["decisions"]],
        columns=[*judged["groups"], "model", "baseline", "decision", "better", "no_different", "worse", "summary"])


def verdict_lines(table: Any) -> list[str]:
    """The decisions of rankwise.verdict, one line each, as the command line
    prints them: "ship it: personalized against popularity: better on 2, ..."."""
    groups = list(table.columns[:list(table.columns).index("model")])
    return [f"{row['decision']}: {' · '.join(str(row[column]) for column in [*groups, 'model'])} against "
            f"{row['baseline']}: {row['summary']}." for row in table.to_dict("records")]


def verdict(
    comparison: Any,
    result: Any = None,
    *,
    margin: float | None = None,
    alpha: float = 0.05,
    at_least: Mapping[str, float] | None = None,
    at_most: Mapping[str, float] | None = None,
    gate_on: GateOn = "value",
) -> Any:
    """Each model's decision against the baseline, as the report's verdict
    gives it, for a terminal or a pipeline: "ship it" (with a ``margin``:
    shown to be no worse than the baseline on every metric, every gate
    passed), "hold" (a metric not shown to be no worse, or worse without a
    margin, or a gate failed) or "nothing worse" (without a margin, no metric
    significantly worse, which does not show that none is).

    Args:
        comparison: What :func:`compare` returned with a ``baseline`` (with a
            ``margin``, its non-inferiority test decides).
        result: What :func:`evaluate` returned, grouped by the model column
            and the comparison's group columns: the means the gates judge.
        margin: The margin ``comparison`` was computed at, for the text.
        alpha: The level the non-inferiority test is judged at.
        at_least, at_most: Gates on the means of ``result``, as for
            :func:`rankwise.failing_metrics`.
        gate_on: What the gates judge: "value", "ci_low" or "ci_high".

    Returns:
        A pandas DataFrame, one row per model: the comparison's group columns,
        ``model``, ``baseline``, ``decision``, the counts of metrics
        ``better``, ``no_different`` and ``worse``, and ``summary``, the
        report's sentence of what the decision rests on.

    >>> comparison = rankwise.compare(recs, truth, ["ndcg@10"], baseline="production", margin=0.01)
    >>> rankwise.verdict(comparison, margin=0.01)  # doctest: +SKIP
    """
    gates = Gates(at_least=dict(at_least or {}), at_most=dict(at_most or {}), on=gate_on)
    comparison_table = _pandas(comparison, "comparison", "rankwise.compare")
    if comparison_table is None:
        raise InvalidArgumentError("rankwise.verdict: argument `comparison` is what rankwise.compare returned; got None.")
    _check_comparison(comparison_table, [])
    if len(set(comparison_table["baseline"])) != 1:
        raise InvalidArgumentError(
            "rankwise.verdict: `comparison` compares every pair of models; a verdict judges each model against one "
            "baseline: compare with baseline=... .")
    if gates and result is None:
        raise InvalidArgumentError("rankwise.verdict: `at_least` and `at_most` judge the means: pass `result`, what "
                                   "rankwise.evaluate returned.")
    if margin is not None and "p_non_inferiority_adjusted" not in comparison_table.columns:
        raise InvalidArgumentError(
            "rankwise.verdict: `margin` names the margin `comparison` was computed at; pass a comparison of "
            "rankwise.compare with that margin.")
    judged = Verdict(alpha=alpha, margin=margin, gates=gates)
    if result is None:
        data = _judged(ReportData(means=None, series=[], comparison=comparison_table, verdict=judged))
    else:
        data = _from_results(result, None, [], None, "", comparison_table, judged)
    return decisions(data)


def report(
    recommendations: Any = None,
    interactions: Any = None,
    metrics: Sequence[str] | str | None = None,
    k: int | Sequence[int | None] | None = None,
    *,
    path: str | os.PathLike[str] = "rankwise_report.html",
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    result: Any = None,
    per_user: Any = None,
    notes: Any = None,
    comparison: Any = None,
    title: str = "rankwise report",
    items: Any = None,
    train: Any = None,
    baseline: Any = None,
    model_col: str | None = None,
    margin: float | None = None,
    alpha: float = 0.05,
    correction: str = "holm",
    at_least: Mapping[str, float] | None = None,
    at_most: Mapping[str, float] | None = None,
    gate_on: GateOn = "value",
    con: duckdb.DuckDBPyConnection | None = None,
    **options: Unpack[EvaluateOptions],
) -> Path:
    """Writes an HTML report of an evaluation: one file that opens offline.

    With a ``baseline`` (or a ``comparison``), it opens with the verdict: each
    model against the baseline, metric by metric, better, no different or
    worse (rankwise.compare's corrected p-values; for "no different", the
    smallest difference the test could have detected; with a ``margin``,
    whether the model is shown to be no worse by more than it), and the gates'
    results. Then a table of every metric@k per series (a series is one value
    of the group columns, such as a model), with the confidence interval when
    the result has ``ci_low`` and ``ci_high``; the comparison in ranx's layout
    (superscripts: the models each one beats significantly) with wins, ties and
    losses; each metric against k per series, with interval bands; an accuracy
    metric against a beyond-accuracy one (novelty, coverage...) when both are
    evaluated; the distribution of the per-user values per series, with each
    mean's interval; a heatmap when there are two group columns; each metric
    over the partitions of ``partition_by`` (folds, weeks: as in
    :func:`evaluate`, each partition's lists judged against its own
    interactions), with bands; and the notes of :func:`rankwise.check`.

    Either evaluates the inputs (``recommendations``, ``interactions``,
    ``metrics``, ``k``, ``group_by`` and the options, as :func:`evaluate`), or
    draws results already computed: ``result`` (from :func:`evaluate`), and
    optionally ``per_user`` (the same evaluation with ``per_user=True``),
    ``notes`` (from :func:`check`) and ``comparison`` (from :func:`compare`,
    with the same partitions). With ``partition_by``, the table, the curves,
    the distributions, the heatmap and the verdict show the last partition (a
    user may be in every partition, so there is no mean over all of them), and
    a chart shows each metric over the partitions.

    Args:
        path: The HTML file to write.
        group_by: Columns whose values are the series compared (models, runs).
        items: The catalog, as for :func:`evaluate` (coverage, gini...).
        train: The training interactions, as for :func:`evaluate` (novelty...).
        partition_by: Columns both inputs have (fold, week), passed to
            :func:`evaluate`; with ``result``, its partition columns.
        title: The report's title.
        comparison: With ``result``: what :func:`compare` returned on the same
            inputs (a baseline for the verdict, or every pair for the table).
        baseline: From the inputs: the model every other is compared with, a
            value of ``model_col``; the per-user metrics asked are compared by
            :func:`compare`, within the other group columns and the partitions.
        model_col: The group column whose values are the models (default: the
            first of ``group_by``).
        margin: With ``baseline``: how much worse than the baseline still
            counts as no worse, on the metric's scale (``compare``'s margin):
            the verdict then says whether each model is shown to be no worse.
            With ``comparison``: the margin it was computed at, for the text.
        alpha: The level of the tests (``compare``'s ``alpha``; with
            ``comparison``, the level its non-inferiority test is judged at).
        correction: ``compare``'s correction, "holm", "bh" or "none".
        at_least, at_most: Gates on the means, as for
            :func:`rankwise.failing_metrics` (``{"ndcg@10": 0.25}``); the
            verdict lists each series' value against each bound.
        gate_on: What the gates judge: "value", "ci_low" or "ci_high".

    Returns:
        The path written.

    >>> rankwise.report(recommendations, interactions, ["ndcg@10", "map"], group_by="model",
    ...                 baseline="production", margin=0.01, path="report.html")  # doctest: +SKIP
    """
    _html.require_plotly()
    verdict = Verdict(alpha=alpha, margin=margin, correction=None,
                      gates=Gates(at_least=dict(at_least or {}), at_most=dict(at_most or {}), on=gate_on))
    if result is not None:
        if recommendations is not None or interactions is not None or metrics is not None:
            raise InvalidArgumentError(
                "rankwise.report: pass either the inputs (recommendations, interactions, metrics) or `result`, not both.")
        if baseline is not None:
            raise InvalidArgumentError(
                "rankwise.report: `baseline` is compared from the inputs; with `result`, pass `comparison`, what "
                "rankwise.compare returned.")
        data = _from_results(result, per_user, _listed(partition_by), notes, title, comparison, verdict)
    else:
        if recommendations is None or interactions is None or metrics is None:
            raise InvalidArgumentError(
                "rankwise.report: pass the inputs (recommendations, interactions and metrics), or `result`, "
                "a result of rankwise.evaluate.")
        if per_user is not None or notes is not None or comparison is not None:
            raise InvalidArgumentError(
                "rankwise.report: `per_user`, `notes` and `comparison` go with `result`; from the inputs, the "
                "report computes them.")
        data = compute(recommendations, interactions, metrics, k, group_by=group_by, partition_by=partition_by,
                       items=items, train=train, con=con, title=title, baseline=baseline, model_col=model_col,
                       correction=correction, verdict=verdict, **options)
    return write(data, path)
