"""rankwise.report: one self-contained HTML file of an evaluation's tables and
plots, readable offline (plotly.js is written into the file)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack

import duckdb

from .._api import check, evaluate
from .._options import EvaluateOptions
from .._plan import evaluation_plan, macro_arguments
from ..errors import InvalidArgumentError
from . import _html
from ._html import require_plotly

# The columns of an evaluate() result that are not group columns.
_VALUE_COLUMNS = ("metric", "k", "metric_label", "value", "n_users", "n_users_without_list", "ci_low", "ci_high")


@dataclass
class ReportData:
    """What a report shows: the means (one row per series, metric and k), and
    optionally the per-user values, the means per partition and the check notes.
    With partitions, `means` and `per_user` are those of the last partition,
    which `scope` names."""

    means: Any
    series: list[str]
    per_user: Any = None
    partitions: Any = None
    partition_by: list[str] = field(default_factory=list)
    scope: str | None = None
    notes: Any = None
    title: str = "rankwise report"


def _assemble(means: Any, per_user: Any, series: list[str], partition_by: list[str], notes: Any,
              title: str) -> ReportData:
    """The report's views of results evaluated per partition (evaluate's
    partition_by: folds, weeks) and grouped by the series columns. A user may be
    in every partition, so the only means are per partition: the table, the
    curves, the distributions and the heatmap show the last one (the largest
    partition values), and a chart shows every partition."""
    if not partition_by:
        return ReportData(means=means, series=series, per_user=per_user, notes=notes, title=title)
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

    return ReportData(means=of_last(means), series=series, per_user=of_last(per_user) if per_user is not None else None,
                      partitions=means, partition_by=partition_by, scope=scope, notes=notes, title=title)


def _sortable(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """Partition values in order, NULL (a partition of its own) first."""
    import pandas as pd

    return tuple((False, "") if pd.isna(value) else (True, value) for value in values)


def _pandas(table: Any, argument: str) -> Any:
    """A result as pandas, from any output evaluate() gives."""
    import pandas as pd

    if table is None or isinstance(table, pd.DataFrame):
        return table
    if isinstance(table, duckdb.DuckDBPyRelation):
        return table.df()
    if hasattr(table, "to_pandas"):  # pyarrow and polars
        return table.to_pandas()
    raise InvalidArgumentError(
        f"rankwise.report: argument `{argument}` must be a result of rankwise.evaluate (pandas, polars, "
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


def _from_results(result: Any, per_user: Any, partition_by: list[str], notes: Any, title: str) -> ReportData:
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
    return _assemble(means, per_user_table, series, partition_by, _pandas(notes, "notes"), title)


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
    stage: Callable[[str], None] = lambda name: None,
    **options: Unpack[EvaluateOptions],
) -> ReportData:
    """Checks the inputs, then evaluates them once per view of the report;
    `stage` is told when each stage starts (the command line shows it)."""
    series, partitions = _listed(group_by), _listed(partition_by)
    stage("checking")
    notes = check(recommendations, interactions, k=k, group_by=series, partition_by=partitions, con=con, **options)
    # The check ran every validation evaluate() would: evaluate again only to
    # raise the typed error of the first problem found.
    validate = bool((notes["severity"] == "error").any())
    stage("computing")
    arguments: dict[str, Any] = {"k": k, "group_by": series, "partition_by": partitions, "con": con,
                                 "validate": validate, **options}
    means = evaluate(recommendations, interactions, metrics, items=items, train=train, **arguments)
    # A group-level metric (entropy, coverage...) has one value per group, none
    # per user: the plan says which metrics have per-user or per-list values.
    plan = evaluation_plan(macro_arguments("report", metrics, k, series, False, options, partitions),
                           items=items is not None, train=train is not None)
    with_values = plan.names_of_level("user", "list")
    per_list = [metric for metric in _listed(metrics) if metric.split("@")[0] in with_values]
    per_user = None
    if per_list:
        read = plan.inputs_read_by(with_values)
        per_list_inputs = {role: value for role, value in (("items", items), ("train", train)) if role in read}
        per_user = evaluate(recommendations, interactions, per_list, per_user=True, **per_list_inputs, **arguments)
    return _assemble(means, per_user, series, partitions, notes, title)


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
    title: str = "rankwise report",
    items: Any = None,
    train: Any = None,
    con: duckdb.DuckDBPyConnection | None = None,
    **options: Unpack[EvaluateOptions],
) -> Path:
    """Writes an HTML report of an evaluation: one file that opens offline.

    It shows a table of every metric@k per series (a series is one value of the
    group columns, such as a model), with the confidence interval when the
    result has ``ci_low`` and ``ci_high``; each metric against k per series,
    with interval bands; the distribution of the per-user values per series; a
    heatmap when there are two group columns; each metric over the partitions
    of ``partition_by`` (folds, weeks: as in :func:`evaluate`, each partition's
    lists judged against its own interactions); and the notes of
    :func:`rankwise.check`.

    Either evaluates the inputs (``recommendations``, ``interactions``,
    ``metrics``, ``k``, ``group_by`` and the options, as :func:`evaluate`), or
    draws results already computed: ``result`` (from :func:`evaluate`), and
    optionally ``per_user`` (the same evaluation with ``per_user=True``) and
    ``notes`` (from :func:`check`). With ``partition_by``, the table, the curves,
    the distributions and the heatmap show the last partition (a user may be in
    every partition, so there is no mean over all of them), and a chart shows
    each metric over the partitions.

    Args:
        path: The HTML file to write.
        group_by: Columns whose values are the series compared (models, runs).
        items: The catalog, as for :func:`evaluate` (coverage, gini...).
        train: The training interactions, as for :func:`evaluate` (novelty...).
        partition_by: Columns both inputs have (fold, week), passed to
            :func:`evaluate`; with ``result``, its partition columns.
        title: The report's title.

    Returns:
        The path written.

    >>> rankwise.report(recommendations, interactions, ["ndcg@10", "map"], group_by="model",
    ...                 path="report.html")  # doctest: +SKIP
    """
    _html.require_plotly()
    if result is not None:
        if recommendations is not None or interactions is not None or metrics is not None:
            raise InvalidArgumentError(
                "rankwise.report: pass either the inputs (recommendations, interactions, metrics) or `result`, not both.")
        data = _from_results(result, per_user, _listed(partition_by), notes, title)
    else:
        if recommendations is None or interactions is None or metrics is None:
            raise InvalidArgumentError(
                "rankwise.report: pass the inputs (recommendations, interactions and metrics), or `result`, "
                "a result of rankwise.evaluate.")
        if per_user is not None or notes is not None:
            raise InvalidArgumentError(
                "rankwise.report: `per_user` and `notes` go with `result`; from the inputs, the "
                "report computes them.")
        data = compute(recommendations, interactions, metrics, k, group_by=group_by, partition_by=partition_by,
                       items=items, train=train, con=con, title=title, **options)
    return write(data, path)
