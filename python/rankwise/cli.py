"""The ``rankwise`` command line: evaluate files, or print the SQL."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
import tempfile
import typing
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import click
import duckdb

from .metadata import version
from ._aliases import canonical_metric
from ._api import DIALECT_ADAPTERS, check, evaluate, exposure_by_item_group, sql
from ._cli_report import report_command
# compare, explain and the gates are imported by the commands that use them:
# a command pays for no other's modules.
from .engines.duckdb import apply_settings
from ._options import DEFAULTS, DOCS, choices, option_types
from ._progress import stages
from ._render import renderer
from .errors import InputError, RankwiseError, RankwiseWarning
from ._text_table import frame_text, text_table
from .trec import read_qrels, read_run, trec_file_kind

_OUTPUT_FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json"}


class _Value(click.ParamType):
    """A number, read as an int when it is whole (so that 1 reaches the SQL as 1,
    as from Python), or one of the words the option also takes (log_base='e')."""

    name = "number"

    def __init__(self, words: tuple[str, ...] = ()) -> None:
        self.words = words

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "|".join(("NUMBER", *self.words))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str) or value in self.words:
            return value
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                pass
        self.fail(f"{value!r} is not a number{' or one of ' + ', '.join(self.words) if self.words else ''}.", param, ctx)


class _UserSet(click.ParamType):
    """`SET` for every metric, or `METRIC=SET` for one (as the Python mapping)."""

    name = "users"

    def __init__(self, sets: tuple[str, ...]) -> None:
        self.sets = sets

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return f"[METRIC=]{{{'|'.join(self.sets)}}}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        metric, _, user_set = value.rpartition("=")
        if user_set not in self.sets:
            self.fail(f"{user_set!r} is not one of {', '.join(self.sets)}.", param, ctx)
        return (metric or "default", user_set)


def _option(name: str, annotation: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of one option of rankwise.EvaluateOptions: --name-with-dashes,
    its choices from the Literal type, its help from the one doc."""
    flag = "--" + name.replace("_", "-")
    words = choices(annotation)
    arms = typing.get_args(annotation) or (annotation,)
    default = DEFAULTS[name]
    kind: Any = str
    multiple = False
    if bool in arms:
        # a flag, and its --no- form; left out, the convention's value (or the default)
        return click.option(f"{flag}/--no-{flag[2:]}", name, default=default, help=DOCS[name])
    if any(typing.get_origin(arm) is Mapping for arm in arms):
        kind, multiple, default = _UserSet(words), True, ()
    elif any(typing.get_origin(arm) is list for arm in arms):
        multiple, default = True, ()
    elif str in arms:
        # a value of a column of the recommendations (reference): compared as
        # the engine compares a text literal with the column
        pass
    elif float in arms:
        kind = _Value(words)
    elif words:
        kind = click.Choice(words)
    return click.option(flag, name, type=kind, multiple=multiple, default=default,
                        show_default=default not in (None, ()), help=DOCS[name])


