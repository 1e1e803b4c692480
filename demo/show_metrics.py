"""Prints the demo's rankwise_metrics table (one row per metric and cutoff, one
column per model, and what each row's values are over), writes the HTML report
of the same tables, and prints its verdict and where it is."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pandas as pd

import rankwise

DEMO = Path(__file__).resolve().parent
DATABASE = DEMO / "target" / "demo.duckdb"
REPORT = DEMO / "target" / "rankwise_report.html"

# The model in production, which the personalized one would replace, and how
# much worse on a metric's scale still counts as no worse.
BASELINE = "popularity"
MARGIN = 0.01


def main() -> None:
    print_metrics()
    comparison = write_report()
    print(f"\nverdict against {BASELINE}, on every per-user metric (rankwise.compare, margin {MARGIN:g}):")
    for row in rankwise.verdict(comparison, margin=MARGIN).itertuples(index=False):
        print(f"  {row.decision}: {row.model}: {row.summary}.")
    print(f"\nreport: {REPORT}")


def print_metrics() -> None:
    with duckdb.connect(str(DATABASE), read_only=True) as con:
        models = [row[0] for row in con.sql("select distinct model from rankwise_metrics order by model").fetchall()]
        rows = con.sql("select metric, k, model, value, n_users from rankwise_metrics").fetchall()
    # per user, then per list, then per model, each in the registry's order
    levels = {level: rankwise.metric_names(level) for level in ("user", "list", "group")}
    order = {name: position for position, name in enumerate(levels["user"] + levels["list"] + levels["group"])}
    shown = {level: [name for name in names if any(row[0] == name for row in rows)] for level, names in levels.items()}
    table: dict[tuple[str, int | None], dict[str, float]] = {}
    counts: dict[tuple[str, int | None], dict[str, int]] = {}
    for metric, k, model, value, n_users in rows:
        table.setdefault((metric, k), {})[model] = value
        counts.setdefault((metric, k), {})[model] = n_users
    header = ["metric", *models, "over"]
    lines = [[f"{metric}@{k}" if k is not None else metric, *(f"{values[m]:.4f}" for m in models),
              _over(counts[(metric, k)], "users" if metric in levels["user"] else "lists")]
             for (metric, k), values in sorted(table.items(), key=lambda e: (order.get(e[0][0], 99), e[0][1] or 0))]
    widths = [max(len(row[i]) for row in [header] + lines) for i in range(len(header))]
    print("rankwise metrics of the demo models\n"
          "  accuracy: means over the users with ground truth\n"
          f"  {', '.join(shown['list'])}: means over the lists\n"
          f"  {', '.join(shown['group'])}: one value per model, from its lists\n")
    for row in [header, ["-" * w for w in widths]] + lines:
        print("  ".join(cell.rjust(w) if 0 < i < len(row) - 1 else cell.ljust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    print(f"\ntables: rankwise_metrics, rankwise_user_metrics, recommendation_metrics in {DATABASE}")


def _over(n_by_model: dict[str, int], unit: str) -> str:
    """What a row's values are over: one count if every model's is the same."""
    if len(set(n_by_model.values())) == 1:
        return f"{next(iter(n_by_model.values()))} {unit}"
    return ", ".join(f"{model} {n}" for model, n in sorted(n_by_model.items())) + f" {unit}"


def write_report() -> pd.DataFrame:
    """The report of the tables dbt built, with the data-quality notes of the
    seeds and the comparison of the personalized model with the popularity
    one on every per-user metric (the verdict at the top of the report);
    returns the comparison."""
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
    rankwise.report(result=means, per_user=per_user, notes=notes, comparison=comparison, margin=MARGIN,
                    path=REPORT, title="rankwise demo: personalized against popularity")
    return comparison


if __name__ == "__main__":
    main()
