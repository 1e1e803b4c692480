"""The report's HTML: tables written by Jinja, charts drawn by plotly.js from
figures built here, every figure's data inlined as JSON."""

from __future__ import annotations

import importlib.resources
import math
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from . import _tables
from ._tables import _number
from ._tables import has_intervals as _has_intervals
from ._tables import levels as _levels
from ._tables import ordered as _ordered
from ._tables import series_names as _series_names

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
                    "fill": "toself", "fillcolor": colors[series], "opacity": _BAND_OPACITY, "mode": "lines", "line": {"width": 0},
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
    page carries five numbers per box, not every user; and, when the means have
    intervals, each mean with its interval as an error bar."""
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
    means = data.means.assign(rw_series=_series_names(data.means, data.series))
    if _has_intervals(means):
        for label in labels:
            shown = [box["x"][0] for box in boxes[label]]
            rows = means[(means["metric_label"] == label) & means["rw_series"].isin(shown)]
            rows = rows[rows["ci_low"].notna()]
            if not rows.empty:
                boxes[label].append(_interval_marks(rows, "mean and its interval"))
    traces = []
    for position, label in enumerate(labels):
        traces += [{**box, "visible": position == 0} for box in boxes[label]]
    counts = [len(boxes[label]) for label in labels]
    figure = go.Figure()
    _menu(figure, labels, counts)
    figure.update_layout(height=420, yaxis_title="value per user", xaxis_title=" · ".join(data.series) or None)
    return {"id": "distributions", "title": "Per-user values", "figure": figure, "traces": traces,
            "note": "Quartiles, the extremes and the mean (dashed) of the users' values; the black bar is the "
                    "mean's confidence interval." if _has_intervals(means) else
                    "Quartiles, the extremes and the mean (dashed) of the users' values."}


def _interval_marks(rows: Any, name: str) -> dict[str, Any]:
    """A mark at each series' mean with its interval as an error bar."""
    return {
        "type": "scatter", "mode": "markers", "x": list(rows["rw_series"]), "y": list(rows["value"]), "name": name,
        "marker": {"color": "black", "symbol": "diamond", "size": 7}, "showlegend": False,
        "error_y": {"type": "data", "symmetric": False, "array": list(rows["ci_high"] - rows["value"]),
                    "arrayminus": list(rows["value"] - rows["ci_low"]), "color": "black", "thickness": 2, "width": 8},
        "hovertemplate": "%{x}<br>mean %{y:.4f} [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>",
        "customdata": [[low, high] for low, high in zip(rows["ci_low"], rows["ci_high"])]}


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
    intervals = _has_intervals(means)
    for position, label in enumerate(labels):
        of_label = means[means["metric_label"] == label]
        values = {(row[0], row[1]): _number(row[2]) for row in
                  of_label[[rows_column, columns_column, "value"]].itertuples(index=False)}
        traces.append({
            "type": "heatmap", "z": [[values.get((row, column)) for column in columns] for row in rows],
            "x": [str(column) for column in columns], "y": [str(row) for row in rows], "colorscale": "Viridis",
            "visible": position == 0, "name": label,
            "hovertemplate": f"{rows_column} %{{y}}<br>{columns_column} %{{x}}<br>{label}: %{{z:.4f}}<extra></extra>"})
        if intervals:
            # the interval of each cell's mean, in its hover text
            bounds = {(row[0], row[1]): [_number(row[2]), _number(row[3])] for row in
                      of_label[[rows_column, columns_column, "ci_low", "ci_high"]].itertuples(index=False)}
            traces[-1]["customdata"] = [[bounds.get((row, column), [None, None]) for column in columns] for row in rows]
            traces[-1]["hovertemplate"] = (f"{rows_column} %{{y}}<br>{columns_column} %{{x}}<br>{label}: %{{z:.4f}} "
                                           "[%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>")
        if len(rows) * len(columns) <= 400:  # values written in the cells while they are legible
            traces[-1]["texttemplate"] = "%{z:.3f}"
    _menu(figure, labels, [1] * len(labels))
    figure.update_layout(height=max(360, 28 * len(rows) + 160), xaxis_title=columns_column, yaxis_title=rows_column,
                         xaxis_type="category", yaxis_type="category",
                         yaxis_autorange="reversed")
    return {"id": "heatmap", "title": f"{rows_column} × {columns_column}", "figure": figure, "traces": traces}