def _options_except(*excluded: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A flag for every option of rankwise.EvaluateOptions, in their order, but
    those a command declares itself (compare's and report's --model-col)."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for name, annotation in reversed(option_types().items()):
            if name not in excluded:
                command = _option(name, annotation)(command)
        return command

    return decorate


_options = _options_except()


_PARTITION_HELP = ("A column both inputs have (fold, week...), each of whose values is evaluated against its own "
                   "interactions (repeatable).")


def _readers(input_name: str) -> str:
    """The metrics that read an optional input, as the metric registry says."""
    return ", ".join(renderer().call("_python_registry", "readers_of", {"read": input_name}))


def _common_options_except(*excluded: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The arguments `evaluate`, `sql` and `report` share, less the options a
    command declares itself."""
    return lambda command: _common_options(command, excluded)


def _common_options(command: Callable[..., Any], excluded: tuple[str, ...] = ()) -> Callable[..., Any]:
    """The arguments `evaluate` and `sql` share."""
    options = [
        click.argument("recommendations"),
        click.argument("interactions"),
        click.option("-m", "--metric", "metrics", multiple=True, required=True,
                     help="A metric, optionally with parameters and @k (repeatable): -m ndcg@10 -m map -m 'rbp(p=0.95)@20'."),
        click.option("-k", "cutoffs", multiple=True, type=int,
                     help="A cutoff for the metrics given without @k (repeatable). Default: the whole list."),
        click.option("--group-by", multiple=True, help="A grouping column of the recommendations (repeatable)."),
        click.option("--partition-by", multiple=True, help=_PARTITION_HELP),
        click.option("--per-user", is_flag=True, help="One row per user instead of means."),
        click.option("--items", default=None,
                     help="The catalog (one row per item that could be recommended, with the features a distance "
                          f"reads), read by {_readers('items')}."),
        click.option("--train", default=None,
                     help=f"The interactions the model was trained on, read by {_readers('train')}."),
        _options_except(*excluded),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _arguments(options: dict[str, Any]) -> dict[str, Any]:
    """Click's values as keyword arguments of rankwise.evaluate, sql or check:
    the options not given are left out, so that the convention sets them."""
    arguments = {name: value for name, value in options.items()
                 if not (value is None or (isinstance(value, tuple) and not value))}
    arguments["k"] = list(arguments.pop("cutoffs", ())) or None
    arguments["group_by"] = list(options["group_by"])
    arguments["partition_by"] = list(options["partition_by"])
    if "metrics" in arguments:
        # trec_eval's and ir_measures' names (P@10, ndcg_cut_10, MAP) as rankwise's
        arguments["metrics"] = [canonical_metric(metric) for metric in arguments["metrics"]]
    for name, value in list(arguments.items()):
        if name in DEFAULTS and isinstance(value, tuple):
            arguments[name] = list(value)
    if "users" in arguments:
        sets = dict(arguments["users"])
        arguments["users"] = sets["default"] if list(sets) == ["default"] else sets
    return arguments


# The Python names a message may use, as the command line spells them.
_FLAGS = {name: "--" + name.replace("_", "-") for name in
          (*DEFAULTS, "group_by", "partition_by", "per_user", "items", "train", "memory_limit", "temp_directory", "confidence",
           "model_col", "baseline", "n_resamples", "correction", "alpha", "bootstrap_resamples", "margin", "equivalence")}


def _in_flag_names(message: str) -> str:
    """A rankwise message with the command line's names: `score_col` becomes
    `--score-col`, duplicate_interactions='max' becomes --duplicate-interactions max."""
    names = "|".join(sorted(_FLAGS, key=len, reverse=True))
    message = re.sub(rf"\b({names})='([^']*)'", lambda match: f"{_FLAGS[match.group(1)]} {match.group(2)}", message)
    message = re.sub(rf"\b({names})=", lambda match: f"{_FLAGS[match.group(1)]} ", message)
    message = re.sub(rf"`({names})`", lambda match: f"`{_FLAGS[match.group(1)]}`", message)
    # bare, only the names no sentence uses as a word (score_col, not users or gain)
    compound = "|".join(sorted((name for name in _FLAGS if "_" in name), key=len, reverse=True))
    message = re.sub(rf"(?<![-\w'`])({compound})(?![\w'`])", lambda match: _FLAGS[match.group(1)], message)
    for caller in ("evaluate", "check", "compare"):
        message = message.replace(f"rankwise.{caller}: argument `--", "rankwise: option `--")
    return message


def _one_line_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input exits non-zero with one line, not a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RankwiseError as error:
            raise click.ClickException(_in_flag_names(str(error))) from error
        except OSError as error:
            raise click.ClickException(f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")) from error
        except duckdb.Error as error:
            first_line = str(error).strip().splitlines()[0]
            raise click.ClickException(f"DuckDB: {first_line}") from error

    return run


# The exit code of a run whose result was written but failed a gate (--fail-under,
# --fail-over, --fail-if-worse): bad input is 1 and a usage error 2.
GATE_FAILED = 3


class _Bound(click.ParamType):
    """`METRIC=NUMBER`, as --fail-under ndcg@10=0.25."""

    name = "metric=number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        label, _, number = value.rpartition("=")
        try:
            return label, float(number)
        except ValueError:
            self.fail(f"{value!r} is not METRIC=NUMBER, such as ndcg@10=0.25.", param, ctx)
        return None


def _report_failed_gates(*gates: tuple[Any, str]) -> None:
    """The rows that failed each gate (rows, what they are) on stderr, then
    exit with GATE_FAILED if any did."""
    failed = [(rows, what) for rows, what in gates if rows is not None and len(rows) > 0]
    for rows, what in failed:
        click.echo(f"gate failed: {len(rows)} {what}:", err=True)
        click.echo(frame_text(rows), err=True)
    if failed:
        sys.exit(GATE_FAILED)


def _gate_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The gates on the means of `evaluate` and `report`."""
    for option in reversed([
        click.option("--fail-under", "fail_under", multiple=True, type=_Bound(),
                     help=f"A gate: exit with code {GATE_FAILED} (after writing the result) when a group's METRIC is "
                          "below NUMBER, e.g. --fail-under ndcg@10=0.25 (repeatable)."),
        click.option("--fail-over", "fail_over", multiple=True, type=_Bound(),
                     help=f"A gate: exit with code {GATE_FAILED} when a group's METRIC is above NUMBER (repeatable)."),
        click.option("--gate-on", type=click.Choice(["value", "ci_low", "ci_high"]), default="value", show_default=True,
                     help="What the gates judge: the mean, or a bound of its interval (ci_low: the gate must hold "
                          "with the interval's confidence)."),
    ]):
        command = option(command)
    return command


def _comparison_options(baseline_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options of a comparison with a baseline, in `compare` and `report`."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed([
            click.option("--baseline", default=None, help=baseline_help),
            click.option("--correction", type=click.Choice(["holm", "bh", "none"]), default="holm", show_default=True,
                         help="How p_adjusted corrects the p-values of every row."),
            click.option("--alpha", type=float, default=0.05, show_default=True,
                         help="significant is p_adjusted < alpha."),
            click.option("--margin", type=float, default=None,
                         help="How much worse than the baseline still counts as no worse, on the metric's scale: "
                              "adds the non-inferiority test (p_non_inferiority)."),
            click.option("--fail-if-worse", is_flag=True,
                         help=f"A gate: exit with code {GATE_FAILED} (after writing the result) when a model is not "
                              "shown to be no worse than the baseline by more than --margin "
                              "(p_non_inferiority_adjusted >= --alpha)."),
        ]):
            command = option(command)
        return command

    return decorate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version(), prog_name="rankwise")
