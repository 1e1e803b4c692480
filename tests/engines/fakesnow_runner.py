"""Runs Snowflake SQL in fakesnow (Snowflake's SQL executed locally on DuckDB),
in the virtual environment that holds fakesnow: fakesnow pins a sqlglot older
than rankwise's (tests/engines/test_snowflake_fakesnow.py says why it runs
apart). It imports neither rankwise nor pytest.

    python fakesnow_runner.py < request.json > results.json

The request: {"tables": {name: csv path}, "queries": {id: sql}}. Each table is
created with unquoted (so upper-case) column names, as a dbt seed would be on
Snowflake, its types inferred from the CSV (integer, float or varchar). The
results: {id: {"columns": [lower-case names], "rows": [[...]]}} or
{id: {"error": message}}.
"""

from __future__ import annotations

import csv
import json
import sys


def _type(values: list[str]) -> str:
    present = [value for value in values if value != ""]
    for name, convert in (("integer", int), ("double", float)):
        try:
            for value in present:
                convert(value)
        except ValueError:
            continue
        return name
    return "varchar"


def _convert(value: str, kind: str) -> object:
    if value == "":
        return None
    return int(value) if kind == "integer" else float(value) if kind == "double" else value


def _load(cursor: object, name: str, path: str) -> None:
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    kinds = [_type([row[index] for row in body]) for index in range(len(header))]
    columns = ", ".join(f"{column} {kind}" for column, kind in zip(header, kinds, strict=True))
    cursor.execute(f"create table {name} ({columns})")
    placeholders = ", ".join(["%s"] * len(header))
    cursor.executemany(f"insert into {name} values ({placeholders})",
                       [[_convert(value, kind) for value, kind in zip(row, kinds, strict=True)] for row in body])


def main() -> None:
    import warnings

    import fakesnow
    import snowflake.connector

    warnings.simplefilter("ignore")
    request = json.load(sys.stdin)
    results: dict[str, dict[str, object]] = {}
    with fakesnow.patch():
        connection = snowflake.connector.connect(database="rankwise", schema="analytics")
        cursor = connection.cursor()
        for name, path in request["tables"].items():
            _load(cursor, name, path)
        for query_id, sql in request["queries"].items():
            try:
                cursor.execute(sql)
                rows = cursor.fetchall()
                columns = [description[0].lower() for description in cursor.description]
                results[query_id] = {"columns": columns, "rows": [list(row) for row in rows]}
            except Exception as error:  # reported per query, with fakesnow's message
                results[query_id] = {"error": f"{type(error).__name__}: {error}"}
    json.dump(results, sys.stdout, default=str)


if __name__ == "__main__":
    main()
