"""The ``rankwise`` command line: evaluate files, or print the SQL."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import duckdb

from . import __version__
from ._api import DIALECT_ADAPTERS, _apply_settings, check, evaluate, sql
from .errors import RankwiseError

_OUTPUT_FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json"}


def _common_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The arguments `evaluate` and `sql` share, with the macro's names and defaults."""
    options = [
        click.argument("recommendations"),
        click.argument("interactions"),
        click.option("-m", "--metric", "metrics", multiple=True, required=True,
                     help="A metric, optionally @k (repeatable): -m ndcg@10 -m map."),
        click.option("-k", "cutoffs", multiple=True, type=int,
                     help="A cutoff for the metrics given without @k (repeatable). Default: the whole list."),
        click.option("--group-by", multiple=True, help="A grouping column of the recommendations (repeatable)."),
        click.option("--per-user", is_flag=True, help="One row per user instead of means."),
        click.option("--user-col", default="user_id", show_default=True),
        click.option("--item-col", default="item_id", show_default=True),
        click.option("--rank-col", default="rank", show_default=True),
        click.option("--score-col", default=None, help="Derive ranks from this score column."),
        click.option("--relevance-col", default=None, help="Graded relevance column of the interactions."),
        click.option("--convention", type=click.Choice(["trec_eval", "ranx", "recommenders", "rectools", "evidently"]),
                     default="trec_eval", show_default=True,
                     help="The library whose numbers to reproduce; the options below override it."),
        click.option("--ap-denominator", type=click.Choice(["relevant", "min_relevant_k", "hits", "k"]), default=None),
        click.option("--precision-denominator", type=click.Choice(["k", "list_length"]), default=None),
        click.option("--gain", type=click.Choice(["linear", "exponential", "binary"]), default=None),
        click.option("--gain-items", type=click.Choice(["positive", "relevant"]), default=None),
        click.option("--idcg", type=click.Choice(["truth", "k_positions"]), default=None),
        click.option("--relevance-threshold", type=float, default=None),
        click.option("--users", type=click.Choice(["both", "interactions", "relevant"]), default=None),
        click.option("--ties", type=click.Choice(["item_desc", "item_asc", "shared"]), default=None),
        click.option("--log-base", type=float, default=None, help="Entropy's log base. Default: the convention's (e)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _arguments(options: dict[str, Any]) -> dict[str, Any]:
    """Click's values as keyword arguments of rankwise.evaluate / rankwise.sql."""
    cutoffs = options.pop("cutoffs")
    threshold = options.pop("relevance_threshold")
    return {
        **options,
        "metrics": list(options["metrics"]),
        "k": list(cutoffs) or None,
        "group_by": list(options["group_by"]),
        "relevance_threshold": int(threshold) if threshold is not None and threshold.is_integer() else threshold,
    }


def _one_line_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input exits non-zero with one line, not a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RankwiseError as error:
            raise click.ClickException(str(error)) from error
        except duckdb.Error as error:
            first_line = str(error).strip().splitlines()[0]
            raise click.ClickException(f"DuckDB: {first_line}") from error

    return run


@click.group()
@click.version_option(__version__, prog_name="rankwise")
def main() -> None:
    """Ranking and recommendation metrics, computed by rankwise's SQL in DuckDB."""


@main.command("evaluate")
@_common_options
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result to a .parquet, .csv or .json file instead of printing it.")
@click.option("--memory-limit", default=None, help="DuckDB's memory limit, e.g. 8GB; past it, work spills to disk.")
@click.option("--temp-directory", default=None, help="Where DuckDB spills (default: DuckDB's own choice).")
@click.option("--no-validate", "validate", flag_value=False, default=True,
              help="Skip the input checks (duplicates, nulls...): for data known to be clean.")
@_one_line_errors
def evaluate_command(output: Path | None, **options: Any) -> None:
    """Evaluate RECOMMENDATIONS against INTERACTIONS (Parquet or CSV files)."""
    if output is not None and output.suffix.lower() not in _OUTPUT_FORMATS:
        raise click.BadParameter(f"'{output}': the file name must end in .parquet, .csv or .json.", param_hint="--output")
    memory = {name: options.pop(name) for name in ("memory_limit", "temp_directory")}
    with duckdb.connect() as con:
        # DuckDB draws its own progress bar on long queries when stdout is a terminal.
        con.execute("set enable_progress_bar = true")
        _apply_settings(con, **memory)
        # Computed once into a table: writing the file and counting its rows
        # would each run the whole query again on a lazy relation.
        evaluate(con=con, output="relation", **_arguments(options)).create("rankwise_result")
        relation = con.table("rankwise_result")
        if output is None:
            click.echo(relation.df().to_string(index=False))
        else:
            _write_atomically(relation, output)
            click.echo(f"wrote {relation.shape[0]} rows to {output}", err=True)


def _write_atomically(relation: duckdb.DuckDBPyRelation, path: Path) -> None:
    """Writes next to the target, then renames: a failed run leaves the old file."""
    path = path.resolve()
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(descriptor)
    try:
        kind = _OUTPUT_FORMATS[path.suffix.lower()]
        if kind == "parquet":
            relation.write_parquet(temporary)
        elif kind == "csv":
            relation.write_csv(temporary)
        else:
            # json writes floats with repr(): every digit survives the round trip.
            rows = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
            Path(temporary).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@main.command("check")
@click.argument("recommendations")
@click.argument("interactions")
@click.option("-k", "cutoffs", multiple=True, type=int, help="A cutoff; lists shorter than the largest are reported.")
@click.option("--group-by", multiple=True, help="A grouping column of the recommendations (repeatable).")
@click.option("--user-col", default="user_id", show_default=True)
@click.option("--item-col", default="item_id", show_default=True)
@click.option("--rank-col", default="rank", show_default=True)
@click.option("--score-col", default=None)
@click.option("--relevance-col", default=None)
@click.option("--relevance-threshold", type=float, default=1, show_default=True)
@_one_line_errors
def check_command(cutoffs: tuple[int, ...], group_by: tuple[str, ...], **options: Any) -> None:
    """Report what is wrong with RECOMMENDATIONS and INTERACTIONS before evaluating.

    Exits 1 when a problem would make `rankwise evaluate` refuse the input."""
    report = check(k=list(cutoffs) or None, group_by=list(group_by), **options)
    if report.empty:
        click.echo("no problems found")
        return
    for row in report.itertuples():
        click.echo(f"{row.severity}: {row.message}")
    if (report["severity"] == "error").any():
        raise SystemExit(1)


@main.command("sql")
@_common_options
@click.option("--dialect", type=click.Choice(list(DIALECT_ADAPTERS)), default="duckdb", show_default=True)
@_one_line_errors
def sql_command(dialect: str, **options: Any) -> None:
    """Print the SQL that evaluates table RECOMMENDATIONS against table INTERACTIONS."""
    click.echo(sql(dialect=dialect, **_arguments(options)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