# Beyond-accuracy metrics in the order the trade-off chart offers them: novelty
# and coverage first, as the usual counterweights of accuracy.
_TRADE_OFF_FIRST = ("novelty", "coverage")


def _trade_off(data: ReportData, colors: _Colors) -> dict[str, Any] | None:
    """An accuracy metric against a beyond-accuracy one (novelty, coverage,
    and the other list- and group-level metrics: a menu), one point per series
    with its intervals as error bars; only when both kinds are evaluated. The
    accuracy label is the first per-user one at the beyond-accuracy label's
    cutoff, else the first per-user one."""
    metric_levels = _levels(data)
    means = data.means.assign(rw_series=_series_names(data.means, data.series))
    labels = _ordered(means["metric_label"])
    metric_of = dict(zip(means["metric_label"], means["metric"]))
    cutoff_of = dict(zip(means["metric_label"], means["k"]))
    accuracy = [label for label in labels if metric_of[label] in metric_levels["user"] and metric_of[label] != "idcg"]
    beyond = [label for label in labels if metric_of[label] in metric_levels["list"] + metric_levels["group"]]
    beyond.sort(key=lambda label: (_TRADE_OFF_FIRST.index(metric_of[label]) if metric_of[label] in _TRADE_OFF_FIRST
                                   else len(_TRADE_OFF_FIRST)))
    if not accuracy or not beyond:
        return None
    intervals = _has_intervals(means)
    traces, buttons = [], []
    for position, x_label in enumerate(beyond):
        y_label = next((label for label in accuracy if cutoff_of[label] == cutoff_of[x_label]), accuracy[0])
        points = means[means["metric_label"] == x_label][["rw_series", "value", *(["ci_low", "ci_high"] if intervals else [])]]
        points = points.merge(means[means["metric_label"] == y_label], on="rw_series", suffixes=("_x", "_y"))
        start = len(traces)
        for row in points.to_dict("records"):
            trace = {"type": "scatter", "mode": "markers+text", "x": [row["value_x"]], "y": [row["value_y"]],
                     "name": row["rw_series"], "text": [row["rw_series"]], "textposition": "top center",
                     "marker": {"color": colors[row["rw_series"]], "size": 11}, "visible": position == 0,
                     "legendgroup": row["rw_series"],
                     "hovertemplate": f"{row['rw_series']}<br>{x_label}: %{{x:.4f}}<br>{y_label}: %{{y:.4f}}<extra></extra>"}
            for axis in ("x", "y"):
                low, high = (row.get(f"ci_low_{axis}"), row.get(f"ci_high_{axis}")) if intervals else (None, None)
                if _number(low) is not None and _number(high) is not None:
                    trace[f"error_{axis}"] = {"type": "data", "symmetric": False, "array": [high - row[f"value_{axis}"]],
                                              "arrayminus": [row[f"value_{axis}"] - low], "color": colors[row["rw_series"]]}
            traces.append(trace)
        buttons.append({"label": f"{y_label} × {x_label}", "method": "update",
                        "args": [{"visible": None}, {"xaxis.title.text": x_label, "yaxis.title.text": y_label}],
                        "rw_span": (start, len(traces))})
    for button in buttons:
        start, end = button.pop("rw_span")
        button["args"][0]["visible"] = [start <= index < end for index in range(len(traces))]
    import plotly.graph_objects as go

    figure = go.Figure()
    first = buttons[0]["args"][1]
    figure.update_layout(height=460, xaxis_title=first["xaxis.title.text"], yaxis_title=first["yaxis.title.text"],
                         showlegend=False)
    if len(buttons) > 1:
        figure.update_layout(updatemenus=[{**_MENU, "buttons": buttons}], margin={"t": 70})
    return {"id": "tradeoff", "title": "Accuracy against beyond accuracy", "figure": figure, "traces": traces,
            "note": "One point per series; the bars are the means' confidence intervals where they have one "
                    "(coverage, Gini and personalization have one value per series, no interval)."}


