"""The engine layer: where the rendered macros run.

An engine module holds everything that depends on the engine the SQL runs in:
opening or borrowing a connection and its settings, turning the caller's inputs
into relations the SQL can read, running the SQL and converting the result. The
API (rankwise._api, rankwise._compare) renders the macros for the engine's dbt
adapter type and hands the SQL to it; the input checks (rankwise._checks) run
their queries through the same connection. One module per engine:

- :mod:`rankwise.engines.duckdb`: DuckDB, embedded (the default).

:data:`DIALECT_ADAPTERS` lists the dialects :func:`rankwise.sql` renders for.
"""

from __future__ import annotations

# Dialects rankwise.sql renders for: (dbt adapter type whose dispatch overrides
# the macros take, dialect that SQL is written in). Where the two dialects differ,
# sqlglot transpiles the rendered SQL into the target dialect.
DIALECT_ADAPTERS: dict[str, tuple[str, str]] = {
    "duckdb": ("duckdb", "duckdb"),
    "postgres": ("postgres", "postgres"),
    "spark": ("spark", "spark"),
    "databricks": ("databricks", "databricks"),
    "redshift": ("redshift", "postgres"),
    "snowflake": ("snowflake", "duckdb"),
    "bigquery": ("bigquery", "bigquery"),
    "trino": ("trino", "duckdb"),
}
