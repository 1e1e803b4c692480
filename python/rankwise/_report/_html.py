"""The report's HTML: tables written by Jinja, charts drawn by plotly.js from
figures built here, every figure's data inlined as JSON."""

from __future__ import annotations

import importlib.resources
import math
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from .._plan import metric_names

if TYPE_CHECKING:
    from . import ReportData

_BAND_OPACITY = 0.18
# The metric menu above a chart, at its top left.
_MENU = {"x": 0, "xanchor": "left", "y": 1.18, "yanchor": "top", "direction": "down", "showactive": True}


def require_plotly() -> None:
    """Fails before any work when plotly, an optional dependency, is missing."""
    try:
        import plotly  # noqa: F401
    except ImportError as error:
        raise ImportError("rankwise.report needs plotly: pip install 'rankwise[report]'.") from error


def _plotly() -> Any:
    require_plotly()
    import plotly.graph_objects as go
    import plotly.offline

    return go, plotly.offline


def _series_names(table: Any, series: list[str]) -> list[str]:
    """One label per row: the values of the group columns, or 'all' without any."""
    if not series:
        return ["all"] * len(table)
    names = table[series[0]].astype(str)
    for column in series[1:]:
        names = names + " · " + table[column].astype(str)
    return names.tolist()


def _ordered(values: Any) -> list[Any]:
    """Distinct values in order of first appearance (the order evaluate() sorts)."""
    import pandas as pd

    return pd.unique(pd.Series(values, dtype=object)).tolist()


def _number(value: Any) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _has_intervals(table: Any) -> bool:
    return {"ci_low", "ci_high"} <= set(table.columns)


def _levels(data: ReportData) -> dict[str, list[str]]:
    """The metrics of the report by level ('user', 'list', 'group'), as the
    metric registry has them, in the table's order."""
    names = _ordered(data.means["metric"])
    return {level: [name for name in names if name in metric_names(level)] for level in ("user", "list", "group")}


def _summary(data: ReportData) -> dict[str, Any]:
    """The summary table: one row per series, one column per metric label; the
    series' users are those of its per-user metrics."""
    levels = _levels(data)
    means = data.means.assign(rw_series=_series_names(data.means, data.series))
    labels = _ordered(means["metric_label"])
    intervals = _has_intervals(means)
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    users: dict[str, Any] = {}
    for row in means.itertuples(index=False):
        cell = {"value": _number(row.value)}
        if intervals:
            cell["low"], cell["high"] = _number(row.ci_low), _number(row.ci_high)
        cells[(row.rw_series, row.metric_label)] = cell
        if row.metric in levels["user"] and "n_users" in means.columns:
            users[row.rw_series] = row.n_users
    series = _ordered(means["rw_series"])
    best = {}
    for label in labels:
        values = [cells[(name, label)]["value"] for name in series if (name, label) in cells]
        values = [value for value in values if value is not None]
        best[label] = max(values) if values and len(series) > 1 else None
    rows = [{"series": name, "n_users": users.get(name),
             "cells": [cells.get((name, label)) for label in labels]} for name in series]
    return {"labels": labels, "rows": rows, "best": [best[label] for label in labels], "intervals": intervals,
            "series_title": " · ".join(data.series) or "series"}


def _curves(data: ReportData, colors: _Colors) -> dict[str, Any] | None:
    """Each metric against k, one line per series; a band between ci_low and
    ci_high when the result has them. Metrics at fewer than two cutoffs have
    no curve (they are in the table)."""
    means = data.means[data.means["k"].notna()]
    # one curve per metric and set of parameters: its label without @k
    means = means.assign(rw_series=_series_names(means, data.series),
                         rw_curve=[label.rsplit("@", 1)[0] for label in means["metric_label"]])
    names = [name for name in _ordered(means["rw_curve"]) if means[means["rw_curve"] == name]["k"].nunique() > 1]
    if not names:
        return None
    from plotly.subplots import make_subplots

    columns = min(3, len(names))
    rows = math.ceil(len(names) / columns)
    figure = make_subplots(rows=rows, cols=columns, subplot_titles=names, horizontal_spacing=0.06,
                           vertical_spacing=min(0.12, 0.3 / rows))
    intervals = _has_intervals(means)
    traces = []
    for position, name in enumerate(names):
        # make_subplots numbers the axes row after row: x, x2, x3...
        axes = {"xaxis": f"x{position + 1 if position else ''}", "yaxis": f"y{position + 1 if position else ''}"}
        rows_of_metric = means[means["rw_curve"] == name].sort_values("k")
        for series, points in rows_of_metric.groupby("rw_series", sort=False):
            k = [int(value) for value in points["k"]]
            if intervals:
                traces.append({
                    "type": "scatter", "x": k + k[::-1], "y": list(points["ci_high"]) + list(points["ci_low"])[::-1],
                    "fill": "toself", "fillcolor": colors[series], "opacity": _BAND_OPACITY, "line": {"width": 0},
                    "hoverinfo": "skip", "legendgroup": series, "showlegend": False, "name": series, **axes})
            traces.append({
                "type": "scatter", "x": k, "y": list(points["value"]), "mode": "lines+markers", "name": series,
                "legendgroup": series, "line": {"color": colors[series]}, "showlegend": position == 0,
                "hovertemplate": f"{series}<br>{name}@%{{x}}: %{{y:.4f}}<extra></extra>", **axes})
    figure.update_xaxes(title_text="k", type="log" if means["k"].max() / max(means["k"].min(), 1) > 20 else "linear")
    figure.update_layout(height=max(320, 300 * rows), margin={"t": 40, "b": 40})
    return {"id": "curves", "title": "Metrics against k", "figure": figure, "traces": traces}


