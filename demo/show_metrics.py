"""Prints the demo's rankwise_metrics table: one row per metric and cutoff, one
column per model; then writes the HTML report of the same tables."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

import rankwise

DEMO = Path(__file__).resolve().parent
DATABASE = DEMO / "target" / "demo.duckdb"
REPORT = DEMO / "target" / "rankwise_report.html"


def main() -> None:
    with duckdb.connect(str(DATABASE), read_only=True) as con:
        models = [row[0] for row in con.sql("select distinct model from rankwise_metrics order by model").fetchall()]
        rows = con.sql(
            "select metric, k, model, value, n_users from rankwise_metrics"
        ).fetchall()
    # per user, then per list, then per model, each in the registry's order
    levels = {level: rankwise.metric_names(level) for level in ("user", "list", "group")}
    order = {name: position for position, name in enumerate(levels["user"] + levels["list"] + levels["group"])}
    shown = {level: [name for name in names if any(row[0] == name for row in rows)] for level, names in levels.items()}
    table: dict[tuple[str, int | None], dict[str, float]] = {}
    users: dict[str, int] = {}
    for metric, k, model, value, n_users in rows:
        table.setdefault((metric, k), {})[model] = value
        if metric in levels["user"]:
            users[model] = n_users
    header = ["metric"] + models
    lines = [[f"{metric}@{k}" if k is not None else metric] + [f"{values[m]:.4f}" for m in models]
             for (metric, k), values in sorted(table.items(), key=lambda e: (order.get(e[0][0], 99), e[0][1] or 0))]
    widths = [max(len(row[i]) for row in [header] + lines) for i in range(len(header))]
    print(f"rankwise metrics of the demo models (accuracy: means over the users with truth; "
          f"{', '.join(shown['list'])}: means over the lists; {', '.join(shown['group'])}: per model)\n")
    for row in [header, ["-" * w for w in widths]] + lines:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
    print("\nusers evaluated: " + ", ".join(f"{model} {users[model]}" for model in models))
    print(f"tables: rankwise_metrics, rankwise_user_metrics in {DATABASE.relative_to(Path.cwd()) if DATABASE.is_relative_to(Path.cwd()) else DATABASE}")



# The model in production, which the personalized one would replace, and how
# much worse on a metric's scale still counts as no worse.
BASELINE = "popularity"
MARGIN = 0.01


def write_report() -> Path:
    """The report of the tables dbt built, with the data-quality notes of the
    seeds and the comparison of the personalized model with the popularity
    one on every per-user metric (the verdict at the top of the report)."""
    with duckdb.connect(str(DATABASE), read_only=True) as con:
        means = con.table("rankwise_metrics").df()
        per_user = con.table("rankwise_user_metrics").df()
    # Relative paths: the notes name the file as given.
    seeds = Path(os.path.relpath(DEMO / "seeds"))
    recommendations, interactions = str(seeds / "recommendations.csv"), str(seeds / "interactions.csv")
    notes = rankwise.check(recommendations, interactions, k=20, group_by="model", relevance_col="relevance")
    paired = list(dict.fromkeys(means.loc[means["metric"].isin(rankwise.metric_names("user")), "metric_label"]))
    comparison = rankwise.compare(recommendations, interactions, paired, model_col="model", baseline=BASELINE,
                                  margin=MARGIN, relevance_col="relevance")
    return rankwise.report(result=means, per_user=per_user, notes=notes, comparison=comparison, margin=MARGIN,
                           path=REPORT, title="rankwise demo: personalized against popularity")


if __name__ == "__main__":
    main()
    report = write_report()
    print(f"report: {report.relative_to(Path.cwd()) if report.is_relative_to(Path.cwd()) else report}")