@click.pass_context
def main(context: click.Context) -> None:
    """Ranking and recommendation metrics, computed by rankwise's SQL in DuckDB."""
    context.with_resource(_warnings_as_lines())


@contextlib.contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Every RankwiseWarning of a command on stderr as one line, `warning:`
    and the message in the command line's names, once however many times the
    command's evaluations give it; not Python's `file:line: RankwiseWarning:`
    with the source line under it."""
    shown: set[str] = set()
    python_show = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
             line: str | None = None) -> None:
        if not issubclass(category, RankwiseWarning):
            python_show(message, category, filename, lineno, file, line)
            return
        text = _in_flag_names(str(message))
        if text not in shown:
            shown.add(text)
            click.echo(f"warning: {text}", err=True)

    with warnings.catch_warnings():
        warnings.simplefilter("always", RankwiseWarning)
        warnings.showwarning = show
        yield


def _interval_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The interval options of `evaluate` and `sql`."""
    for option in reversed([
        click.option("--confidence", type=float, default=0.95, show_default=True,
                     help="The level of ci_low and ci_high, the Student t interval of each mean."),
        click.option("--bootstrap-resamples", type=int, default=None,
                     help="Give entropy a Poisson bootstrap interval over the users, from this many resamples."),
        click.option("--seed", type=int, default=0, show_default=True, help="The seed of the bootstrap's resamples."),
    ]):
        command = option(command)
    return command