class _Colors(dict):
    """One color per series, the same in every chart, in the order first met."""

    def __missing__(self, series: str) -> str:
        import plotly.colors

        palette = plotly.colors.qualitative.Plotly + plotly.colors.qualitative.D3 + plotly.colors.qualitative.Dark24
        self[series] = palette[len(self) % len(palette)]
        return self[series]


def _menu(figure: Any, labels: list[str], traces_per_label: list[int]) -> None:
    """A menu of metric labels that shows the traces of one label at a time
    (the traces were added label after label)."""
    if len(labels) < 2:
        return
    buttons = []
    start = 0
    total = sum(traces_per_label)
    for label, count in zip(labels, traces_per_label):
        visible = [start <= position < start + count for position in range(total)]
        buttons.append({"label": label, "method": "update", "args": [{"visible": visible}]})
        start += count
    figure.update_layout(updatemenus=[{**_MENU, "buttons": buttons}], margin={"t": 70})


def _distributions(data: ReportData, go: Any, colors: _Colors) -> dict[str, Any] | None:
    """Box plots of the per-user values per series, one metric label at a time:
    quartiles, whiskers at the extremes and the mean, computed here so that the
    page carries five numbers per box, not every user."""
    if data.per_user is None or data.per_user.empty:
        return None
    per_user = data.per_user.assign(rw_series=_series_names(data.per_user, data.series))
    labels = _ordered(per_user["metric_label"])
    values = per_user.groupby(["metric_label", "rw_series"], sort=False)["value"]
    stats = values.agg(["min", "max", "mean", "count"]).join(values.quantile([0.25, 0.5, 0.75]).unstack())
    boxes: dict[str, list[Any]] = {label: [] for label in labels}
    for (label, series), row in zip(stats.index, stats.itertuples(index=False)):
        low, high, mean, count, q1, median, q3 = row
        boxes[label].append({
            "type": "box", "x": [series], "q1": [q1], "median": [median], "q3": [q3], "lowerfence": [low],
            "upperfence": [high], "mean": [mean], "name": series, "marker": {"color": colors[series]},
            "showlegend": False, "hovertext": f"{series}: {int(count)} users"})
    traces = []
    for position, label in enumerate(labels):
        traces += [{**box, "visible": position == 0} for box in boxes[label]]
    counts = [len(boxes[label]) for label in labels]
    figure = go.Figure()
    _menu(figure, labels, counts)
    figure.update_layout(height=420, yaxis_title="value per user", xaxis_title=" · ".join(data.series) or None)
    return {"id": "distributions", "title": "Per-user values", "figure": figure, "traces": traces,
            "note": "Quartiles, the extremes and the mean (dashed) of the users' values."}


def _heatmap(data: ReportData, go: Any) -> dict[str, Any] | None:
    """With two group columns: one metric over both, one label at a time."""
    if len(data.series) != 2:
        return None
    rows_column, columns_column = data.series
    means = data.means
    labels = _ordered(means["metric_label"])
    rows, columns = _ordered(means[rows_column]), _ordered(means[columns_column])
    figure = go.Figure()
    traces = []
    for position, label in enumerate(labels):
        values = {(row[0], row[1]): _number(row[2]) for row in
                  means[means["metric_label"] == label][[rows_column, columns_column, "value"]].itertuples(index=False)}
        traces.append({
            "type": "heatmap", "z": [[values.get((row, column)) for column in columns] for row in rows],
            "x": [str(column) for column in columns], "y": [str(row) for row in rows], "colorscale": "Viridis",
            "visible": position == 0, "name": label,
            "hovertemplate": f"{rows_column} %{{y}}<br>{columns_column} %{{x}}<br>{label}: %{{z:.4f}}<extra></extra>"})
        if len(rows) * len(columns) <= 400:  # values written in the cells while they are legible
            traces[-1]["texttemplate"] = "%{z:.3f}"
    _menu(figure, labels, [1] * len(labels))
    figure.update_layout(height=max(360, 28 * len(rows) + 160), xaxis_title=columns_column, yaxis_title=rows_column,
                         xaxis_type="category", yaxis_type="category",
                         yaxis_autorange="reversed")
    return {"id": "heatmap", "title": f"{rows_column} × {columns_column}", "figure": figure, "traces": traces}


