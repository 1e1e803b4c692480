"""rankwise: ranking and recommendation metrics as SQL.

The metric SQL lives in the dbt macros of the package; this module renders them
and runs them in DuckDB on DataFrames, Arrow tables, DuckDB relations, tables or
Parquet/CSV files, in Spark on Spark DataFrames, or in ClickHouse on the tables
of a chDB session.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    ColumnTypeError,
    DuplicateRowsError,
    EmptyInputError,
    InputError,
    InvalidArgumentError,
    InvalidValueError,
    MalformedLineError,
    MissingColumnError,
    NoOverlapError,
    RankwiseError,
    RankwiseWarning,
)

if TYPE_CHECKING:
    from ._api import check, convention_options, evaluate, exposure_by_item_group, metric_names, sql
    from ._compare import compare, comparison_table
    from ._explain import compare_sql, explain
    from ._gates import failing_comparisons, failing_metrics
    from ._options import EvaluateOptions
    from ._report import report, verdict
    from .trec import read_qrels, read_run

# Each name's module, imported on first use: `import rankwise` costs no
# engine, no template and no DataFrame library until a function needs one.
_LAZY = {
    **dict.fromkeys(["check", "convention_options", "evaluate", "exposure_by_item_group", "metric_names", "sql"], "._api"),
    **dict.fromkeys(["compare", "comparison_table"], "._compare"),
    **dict.fromkeys(["compare_sql", "explain"], "._explain"),
    **dict.fromkeys(["failing_comparisons", "failing_metrics"], "._gates"),
    "EvaluateOptions": "._options",
    **dict.fromkeys(["report", "verdict"], "._report"),
    **dict.fromkeys(["read_qrels", "read_run"], ".trec"),
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from .metadata import version

        return version()
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rankwise' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ColumnTypeError",
    "DuplicateRowsError",
    "EmptyInputError",
    "EvaluateOptions",
    "InputError",
    "InvalidArgumentError",
    "InvalidValueError",
    "MalformedLineError",
    "MissingColumnError",
    "NoOverlapError",
    "RankwiseError",
    "RankwiseWarning",
    "__version__",
    "check",
    "compare",
    "compare_sql",
    "comparison_table",
    "convention_options",
    "evaluate",
    "explain",
    "exposure_by_item_group",
    "failing_comparisons",
    "failing_metrics",
    "metric_names",
    "read_qrels",
    "read_run",
    "report",
    "sql",
    "verdict",
]