def _output_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options of `evaluate` and `exposure` that say where the table goes, and
    whether the inputs are checked first."""
    for option in reversed([
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path, allow_dash=True), default=None,
                     help="Write the result to a .parquet, .csv or .json file instead of printing it; - writes it to "
                          "stdout in --format."),
        click.option("--format", "output_format", type=click.Choice(["csv", "json", "parquet"]), default=None,
                     help="The format of --output: by default the file name's extension, csv for -."),
        click.option("--no-validate", "validate", flag_value=False, default=True,
                     help="Skip the input checks (duplicates, nulls...): for data known to be clean."),
    ]):
        command = option(command)
    return command


def _output_format(output: Path | None, output_format: str | None) -> str | None:
    """The format the table is written in, the target checked before any work:
    a run of minutes should not end on a typo."""
    if output is None or str(output) == "-":
        return output_format
    output_format = output_format or _OUTPUT_FORMATS.get(output.suffix.lower())
    if output_format is None:
        raise click.BadParameter(f"'{output}': the file name must end in .parquet, .csv or .json, or give --format.",
                                 param_hint="--output")
    folder = output.resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise click.BadParameter(f"'{output}': the folder '{folder}' does not exist or cannot be written to.",
                                 param_hint="--output")
    return output_format


def _emit(relation: duckdb.DuckDBPyRelation, output: Path | None, output_format: str | None) -> None:
    """Prints the table, writes it to stdout (-o -) or to its file."""
    if output is None:
        click.echo(text_table(relation.columns, relation.fetchall()))
    elif str(output) == "-":
        _write_to_stdout(relation, output_format or "csv")
    else:
        _write_atomically(relation, output, output_format)
        click.echo(f"wrote {relation.shape[0]} rows to {output}", err=True)


@main.command("evaluate")
@_common_options
@_interval_options
@_output_options
@click.option("--memory-limit", default=None, help="DuckDB's memory limit, e.g. 8GB; past it, work spills to disk.")
@click.option("--temp-directory", default=None, help="Where DuckDB spills (default: DuckDB's own choice).")
@_gate_options
@_one_line_errors
def evaluate_command(output: Path | None, output_format: str | None, fail_under: tuple, fail_over: tuple,
                     gate_on: str, **options: Any) -> None:
    """Evaluate RECOMMENDATIONS against INTERACTIONS (Parquet, CSV or TREC files: a run and its qrels; - reads stdin)."""
    output_format = _output_format(output, output_format)
    memory = {name: options.pop(name) for name in ("memory_limit", "temp_directory")}
    options = _read_inputs(options)
    with duckdb.connect() as con, stages() as stage:
        apply_settings(con, "evaluate", **memory)
        stage("checking the inputs and computing the metrics" if options.get("validate", True) else "computing the metrics")
        relation = _result_table(con, lambda: evaluate(con=con, output="relation", **_arguments(options)))
        stage("writing")
        _emit(relation, output, output_format)
        if fail_under or fail_over:
            from ._gates import failing_metrics

            failed = failing_metrics(relation.df(), at_least=dict(fail_under), at_most=dict(fail_over), on=gate_on)
            _report_failed_gates((failed, "metric rows outside their bounds"))


@main.command("exposure")
@click.argument("recommendations")
@click.argument("interactions")
@click.option("--items", required=True, help="The catalog: one row per item, with the column --item-group-col names.")
@click.option("--item-group-col", required=True, help=DOCS["item_group_col"])
@click.option("-k", "cutoffs", multiple=True, type=int,
              help="A cutoff (repeatable): the top k of each list is shown. Default: the whole list.")
@click.option("--group-by", multiple=True, help="A grouping column of the recommendations (repeatable).")
@click.option("--partition-by", multiple=True, help=_PARTITION_HELP)
@_output_options
@_options_except("item_group_col")
@_one_line_errors
def exposure_command(output: Path | None, output_format: str | None, **options: Any) -> None:
    """Each item group's share of the exposure in RECOMMENDATIONS and of the relevance in INTERACTIONS: the rows
    behind exposure_disparity@k (Parquet, CSV or TREC files; - reads stdin)."""
    output_format = _output_format(output, output_format)
    options = _read_inputs(options)
    with duckdb.connect() as con:
        relation = _result_table(con, lambda: exposure_by_item_group(con=con, output="relation", **_arguments(options)))
        _emit(relation, output, output_format)


def _result_table(con: duckdb.DuckDBPyConnection,
                  compute: Callable[[], duckdb.DuckDBPyRelation]) -> duckdb.DuckDBPyRelation:
    """The result computed once into a table (writing the file and counting its
    rows would each run the whole query again on a lazy relation)."""
    compute().create("rankwise_result")
    return con.table("rankwise_result")


def _read_inputs(options: dict[str, Any], group_by_model: bool = True) -> dict[str, Any]:
    """Reads the inputs that are files: an input given as - becomes the CSV or
    TREC file read from stdin; a TREC file (a run as RECOMMENDATIONS, qrels as
    INTERACTIONS: _read_trec) becomes its table; a Parquet or CSV file is left
    to the engine; anything else is refused with the formats rankwise reads."""
    stdin_roles = [role for role in ("recommendations", "interactions") if options.get(role) == "-"]
    if len(stdin_roles) > 1:
        raise click.BadParameter("only one of RECOMMENDATIONS and INTERACTIONS can be read from stdin (-).")
    for role in stdin_roles:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{role}.csv"
            path.write_bytes(click.get_binary_stream("stdin").read())
            if path.stat().st_size == 0:
                raise click.BadParameter(f"the {role} are read from stdin (-), which is empty.")
            if trec_file_kind(path) is not None:
                _read_trec(options, role, path, "stdin", group_by_model)
                continue
            with duckdb.connect() as reader:
                options[role] = reader.read_csv(str(path)).df()
    for role in ("recommendations", "interactions"):
        value = options.get(role)
        if isinstance(value, str) and value != "-":
            _read_file(options, role, value, group_by_model)
    return options


# The files the engine reads by their name (engines/duckdb.py), optionally
# compressed: Parquet and CSV.
_ENGINE_FILE = re.compile(r".*\.(parquet|pq|csv|tsv|txt)(\.gz|\.zst)?", re.IGNORECASE)
_FORMATS = ("Parquet (.parquet), CSV (.csv, .tsv, .txt; optionally .gz), TREC qrels (qid iter docno rel) and TREC "
            "runs (qid Q0 docno rank score tag)")


def _read_file(options: dict[str, Any], role: str, path: str, group_by_model: bool) -> None:
    """A file argument: a TREC file becomes its table (whatever its name:
    results.test, run.txt); a Parquet or CSV file stays a path for the engine;
    a missing or unreadable one is refused with rankwise's message, not the
    engine's."""
    if any(character in path for character in "*?["):
        return  # a glob of Parquet or CSV files: the engine's
    if not os.path.isfile(path):
        raise InputError(f"rankwise: the {role} file '{path}' does not exist.", table=role)
    if trec_file_kind(path) is not None:
        _read_trec(options, role, path, path, group_by_model)
    elif not _ENGINE_FILE.fullmatch(path):
        raise InputError(f"rankwise: cannot read the {role} file '{path}': rankwise reads {_FORMATS}, and its first "
                         f"line is none of them: {_first_line(path)!r}.", table=role)


