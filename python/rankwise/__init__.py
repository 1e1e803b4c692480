"""rankwise: ranking and recommendation metrics as SQL.

The metric SQL lives in the dbt macros of the package; this module renders them
and runs them in DuckDB on DataFrames, Arrow tables, DuckDB relations, tables or
Parquet/CSV files, in Spark on Spark DataFrames, or in ClickHouse on the tables
of a chDB session.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ._api import check, convention_options, evaluate, exposure_by_item_group, metric_names, sql
from ._compare import compare, comparison_table
from ._explain import compare_sql, explain
from ._gates import failing_comparisons, failing_metrics
from ._options import EvaluateOptions
from ._report import report, verdict
from .trec import read_qrels, read_run
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

# The version is pyproject.toml's, as pip installed it: one number to bump
# (dbt_project.yml repeats it for dbt, and tests/unit/test_version.py holds the
# two equal).
try:
    __version__ = version("rankwise")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

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