def _exposure_shares(data: ReportData, go: Any, colors: _Colors) -> dict[str, Any] | None:
    """Each item group's share of the exposure against its share of the relevant
    pairs (rankwise.exposure_by_item_group), one point per (series, item group),
    a menu over the cutoffs; on the diagonal, attention is proportional to
    relevance (Singh & Joachims 2018)."""
    import pandas as pd

    table = data.item_groups
    if table is None or table.empty:
        return None
    table = table.assign(rw_series=_series_names(table, data.series),
                         rw_k=["whole list" if pd.isna(k) else f"@{int(k)}" for k in table["k"]])
    cutoffs = _ordered(table["rw_k"])
    figure = go.Figure()
    traces, counts = [], []
    for position, cutoff in enumerate(cutoffs):
        count = len(traces)
        for series, points in table[table["rw_k"] == cutoff].groupby("rw_series", sort=False):
            traces.append({
                "type": "scatter", "mode": "markers+text", "name": series, "legendgroup": series,
                "x": list(points["relevance_share"]), "y": list(points["exposure_share"]),
                "text": [str(group) for group in points["item_group"]], "textposition": "top center",
                "marker": {"color": colors[series], "size": 10}, "visible": position == 0,
                "hovertemplate": f"{series}<br>%{{text}}<br>relevance share %{{x:.4f}}<br>exposure share %{{y:.4f}}<extra></extra>"})
        counts.append(len(traces) - count)
    _menu(figure, cutoffs, counts)
    figure.add_shape(type="line", x0=0, y0=0, x1=1, y1=1, line={"dash": "dot", "color": "#999"})
    figure.update_layout(height=460, xaxis_title="share of the relevant pairs (R_g)",
                         yaxis_title="share of the exposure (E_g)", xaxis_range=[0, 1], yaxis_range=[0, 1])
    return {"id": "exposure", "title": "Exposure against relevance, per item group", "figure": figure,
            "traces": traces,
            "note": "One point per item group and series; above the dotted diagonal a group gets more attention "
                    "than its share of the relevant items, below it less."}


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
                    "fill": "toself", "fillcolor": colors[series], "opacity": _BAND_OPACITY, "mode": "lines", "line": {"width": 0},
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


def _breakable(text: Any) -> markupsafe.Markup:
    """A heading that may wrap after an underscore and before an @ (a narrow
    column breaks intra_list_diversity@10 there, not inside a word or a
    number)."""
    escaped = str(markupsafe.escape(str(text)))
    return markupsafe.Markup(escaped.replace("_", "_<wbr>").replace("@", "<wbr>@"))


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
    charts = [chart for chart in (_curves(data, colors), _trade_off(data, colors), _distributions(data, go, colors),
                                  _heatmap(data, go), _exposure_shares(data, go, colors), _over_partitions(data, go, colors))
              if chart is not None]
    for chart in charts:
        # The layouts are plotly objects (subplot axes, templates); the traces,
        # thousands at 100 series x 20 metrics, plain dicts: plotly's validation
        # of each would take most of the time.
        figure = chart.pop("figure").update_layout(template="plotly_white").to_plotly_json()
        figure["data"] = chart.pop("traces")
        chart["json"] = markupsafe.Markup(_script_json(plotly.io.json.to_json_plotly(figure)))
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    environment.filters["breakable"] = _breakable
    template = environment.from_string(
        importlib.resources.files(__package__).joinpath("template.html").read_text(encoding="utf-8"))
    return template.render(
        title=data.title, scope=data.scope, version=__version__, summary=_tables.summary(data), charts=charts,
        notes=_notes(data), levels=_levels(data), verdict=_tables.verdict(data), comparison=_tables.comparison(data),
        alpha=data.verdict.alpha, margin=data.verdict.margin, correction=data.verdict.correction,
        # Written as plotly's own to_html writes it.
        plotly_js=markupsafe.Markup(offline.get_plotlyjs()))