def _first_line(path: str) -> str:
    with open(path, "rb") as stream:
        line = stream.readline(200).decode("utf-8", errors="replace").rstrip("\r\n")
    return line


def _read_trec(options: dict[str, Any], role: str, path: str | Path, shown: str, group_by_model: bool) -> None:
    """A TREC file as its role's table: a run as the recommendations (scores
    ranked as trec_eval ranks them, the tag a group), qrels as the
    interactions (their relevance read); a run given as the interactions or
    qrels as the recommendations are refused, naming the order."""
    kind = trec_file_kind(path)
    expected = "run" if role == "recommendations" else "qrels"
    if kind != expected:
        other = "INTERACTIONS" if role == "recommendations" else "RECOMMENDATIONS"
        raise InputError(
            f"rankwise: the {role} file '{shown}' holds TREC {'qrels' if kind == 'qrels' else 'a run'}, which is the "
            f"{other}: rankwise evaluate takes RECOMMENDATIONS (the run) first and INTERACTIONS (the qrels) second; "
            "rankwise trec_eval takes them in trec_eval's order, QRELS RUN.", table=role)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RankwiseWarning)
        frame = read_run(path) if kind == "run" else read_qrels(path)
    for warning in caught:
        click.echo(f"warning: {str(warning.message).replace(str(path), shown)}", err=True)
    options[role] = frame
    if kind == "run":
        if options.get("score_col") is None:
            options["score_col"] = "score"
        if group_by_model and "model" not in options.get("group_by", ()):
            options["group_by"] = (*options.get("group_by", ()), "model")
    elif options.get("relevance_col") is None:
        options["relevance_col"] = "relevance"


