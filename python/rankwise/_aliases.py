"""Other tools' names of rankwise's metrics (trec_eval's P_10, ir_measures'
nDCG@10, MAP), read from the one table of the macros
(macros/aliases/metric_aliases.sql) that dbt's metric parser reads too."""

from __future__ import annotations

from typing import Any

from ._render import renderer


def canonical_metric(metric: Any) -> Any:
    """The rankwise metric string of `metric` (an alias resolved, parameters
    and @k kept); `metric` itself when it is no alias, for the planner to
    accept or refuse."""
    return renderer().call("_python_registry", "metric_alias", {"metric": metric}) or metric


def aliases_table() -> str:
    """The alias table as markdown: each alias, as its source writes it, and
    the metric string it becomes (docs/search.md holds it)."""
    rows = ["| alias | source | written as | rankwise reads |", "|---|---|---|---|"]
    for entry in renderer().call("_python_registry", "metric_aliases", {}):
        canonical = renderer().call("_python_registry", "metric_alias", {"metric": entry["example"]})
        rows.append(f"| `{entry['alias']}` | {entry['source']} | `{entry['example']}` | `{canonical}` |")
    return "\n".join(rows) + "\n"