def _over_partitions(data: ReportData, go: Any, colors: _Colors) -> dict[str, Any] | None:
    """Each metric over the partitions (folds, weeks), one line per series."""
    if data.partitions is None or data.partitions.empty:
        return None
    # NULL is a partition of its own, first (as the summary's "last" counts it).
    table = data.partitions.sort_values(data.partition_by, kind="stable", na_position="first")
    table = table.assign(rw_series=_series_names(table, data.series),
                         rw_partition=_series_names(table, data.partition_by))
    partition_title = " · ".join(data.partition_by)
    labels = _ordered(data.partitions["metric_label"])
    series_names = _ordered(table["rw_series"])
    intervals = _has_intervals(table)
    figure = go.Figure()
    traces = []
    counts = []
    for position, label in enumerate(labels):
        of_label = table[table["metric_label"] == label]
        count = len(traces)
        for series, points in of_label.groupby("rw_series", sort=False):
            x = list(points["rw_partition"])
            if intervals:
                traces.append({
                    "type": "scatter", "x": x + x[::-1], "y": list(points["ci_high"]) + list(points["ci_low"])[::-1],
                    "fill": "toself", "fillcolor": colors[series], "opacity": _BAND_OPACITY, "line": {"width": 0},
                    "hoverinfo": "skip", "legendgroup": series, "showlegend": False, "visible": position == 0,
                    "name": series})
            traces.append({
                "type": "scatter", "x": x, "y": list(points["value"]), "mode": "lines+markers", "name": series,
                "legendgroup": series, "line": {"color": colors[series]}, "visible": position == 0,
                "hovertemplate": f"{series}<br>%{{x}}: %{{y:.4f}}<extra></extra>"})
        counts.append(len(traces) - count)
    _menu(figure, labels, counts)
    # Every partition in order on the axis, whichever series has it.
    figure.update_layout(height=420, xaxis_title=partition_title, xaxis_type="category", yaxis_title="value",
                         xaxis_categoryorder="array", xaxis_categoryarray=_ordered(table["rw_partition"]))
    return {"id": "partitions", "title": f"Over {partition_title}", "figure": figure, "traces": traces}


def _notes(data: ReportData) -> list[dict[str, Any]] | None:
    if data.notes is None:
        return None
    return [{"severity": row.severity, "table": row.table, "problem": row.problem,
             "n_rows": None if row.n_rows is None or row.n_rows != row.n_rows else int(row.n_rows),
             "message": row.message} for row in data.notes.itertuples(index=False)]


def _script_json(text: str) -> str:
    """JSON that cannot end the <script> element it is written into: JSON has
    "<" only inside strings, where the escape \\u003c means the same."""
    return text.replace("<", "\\u003c")


def render(data: ReportData) -> str:
    from .. import __version__  # not at import: rankwise/__init__ imports this module before setting it

    go, offline = _plotly()
    import plotly.io

    colors = _Colors()
    for series in _ordered(_series_names(data.means, data.series)):
        colors[series]  # noqa: B018 - assigns the series its color, in the table's order
    charts = [chart for chart in (_curves(data, colors), _distributions(data, go, colors), _heatmap(data, go),
                                  _over_partitions(data, go, colors)) if chart is not None]
    for chart in charts:
        # The layouts are plotly objects (subplot axes, templates); the traces,
        # thousands at 100 series x 20 metrics, plain dicts: plotly's validation
        # of each would take most of the time.
        figure = chart.pop("figure").update_layout(template="plotly_white").to_plotly_json()
        figure["data"] = chart.pop("traces")
        chart["json"] = markupsafe.Markup(_script_json(plotly.io.json.to_json_plotly(figure)))
    template = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined).from_string(
        importlib.resources.files(__package__).joinpath("template.html").read_text(encoding="utf-8"))
    return template.render(
        title=data.title, scope=data.scope, version=__version__, summary=_summary(data), charts=charts, notes=_notes(data),
        levels=_levels(data),
        # Written as plotly's own to_html writes it.
        plotly_js=markupsafe.Markup(offline.get_plotlyjs()))