def _write_to_stdout(relation: duckdb.DuckDBPyRelation, output_format: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"result.{output_format}"
        _write_atomically(relation, path, output_format)
        stdout = click.get_binary_stream("stdout")
        stdout.write(path.read_bytes())
        stdout.flush()


def _write_atomically(relation: duckdb.DuckDBPyRelation, path: Path, kind: str) -> None:
    """Writes next to the target, then renames: a failed run leaves the old file."""
    path = path.resolve()
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(descriptor)
    try:
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
@click.option("--partition-by", multiple=True, help=_PARTITION_HELP)
@_options
@_one_line_errors
def check_command(**options: Any) -> None:
    """Report what is wrong with RECOMMENDATIONS and INTERACTIONS before evaluating.

    Exits 1 when a problem would make `rankwise evaluate` refuse the input."""
    with stages() as stage:
        stage("checking")
        report = check(**_arguments(_read_inputs(options)))
    if report.empty:
        click.echo("no problems found")
        return
    for row in report.itertuples():
        click.echo(f"{row.severity}: {row.message}")
    if (report["severity"] == "error").any():
        raise SystemExit(1)


@main.command("sql")
@_common_options
@_interval_options
@click.option("--dialect", type=click.Choice(list(DIALECT_ADAPTERS)), default="duckdb", show_default=True)
@_one_line_errors
def sql_command(dialect: str, **options: Any) -> None:
    """Print the SQL that evaluates table RECOMMENDATIONS against table INTERACTIONS."""
    click.echo(sql(dialect=dialect, **_arguments(options)))


@main.command("explain")
@_common_options_except("model_col")
@_interval_options
@click.option("--dialect", type=click.Choice(list(DIALECT_ADAPTERS)), default="duckdb", show_default=True,
              help="The engine whose plan to explain: the strategies differ between engines.")
@click.option("--compare", "compare_models", is_flag=True,
              help="Explain `rankwise compare` of the models of --model-col rather than `rankwise evaluate`.")
@click.option("--model-col", default=None, help=DOCS["model_col"])
@click.option("--baseline", default=None, help="With --compare, the model every other is compared with.")
@click.option("--test", "tests", multiple=True, type=click.Choice(["t", "randomization", "bootstrap"]),
              help="With --compare, a test to run (repeatable; default: t).")
@click.option("--no-validate", "validate", flag_value=False, default=True, help="Explain the plan without the input checks.")
@_one_line_errors
def explain_command(recommendations: str, interactions: str, dialect: str, compare_models: bool, baseline: str | None,
                    tests: tuple[str, ...], validate: bool, **options: Any) -> None:
    """Print the plan of `rankwise evaluate RECOMMENDATIONS INTERACTIONS` (or with --compare, of `rankwise compare`)
    in words: the metrics and the users each mean is over, the columns read, the checks, the strategies chosen and
    the stages of the query. Nothing is read."""
    arguments = _arguments(options)
    for name in ("per_user",) if compare_models else ():
        arguments.pop(name, None)
    if compare_models:
        for name in ("per_user", "bootstrap_resamples"):
            arguments.pop(name, None)
        arguments.update(model_col=arguments.get("model_col") or "model", baseline=baseline, tests=list(tests) or ["t"])
    elif baseline is not None or tests:
        raise click.UsageError("--baseline and --test are compare's: add --compare.")
    for role in ("items", "train"):
        arguments[role] = arguments.get(role)
    click.echo(f"recommendations: {recommendations}; interactions: {interactions}")
    from ._explain import explain

    click.echo(explain(dialect=dialect, compare=compare_models, validate=validate, **arguments), nl=False)


@main.command("compare")
@click.argument("recommendations")
@click.argument("interactions")
@click.option("-m", "--metric", "metrics", multiple=True, required=True,
              help="A per-user or list-level metric, optionally @k (repeatable): -m ndcg@10 -m map@10 "
                   "-m popularity_lift@10.")
@click.option("-k", "cutoffs", multiple=True, type=int,
              help="A cutoff for the metrics given without @k (repeatable). Default: the whole list.")
@click.option("--model-col", default="model", show_default=True,
              help="The column of the recommendations that tells the models apart.")
@click.option("--group-by", multiple=True, help="A further grouping column of the recommendations (repeatable).")
@click.option("--partition-by", multiple=True, help=_PARTITION_HELP)
@click.option("--confidence", type=float, default=0.95, show_default=True, help="The level of the intervals.")
@click.option("--test", "tests", multiple=True, type=click.Choice(["t", "randomization", "bootstrap"]),
              help="A test to run (repeatable; default: t, which is always computed).")
@click.option("--n-resamples", type=int, default=1000, show_default=True,
              help="Resamples of the randomization test and the bootstrap.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the resamples.")
@_comparison_options("The model every other is compared with; by default every pair once.")
@click.option("--equivalence", is_flag=True, help="With --margin, add the equivalence test (TOST: p_equivalence).")
@click.option("--items", default=None, help=f"The catalog, read by {_readers('items')}.")
@click.option("--train", default=None, help=f"The interactions the model was trained on, read by {_readers('train')}.")
@_options_except("model_col")
@click.option("--details", is_flag=True,
              help="Print every row of the comparison (each pair's difference, interval and tests) instead of "
                   "the table of models.")
@click.option("--format", "output_format", type=click.Choice(["markdown", "latex", "csv", "json"]), default="markdown",
              show_default=True, help="The format of the table of models.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write every row of the comparison to a .parquet, .csv or .json file.")
@_one_line_errors
def compare_command(details: bool, output_format: str, output: Path | None, fail_if_worse: bool,
                    **options: Any) -> None:
    """Compare the models of RECOMMENDATIONS on INTERACTIONS (Parquet, CSV or TREC files; - reads stdin).

    Prints one row per model and one column per metric, each mean marked with the
    letters of the models it beats significantly (as ranx does)."""
    kind = None
    if output is not None:
        kind = _OUTPUT_FORMATS.get(output.suffix.lower())
        if kind is None:
            raise click.BadParameter(f"'{output}': the file name must end in .parquet, .csv or .json.",
                                     param_hint="--output")
    options = _read_inputs(options, group_by_model=False)
    arguments = _arguments({**options, "group_by": options["group_by"], "partition_by": options["partition_by"]})
    arguments["tests"] = list(options["tests"]) or ["t"]
    if fail_if_worse and options["margin"] is None:
        raise click.UsageError("--fail-if-worse tests non-inferiority at a margin: give --margin, such as 0.01.")
    from ._compare import compare, comparison_table
    from ._gates import failing_comparisons

    with duckdb.connect() as con, stages() as stage:
        stage("checking the inputs and comparing the models")
        compare(con=con, output="relation", **arguments).create("rankwise_comparison")
        result = con.table("rankwise_comparison")
        if output is not None:
            stage("writing")
            _write_atomically(result, output, kind)
        frame = result.df()
    if output is not None:
        click.echo(f"wrote {frame.shape[0]} rows to {output}", err=True)
    if details:
        click.echo(frame_text(frame))
    else:
        click.echo(comparison_table(frame, output_format).rstrip("\n"))
    if fail_if_worse:
        _report_failed_gates((failing_comparisons(frame, alpha=options["alpha"]),
                              "comparisons where a model is not shown to be no worse than the baseline"))


@main.command("trec_eval")
@click.option("-q", "--query_eval_wanted", "per_query", is_flag=True,
              help="Print each query's values before the summary.")
@click.option("-m", "--measure", "measures", multiple=True, metavar="MEASURE[.PARAMS]",
              help="A measure (repeatable), with parameters after a dot (P.5,10; ndcg.1=3,2=9; rbp.p=0.8), or a set "
                   "of them: official (the default), all_trec, set.")
@click.option("-c", "--complete_rel_info_wanted", "complete", is_flag=True,
              help="Average over every query of QRELS; a query without documents in RUN scores 0.")
@click.option("-l", "--level_for_rel", "relevance_level", type=int, default=1, show_default=True,
              help="The smallest relevance that counts as relevant.")
@click.option("-M", "--Max_retrieved_per_topic", "max_docs", type=int, default=None,
              help="Read only the first N documents of each query (trec_eval's order); the others are dropped, and "
                   "a note says how many.")
@click.option("-J", "--Judged_docs_only", "judged_only", is_flag=True,
              help="Only judged documents: the unjudged are dropped before ranking (rankwise's judged_only).")
@click.option("-n", "--nosummary", "no_summary", is_flag=True, help="No summary (all) lines.")
@click.option("-N", "--Number_docs_in_coll", "collection_size", type=click.IntRange(min=0), default=0,
              help="The documents of the collection, which utility's fourth weight (a document neither retrieved "
                   "nor relevant) reads.")
@click.argument("qrels")
@click.argument("run")
@_one_line_errors
def trec_eval_command(qrels: str, run: str, per_query: bool, measures: tuple[str, ...], complete: bool,
                      relevance_level: int, max_docs: int | None, judged_only: bool, no_summary: bool,
                      collection_size: int) -> None:
    """trec_eval's command line, every number computed by rankwise: evaluate the TREC run RUN (- reads it from
    stdin) against the TREC qrels QRELS and print trec_eval's lines, measure, query (or all) and value.

    Notes on stderr say what trec_eval leaves out silently: the run's queries without judgments, the documents
    past -M."""
    from ._trec_eval import format_lines, trec_eval

    with warnings.catch_warnings(record=True) as caught, tempfile.TemporaryDirectory() as folder:
        warnings.simplefilter("always", RankwiseWarning)
        if run == "-":
            path = Path(folder) / "run"
            path.write_bytes(click.get_binary_stream("stdin").read())
            run_table = read_run(path)
        else:
            run_table = read_run(run)
        result = trec_eval(qrels, run_table, list(measures), per_query=per_query, complete=complete,
                           relevance_level=relevance_level, max_docs=max_docs, judged_only=judged_only,
                           summary=not no_summary, collection_size=collection_size)
    for warning in caught:
        click.echo(f"warning: {warning.message}", err=True)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(format_lines(result), nl=False)


main.add_command(report_command(_common_options_except("model_col"), _one_line_errors,
                                lambda options: _arguments(_read_inputs(options)), _gate_options,
                                _comparison_options("The model every other is compared with, a value of --model-col: "
                                                    "the report opens with the verdict of each model against it."),
                                _report_failed_gates))

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
