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
# the macros take, dialect that SQL is written in). Each engine's overrides now
# write its own SQL (tests/slow/test_warehouse_catalogue.py holds it to the
# engine's documented reference), so none is transpiled; an entry whose two
# dialects differ would have sqlglot transpile the rendered SQL into the target.
DIALECT_ADAPTERS: dict[str, tuple[str, str]] = {
    "duckdb": ("duckdb", "duckdb"),
    "postgres": ("postgres", "postgres"),
    "spark": ("spark", "spark"),
    "databricks": ("databricks", "databricks"),
    "redshift": ("redshift", "redshift"),
    "snowflake": ("snowflake", "snowflake"),
    "bigquery": ("bigquery", "bigquery"),
    "trino": ("trino", "trino"),
}
