"""The report's tables: the verdict, the gates, the summary, the comparison in
ranx's layout and the wins, ties and losses, each as a grid that the template
writes: series or models down the rows, metric labels across. A grid is split
into parts of a few columns each, every part repeating the row headings, so
that each part fits the page's width."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._compare import comparison_table
from .._plan import metric_names
from .._render import renderer

if TYPE_CHECKING:
    from . import ReportData

# The columns of one part of a grid, besides the row headings: as many as fit
# the page (1200 px wide) at the width of the widest cell of each kind.
COLUMNS_PER_PART = {"summary": 6, "verdict": 5, "gates": 6, "ranx": 8, "records": 6}


@dataclass
class Grid:
    """A table: the heading of the row headings (`corner`), what the rows are
    (`rows_are`, written on the table for a reader's tools), the column
    headings and the rows (heading, cells), and from them the parts of at most
    COLUMNS_PER_PART[name] columns."""

    name: str
    corner: str
    rows_are: str
    columns: list[str]
    rows: list[tuple[str, list[dict[str, Any] | None]]]
    # a line under each row heading (the series' users)
    notes: dict[str, str] = field(default_factory=dict)
    parts: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = COLUMNS_PER_PART[self.name]
        starts = range(0, max(len(self.columns), 1), size)
        # Past the first part, the last is padded to the others' columns, so
        # that the columns of every part line up.
        pad = (lambda count: size - count) if len(self.columns) > size else (lambda count: 0)
        self.parts = []
        for start in starts:
            columns = self.columns[start:start + size]
            self.parts.append({
                "columns": columns, "padding": pad(len(columns)),
                "rows": [{"head": head, "note": self.notes.get(head), "cells": cells[start:start + size]}
                         for head, cells in self.rows]})


def _number(value: Any) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _is_true(value: Any) -> bool:
    """A `significant` cell that holds true (not false, not null)."""
    return value is not None and not (isinstance(value, float) and math.isnan(value)) and bool(value)


def series_names(table: Any, series: list[str]) -> list[str]:
    """One label per row: the values of the group columns, or 'all' without any."""
    if not series:
        return ["all"] * len(table)
    names = table[series[0]].astype(str)
    for column in series[1:]:
        names = names + " · " + table[column].astype(str)
    return names.tolist()


def ordered(values: Any) -> list[Any]:
    """Distinct values in order of first appearance (the order evaluate() sorts)."""
    import pandas as pd

    return pd.unique(pd.Series(values, dtype=object)).tolist()


def levels(data: ReportData) -> dict[str, list[str]]:
    """The metrics of the report by level ('user', 'list', 'group'), as the
    metric registry has them, in the table's order."""
    names = ordered(data.means["metric"])
    return {level: [name for name in names if name in metric_names(level)] for level in ("user", "list", "group")}


def has_intervals(table: Any) -> bool:
    return {"ci_low", "ci_high"} <= set(table.columns)


def better_sides(names: list[str]) -> dict[str, str | None]:
    """Which way each metric is better, as the metric registry says (macro
    metric_better): 'higher', 'lower', or None for a metric with no better
    side (the list-level ones, idcg) and for a name the registry does not
    know (a result read back from a project that adds metrics)."""
    known = set(metric_names())
    return {name: renderer().call("_python_registry", "metric_better", {"name": name}) if name in known else None
            for name in names}


def _population(rows: list[tuple[str, str, Any]]) -> str | None:
    """What a series' means are over, from its (metric level, label, n_users)
    rows: the users with truth for the per-user metrics, the lists for the
    per-list and per-series ones. A count shared by every label of its kind
    is written once; counts that differ name their labels."""
    counts: dict[str, dict[int, list[str]]] = {}
    for level, label, n in rows:
        if _number(n) is not None:
            counts.setdefault("users" if level == "user" else "lists", {}).setdefault(int(n), []).append(label)
    parts = []
    for unit, by_count in counts.items():
        for n, labels in by_count.items():
            parts.append(f"{n} {unit if n != 1 else unit.removesuffix('s')}"
                         + (f" ({', '.join(labels)})" if len(by_count) > 1 else ""))
    return " · ".join(parts) or None


def summary(data: ReportData) -> dict[str, Any]:
    """Every metric label per series, the best of each label in bold (the
    highest or the lowest, as the registry says which way the metric is
    better; none for a metric with no better side); under each series, what
    its means are over: so many users, so many lists."""
    metric_levels = levels(data)
    level_of = {name: level for level, names in metric_levels.items() for name in names}
    means = data.means.assign(rw_series=series_names(data.means, data.series))
    labels = ordered(means["metric_label"])
    metric_of = dict(zip(means["metric_label"], means["metric"]))
    sides = better_sides(ordered(means["metric"]))
    intervals = has_intervals(means)
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    counted: dict[str, list[tuple[str, str, Any]]] = {}
    for row in means.itertuples(index=False):
        cell = {"kind": "mean", "value": _number(row.value), "best": False}
        if intervals:
            cell["low"], cell["high"] = _number(row.ci_low), _number(row.ci_high)
        cells[(row.rw_series, row.metric_label)] = cell
        if "n_users" in means.columns and row.metric in level_of:
            counted.setdefault(row.rw_series, []).append((level_of[row.metric], row.metric_label, row.n_users))
    names = ordered(means["rw_series"])
    marked = False
    for label in labels:
        side = sides[metric_of[label]]
        values = [cells[(name, label)]["value"] for name in names if (name, label) in cells]
        values = [value for value in values if value is not None]
        if side is None or not values or len(names) < 2:
            continue
        best = max(values) if side == "higher" else min(values)
        for name in names:
            if (name, label) in cells and cells[(name, label)]["value"] == best:
                cells[(name, label)]["best"] = marked = True
    rows = [(name, [cells.get((name, label)) for label in labels]) for name in names]
    notes = {name: note for name in names if (note := _population(counted.get(name, []))) is not None}
    grid = Grid("summary", " · ".join(data.series) or "series", "series", labels, rows, notes=notes)
    shown = ordered(means["metric"])
    return {"grid": grid, "intervals": intervals, "marked": marked,
            "lower_is_better": [name for name in shown if sides[name] == "lower"],
            "no_better_side": [name for name in shown if sides[name] is None]}


def _comparison_groups(comparison: Any) -> list[str]:
    """The group columns of a comparison: those before `metric`."""
    columns = list(comparison.columns)
    return columns[:columns.index("metric")]


def _word(row: Any) -> str:
    """better or worse: significant after the correction, in the direction of
    the difference; no different otherwise; untested without a p-value and a
    difference (fewer than 2 users)."""
    if _is_true(row.significant):
        return "better" if row.diff > 0 else "worse"
    if _number(row.p_adjusted) is None and _number(row.diff) not in (0.0, None):
        return "untested"
    return "no different"


def verdict(data: ReportData) -> dict[str, Any] | None:
    """Each model against the baseline, metric by metric, and what each
    decision rests on; None without a comparison against one baseline, nor
    gates."""
    gates = _gates(data)
    comparison = data.comparison
    baselines = ordered(comparison["baseline"]) if comparison is not None else []
    if len(baselines) != 1:
        return None if gates is None else {"baseline": None, "gates": gates, "decisions": [], "grid": None}
    groups = _comparison_groups(comparison)
    non_inferiority = "p_non_inferiority_adjusted" in comparison.columns
    labels = ordered(comparison["metric_label"])
    heads = series_names(comparison, [*groups, "model"])
    # not shown to be no worse by more than the margin: rankwise.failing_comparisons's rows
    not_shown = (set(zip(series_names(data.failing_comparisons, [*groups, "model"]), data.failing_comparisons["metric_label"]))
                 if non_inferiority else set())
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    for head, row in zip(heads, comparison.itertuples(index=False)):
        cell = {"kind": "verdict", "word": _word(row), "diff": _number(row.diff),
                "relative": _number(getattr(row, "relative_diff", None)), "p": _number(row.p_adjusted),
                "detectable": _number(getattr(row, "minimum_detectable_difference", None))}
        if non_inferiority:
            cell["no_worse"] = (head, row.metric_label) not in not_shown
            cell["p_no_worse"] = _number(row.p_non_inferiority_adjusted)
        cells[(head, row.metric_label)] = cell
    models = ordered(heads)
    # each model's group values and model, for rankwise.verdict's columns
    keys = dict(zip(heads, comparison[[*groups, "model"]].itertuples(index=False, name=None)))
    grid = Grid("verdict", " · ".join([*groups, "model"]), "models", labels,
                [(model, [cells.get((model, label)) for label in labels]) for model in models])
    decisions = [_decision(model, [cells[(model, label)] for label in labels if (model, label) in cells],
                           [label for label in labels if (model, label) in cells], non_inferiority,
                           _failed_gates_of(data, comparison, groups, model), data.verdict.margin)
                 for model in models]
    for decision in decisions:
        decision["key"] = keys[decision["model"]]
    return {"baseline": baselines[0], "grid": grid, "decisions": decisions, "gates": gates,
            "non_inferiority": non_inferiority, "groups": groups}


# How each status reads, on the page and in the terminal.
STATUS_WORDS = {"ship": "ship it", "hold": "hold", "open": "nothing worse"}


def _decision(model: str, cells: list[dict[str, Any]], labels: list[str], non_inferiority: bool,
              failed_gates: list[str], margin: float | None) -> dict[str, Any]:
    """The line of one model: ship (no metric worse than the baseline by more
    than the margin, every gate passed), hold (a metric not shown to be no
    worse, a metric worse, or a gate failed), or open (no margin: nothing
    significantly worse, but "no different" does not show "no worse"); `text`
    says what the status rests on."""
    counts = {word: sum(cell["word"] == word for cell in cells) for word in ("better", "no different", "worse")}
    worse = [label for label, cell in zip(labels, cells) if cell["word"] == "worse"]
    if non_inferiority:
        not_shown = [label for label, cell in zip(labels, cells) if not cell["no_worse"]]
        status = "hold" if not_shown or failed_gates else "ship"
    else:
        not_shown = []
        status = "hold" if worse or failed_gates else "open"
    by_margin = f"by more than {margin:g}" if margin is not None else "by more than the margin"
    text = f"better on {counts['better']}, no different on {counts['no different']}, worse on {counts['worse']}"
    if worse:
        text += f"; worse: {', '.join(worse)}"
    if not_shown:
        text += f"; not shown to be no worse {by_margin}: {', '.join(not_shown)}"
    elif non_inferiority:
        text += f"; shown to be no worse {by_margin} on {'each' if len(cells) > 1 else 'it'}"
    if failed_gates:
        text += f"; fails {', '.join(failed_gates)}"
    if status == "open":
        text += ' (without a margin, "no different" does not show "no worse")'
    return {"model": model, "status": status, "status_words": STATUS_WORDS[status], "counts": counts,
            "worse": worse, "not_shown": not_shown, "failed_gates": failed_gates, "text": text}


def _failed_gates_of(data: ReportData, comparison: Any, groups: list[str], model: str) -> list[str]:
    """The gates a model's series fails: the series whose group values are the
    model's row's (its shared groups and the model column)."""
    if data.failing_metrics is None or data.failing_metrics.empty:
        return []
    model_columns = [column for column in data.series if column not in groups]
    if len(model_columns) != 1:
        return []
    failing = data.failing_metrics.rename(columns={model_columns[0]: "model"})
    heads = series_names(failing, [*groups, "model"])
    return [_gate_text(row.gate, row.metric_label, row.bound, data.verdict.gates.on)
            for head, row in zip(heads, failing.itertuples(index=False)) if head == model]


def _gate_text(gate: str, label: str, bound: float, on: str) -> str:
    sign = "≥" if gate == "at_least" else "≤"
    return f"{label} {sign} {bound:g}" + ("" if on == "value" else f" (on {on})")


def _gates(data: ReportData) -> Grid | None:
    """Every series against every gate: the value judged and whether it
    passes, by rankwise.failing_metrics's rows."""
    gates = data.verdict.gates
    if not gates:
        return None
    means = data.means.assign(rw_series=series_names(data.means, data.series))
    failing = data.failing_metrics
    failed = set(zip(series_names(failing, data.series), failing["gate"], failing["metric_label"]))
    bounds = [("at_least", label, bound) for label, bound in gates.at_least.items()]
    bounds += [("at_most", label, bound) for label, bound in gates.at_most.items()]
    columns = [_gate_text(gate, label, bound, gates.on) for gate, label, bound in bounds]
    rows = []
    for name in ordered(means["rw_series"]):
        of_series = means[means["rw_series"] == name].set_index("metric_label")
        cells = []
        for gate, label, _ in bounds:
            value = _number(of_series[gates.on].get(label)) if label in of_series.index else None
            cells.append({"kind": "gate", "value": value, "passed": (name, gate, label) not in failed})
        rows.append((name, cells))
    return Grid("gates", " · ".join(data.series) or "series", "series", columns, rows)


def comparison(data: ReportData) -> dict[str, Any] | None:
    """The comparison in ranx's layout (rankwise.comparison_table: each mean
    with the letters of the models it beats significantly), and each pair's
    wins, ties and losses per metric label."""
    if data.comparison is None or data.comparison.empty:
        return None
    table = comparison_table(data.comparison, "dataframe")
    groups = _comparison_groups(data.comparison)
    labels = [column for column in table.columns if column not in (*groups, "model")]
    rows = []
    for record in table.to_dict("records"):
        head = " · ".join([*(str(record[column]) for column in groups), str(record["model"])])
        cells = []
        for label in labels:
            mean, _, beaten = str(record[label]).rpartition("^") if "^" in str(record[label]) else (record[label], "", "")
            cells.append({"kind": "ranx", "mean": mean, "beaten": beaten} if mean != "" else None)
        rows.append((head, cells))
    ranx = Grid("ranx", " · ".join([*groups, "model"]), "models", labels, rows)
    records: dict[tuple[str, str], dict[str, Any]] = {}
    heads = series_names(data.comparison, groups)
    pairs = []
    for head, row in zip(heads if groups else [""] * len(data.comparison), data.comparison.itertuples(index=False)):
        pair = (f"{head} · " if groups else "") + f"{row.model} vs {row.baseline}"
        pairs.append(pair)
        records[(pair, row.metric_label)] = {"kind": "record", "wins": int(row.wins), "ties": int(row.ties),
                                             "losses": int(row.losses)}
    wins = Grid("records", "pair", "pairs", labels,
                [(pair, [records.get((pair, label)) for label in labels]) for pair in ordered(pairs)])
    return {"ranx": ranx, "records": wins}
