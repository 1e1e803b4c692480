"""rankwise.evaluate and rankwise.sql: the dbt macros, rendered and run in DuckDB."""

from __future__ import annotations

import contextlib
import difflib
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, Unpack, get_args

import duckdb

from ._connection import apply_settings, refuse_a_text_collation
from ._inputs import ResolvedInput, quote_table_name, resolved_inputs
from ._options import Convention, EvaluateOptions, documented, plain, resolve
from ._render import renderer
from ._validate import check_columns, check_optional_inputs, notes, overlap_errors, problems, text_key_columns, unread_relevance_column
from .errors import InputError, InvalidArgumentError, RankwiseWarning

Output = Literal["pandas", "arrow", "polars", "relation"]
OUTPUTS = get_args(Output)

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


def metric_names() -> list[str]:
    """The names rankwise knows, as `metrics` accepts them (each optionally @k)."""
    return list(renderer().call("metric_names"))


def convention_options(convention: Convention = "rankwise") -> dict[str, Any]:
    """The option values a convention sets, as :func:`evaluate` applies them.

    >>> convention_options("rectools")["idcg"]
    'k_positions'
    """
    options = dict(renderer().call("convention_options", convention))
    if isinstance(options.get("users"), dict):
        options["users"] = dict(options["users"])
    return options


def _check_metrics(metrics: Any) -> list[str]:
    """Python-side check of metric names, to suggest the closest name; the
    macro checks everything else and raises the same error class."""
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, Sequence) or not metrics:
        raise InvalidArgumentError(
            f"rankwise.evaluate: argument `metrics` must be a non-empty list of metric names such as "
            f"['ndcg@10', 'map']; got {metrics!r}. Valid names: {', '.join(metric_names())}."
        )
    known = metric_names()
    for metric in metrics:
        if not isinstance(metric, str):
            continue  # the macro reports it
        name = metric.split("@")[0]
        if name not in known:
            close = difflib.get_close_matches(name.lower(), known, n=1)
            suggestion = f" Did you mean '{close[0]}'?" if close else ""
            raise InvalidArgumentError(
                f"rankwise.evaluate: unknown metric '{metric}'.{suggestion} "
                f"Valid names, each optionally followed by @k: {', '.join(known)}."
            )
    return list(metrics)


def _listed(value: Any) -> Any:
    """A column name or a sequence of values as a list; anything else as it is,
    for the macro to refuse with its own message (group_by=1 is not a list)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return list(value)
    return value


def _macro_arguments(
    caller: str,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None,
    group_by: Sequence[str] | str | None,
    per_user: bool,
    options: Mapping[str, Any],
    partition_by: Sequence[str] | str | None = None,
    confidence: float | None = 0.95,
    bootstrap_resamples: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The keyword arguments of the macro evaluate: every option resolved, every
    numpy scalar made a Python number, before anything is rendered."""
    k = plain(k)
    return {
        "metrics": _check_metrics(plain(metrics)),
        "k": list(k) if isinstance(k, Sequence) and not isinstance(k, str) else k,
        "group_by": _listed(plain(group_by)) if group_by is not None else None,
        "partition_by": _listed(plain(partition_by)) if partition_by is not None else None,
        "per_user": plain(per_user),
        "confidence": plain(confidence),
        "bootstrap_resamples": plain(bootstrap_resamples),
        "seed": plain(seed),
        **resolve(caller, options),
    }


def _render_evaluate(recommendations_sql: str, interactions_sql: str, adapter_type: str, arguments: dict[str, Any],
                     items_sql: str | None = None, train_sql: str | None = None) -> str:
    return str(renderer(adapter_type).call("evaluate", recommendations_sql, interactions_sql, **arguments,
                                           items=items_sql, train=train_sql)).strip()


@documented
def evaluate(
    recommendations: Any,
    interactions: Any,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    per_user: bool = False,
    confidence: float | None = 0.95,
    bootstrap_resamples: int | None = None,
    seed: int = 0,
    items: Any = None,
    train: Any = None,
    con: duckdb.DuckDBPyConnection | None = None,
    validate: bool = True,
    memory_limit: str | None = None,
    temp_directory: str | os.PathLike[str] | None = None,
    output: Output = "pandas",
    **options: Unpack[EvaluateOptions],
) -> Any:
    """Evaluates ranked recommendations against interactions, in DuckDB.

    Runs the SQL of the dbt macro ``rankwise.evaluate`` (rendered from the same
    macro files dbt compiles): every metric at every cutoff in one pass.

    Args:
        recommendations: The ranked lists: a pandas or polars DataFrame, a pyarrow
            Table, a DuckDB relation (of ``con``), a table or view name on ``con``,
            or a path or glob to Parquet or CSV files. One row per (groups, user,
            item) with a rank (1 = best) or a score (higher = better).
        interactions: The truth, in any of the same forms: one row per (user,
            item), with an optional numeric relevance.
        metrics: Metric names, each optionally with a cutoff as in ranx:
            ``["ndcg@10", "map", "precision"]``. See :func:`metric_names`.
        k: Cutoffs for the metrics given without ``@k``: an int or a list; None
            (default) means the whole list.
        group_by: Columns of the recommendations that split the evaluation
            (model, run...).
        partition_by: Columns both inputs have (fold, split, week, query
            set...): each partition's lists are judged against that
            partition's interactions only, and its users are its own. They
            appear in the output like group columns and combine with
            ``group_by``.
        per_user: One row per user (with the components of each value) instead
            of means.
        confidence: The level of ``ci_low`` and ``ci_high``, the Student t
            interval of each mean of per-user values (null for entropy);
            None leaves the two columns out. Ignored with ``per_user``.
        bootstrap_resamples: With a number of resamples, entropy's
            ``ci_low`` and ``ci_high`` are the percentile interval of a Poisson
            bootstrap over the users (one row per top-k slot and resample:
            costly at scale). Default None: null.
        seed: The integer the bootstrap's resamples are drawn from; the same
            seed gives the same interval on every engine.
        items: The catalog, in any of the forms of ``recommendations``: one
            row per item that could be recommended (``item_col``); read by
            coverage and gini.
        train: The interactions the model was trained on (``user_col``,
            ``item_col``; with ``partition_by``, those columns too), in any of
            the same forms; read by novelty, arp and long_tail_share for each
            item's popularity.
        con: A DuckDB connection to run on (and to read table names from);
            default: a private in-memory one. It is left as it was found.
        validate: Check the inputs before computing (missing columns, wrong
            types, empty tables, null ids, invalid ranks, scores or relevances,
            duplicates) and raise a clear error. Turn off only for data known
            to be clean: it saves a pass over each table.
        memory_limit: DuckDB's ``memory_limit`` for this evaluation, such as
            "8GB"; past it, DuckDB spills to ``temp_directory``. Default: DuckDB's
            (80% of RAM). Only without ``con``: rankwise never changes the
            settings of a connection it is given.
        temp_directory: Where DuckDB spills when data outgrows memory.
        output: "pandas" (default), "arrow", "polars" or "relation" (a lazy DuckDB
            relation, returned on ``con``).
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):

    Returns:
        A tidy table: group columns, ``metric``, ``k`` (null for the whole list),
        ``metric_label``, ``value``, ``n_users``, ``n_users_without_list``,
        ``ci_low``, ``ci_high``; with ``per_user=True``: the user column, group
        columns, ``metric``, ``k``, ``value``, ``n_relevant``, ``n_recommended``,
        ``hits``, ``dcg``, ``idcg``.

    Raises:
        rankwise.errors.InvalidArgumentError: an argument is invalid.
        rankwise.errors.InputError: an input cannot be read or cannot be
            evaluated; its subclasses name the kind (MissingColumnError,
            ColumnTypeError, EmptyInputError, InvalidValueError,
            DuplicateRowsError), and the message the table, column, an example
            and the fix.
    """
    if output not in OUTPUTS:
        raise InvalidArgumentError(
            f"rankwise.evaluate: argument `output` must be one of {', '.join(map(repr, OUTPUTS))}; got {output!r}."
        )
    arguments = _macro_arguments("evaluate", metrics, k, group_by, per_user, options, partition_by, confidence,
                                 bootstrap_resamples, seed)
    optional = {role: value for role, value in (("items", items), ("train", train)) if value is not None}
    # Render first: an invalid argument fails before anything touches a connection.
    _render_evaluate("recommendations", "interactions", "duckdb", arguments, *_optional_sql({role: role for role in optional}))
    for role in sorted(set(optional) - _inputs_read(arguments)):
        warnings.warn(f"rankwise.evaluate: `{role}` is given but none of the metrics asked reads it "
                      f"({_READERS[role]} do); it is not read or checked.", RankwiseWarning, stacklevel=2)

    with _evaluation_inputs("evaluate", con, memory_limit, temp_directory, output, recommendations, interactions,
                            arguments, optional) as (connection, inputs):
        # The means tell whether the tables share ids (_shows_a_hit): the overlap
        # check then runs after them, and only when they show no hit.
        overlap_first = arguments["per_user"]
        if validate:
            _validate(connection, inputs, arguments, overlap=overlap_first)
            check_optional_inputs(connection, inputs["recommendations"], {role: inputs[role] for role in optional},
                                  user_col=arguments["user_col"], item_col=arguments["item_col"],
                                  partition_by=arguments["partition_by"] or [],
                                  item_vector_col=arguments["item_vector_col"],
                                  item_feature_cols=_listed(arguments["item_feature_cols"] or []),
                                  cosine=_resolved(arguments, "item_distance") == "cosine")
        unread = unread_relevance_column(connection, inputs["interactions"], relevance_col=arguments["relevance_col"],
                                         key_columns=[arguments["user_col"], arguments["item_col"],
                                                      *(arguments["partition_by"] or [])])
        if unread is not None:
            warnings.warn(_UNREAD_RELEVANCE.format(table=inputs["interactions"].label, column=unread),
                          RankwiseWarning, stacklevel=2)
        query = _render_evaluate(inputs["recommendations"].sql, inputs["interactions"].sql, "duckdb", arguments,
                                 *_optional_sql({role: inputs[role].sql for role in optional}))
        relation = connection.sql(query)
        if arguments["per_user"]:
            if output != "relation":
                return _convert(relation, output)
            if not any(resolved.registered for resolved in inputs.values()):
                return relation
            # Registered inputs are dropped on leaving this block: compute the
            # result now and hand it back as a relation over the computed data.
            return _detached(connection, relation)
        # Means are few rows: computed once, then read again for the warnings.
        computed = _detached(connection, relation)
        if validate and not overlap_first and not _shows_a_hit(computed):
            _refuse_without_overlap(connection, inputs, arguments)
        _warn_of_coverage(computed, arguments)
        return computed if output == "relation" else _convert(computed, output)


@contextlib.contextmanager
def _evaluation_inputs(
    caller: str,
    con: duckdb.DuckDBPyConnection | None,
    memory_limit: str | None,
    temp_directory: str | os.PathLike[str] | None,
    output: Output,
    recommendations: Any,
    interactions: Any,
    arguments: dict[str, Any],
    optional: Mapping[str, Any] | None = None,
) -> Iterator[tuple[duckdb.DuckDBPyConnection, dict[str, ResolvedInput]]]:
    """The connection and the inputs of one evaluate or compare: rankwise's own
    connection with the memory settings (closed on leaving, unless the result is
    a relation on it), or the caller's, left as it is but refused under a text
    collation that would change which ids match."""
    if con is not None and (memory_limit is not None or temp_directory is not None):
        raise InvalidArgumentError(
            f"rankwise.{caller}: `memory_limit` and `temp_directory` apply to rankwise's own connection; "
            "on a connection you pass as `con`, set them yourself (SET memory_limit = '8GB'), as rankwise "
            "leaves your connection's settings as they are.")
    private = con is None
    connection = duckdb.connect() if private else con
    try:
        if private:
            apply_settings(connection, memory_limit=memory_limit, temp_directory=temp_directory)
        with resolved_inputs(connection, recommendations=recommendations, interactions=interactions,
                             **(optional or {})) as inputs:
            if not private:
                refuse_a_text_collation(connection, caller, text_key_columns(
                    connection, inputs, user_col=arguments["user_col"], item_col=arguments["item_col"],
                    group_by=_list_keys(arguments)))
            yield connection, inputs
    finally:
        if private and output != "relation":
            connection.close()


_READERS = {"items": "coverage, gini, serendipity and intra_list_diversity by features",
            "train": "novelty, arp, long_tail_share, serendipity and intra_list_diversity by co-occurrence"}


def _inputs_read(arguments: Mapping[str, Any]) -> set[str]:
    """The optional inputs (items, train) the metrics read, from the registry
    (intra_list_diversity's depend on its item_distance, coverage's and gini's
    on coverage_of and gini_items)."""
    macros = renderer()
    options = {option: _resolved(arguments, option) for option in ("item_distance", "coverage_of", "gini_items")}
    names = {metric.split("@")[0] for metric in arguments["metrics"] if isinstance(metric, str)}
    return {role for name in names & set(metric_names()) for role in macros.call("_metric_inputs", name, options)}


def _optional_sql(sql_of: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The SQL of the optional inputs (items, train) in the macro's order, None
    for those not given."""
    return sql_of.get("items"), sql_of.get("train")


def _validate(connection: duckdb.DuckDBPyConnection, inputs: dict[str, ResolvedInput], arguments: dict[str, Any],
              *, overlap: bool = True) -> None:
    """Raises the first problem of the inputs; with `overlap`, also when the two
    tables share no user or no item."""
    columns = {name: arguments[name] for name in ("user_col", "item_col", "rank_col", "score_col", "relevance_col")}
    partition_by = arguments["partition_by"] or []
    check_columns(connection, inputs["recommendations"], inputs["interactions"], group_by=arguments["group_by"] or [],
                  partition_by=partition_by, **columns)
    found = problems(connection, inputs["recommendations"], inputs["interactions"], group_by=_list_keys(arguments),
                     partition_by=partition_by,
                     duplicate_interactions=arguments["duplicate_interactions"], gain=_resolved(arguments, "gain"),
                     **columns)
    if found:
        raise found[0].error()
    if overlap:
        _refuse_without_overlap(connection, inputs, arguments)


def _refuse_without_overlap(connection: duckdb.DuckDBPyConnection, inputs: dict[str, ResolvedInput],
                            arguments: dict[str, Any]) -> None:
    for error in overlap_errors(connection, inputs["recommendations"], inputs["interactions"],
                                user_col=arguments["user_col"], item_col=arguments["item_col"],
                                partition_by=arguments["partition_by"] or []):
        raise error


def _shows_a_hit(means: duckdb.DuckDBPyRelation) -> bool:
    """Whether a mean proves that some list holds a relevant item of its user,
    so that the tables share a user and an item: a mean above 0 of a metric the
    macro _metrics_shown_by_a_hit names."""
    names = [duckdb.ConstantExpression(name) for name in renderer().call("_metrics_shown_by_a_hit")]
    positive = (duckdb.ColumnExpression("value") > duckdb.ConstantExpression(0)) & duckdb.ColumnExpression("metric").isin(*names)
    return len(means.filter(positive).limit(1).fetchall()) > 0


def _warn_of_coverage(means: duckdb.DuckDBPyRelation, arguments: dict[str, Any]) -> None:
    """A RankwiseWarning for each warning the macro coverage_warnings finds in
    the means: groups scored on different users, groups with lists for few of
    the users with ground truth."""
    query = renderer().call("coverage_warnings", "rw_evaluation", group_by=arguments["group_by"] or [],
                            partition_by=arguments["partition_by"] or [], users=_resolved_users(arguments))
    for _, message in means.query("rw_evaluation", query).fetchall():
        warnings.warn(message, RankwiseWarning, stacklevel=3)


def _resolved_users(arguments: dict[str, Any]) -> Any:
    """The `users` the evaluation uses: the convention's, with what was given
    over it (a mapping given adds to the convention's sets)."""
    preset = convention_options(arguments["convention"])["users"]
    given = arguments["users"]
    if given is None:
        return preset
    if isinstance(given, Mapping):
        return {**(preset if isinstance(preset, Mapping) else {"default": preset}), **given}
    return given


def _list_keys(arguments: dict[str, Any]) -> list[str]:
    """The columns besides the user that tell one list from another: the
    partition columns, then the group columns."""
    return [*(arguments["partition_by"] or []), *(arguments["group_by"] or [])]


def _resolved(arguments: Mapping[str, Any], option: str) -> Any:
    """An option's value in the evaluation: the one given, else the convention's."""
    given = arguments[option]
    return convention_options(arguments["convention"])[option] if given is None else given


def _detached(connection: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return connection.from_df(relation.df())
    return connection.from_arrow(relation.to_arrow_table())


def _convert(relation: duckdb.DuckDBPyRelation, output: Output) -> Any:
    if output == "arrow":
        return relation.to_arrow_table()
    if output == "polars":
        return relation.pl()
    return relation.df()


@documented
def sql(
    recommendations: str,
    interactions: str,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    dialect: str = "duckdb",
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    per_user: bool = False,
    confidence: float | None = 0.95,
    bootstrap_resamples: int | None = None,
    seed: int = 0,
    items: str | None = None,
    train: str | None = None,
    **options: Unpack[EvaluateOptions],
) -> str:
    """The SQL :func:`evaluate` runs, for two table names, in a SQL dialect.

    The macros are rendered with the dispatch overrides of the dialect's dbt
    adapter (``postgres__``, ``spark__``...), exactly as dbt would compile them
    there; for a dialect the macros have no overrides for (snowflake, trino, and
    redshift through postgres), sqlglot then transpiles that SQL into the
    dialect. ``recommendations`` and ``interactions`` (and ``items`` and
    ``train`` when the metrics read them) are table names
    (``schema.table`` is split on the dot); the other arguments are those of
    :func:`evaluate`.

    Args:
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):
    """
    if dialect not in DIALECT_ADAPTERS:
        raise InvalidArgumentError(
            f"rankwise.sql: argument `dialect` must be one of {', '.join(DIALECT_ADAPTERS)}; got {dialect!r}."
        )
    for role, name in (("recommendations", recommendations), ("interactions", interactions), ("items", items),
                       ("train", train)):
        if (role in ("recommendations", "interactions") or name is not None) and (not isinstance(name, str) or not name):
            raise InvalidArgumentError(f"rankwise.sql: argument `{role}` must be a table name; got {name!r}.")
    arguments = _macro_arguments("sql", metrics, k, group_by, per_user, options, partition_by, confidence,
                                 bootstrap_resamples, seed)
    adapter_type, written_in = DIALECT_ADAPTERS[dialect]
    rendered = _render_evaluate(
        quote_table_name(recommendations, adapter_type),
        quote_table_name(interactions, adapter_type),
        adapter_type,
        arguments,
        *_optional_sql({role: quote_table_name(name, adapter_type)
                        for role, name in (("items", items), ("train", train)) if name is not None}),
    )
    if written_in == dialect:
        return rendered
    import sqlglot  # only here: its import costs every evaluate() a tenth of a second

    return sqlglot.transpile(rendered, read=written_in, write=dialect, pretty=True)[0]


CHECK_COLUMNS = ["table", "severity", "problem", "column", "n_rows", "example", "message"]


@documented
def check(
    recommendations: Any,
    interactions: Any,
    *,
    k: int | Sequence[int | None] | None = None,
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    **options: Unpack[EvaluateOptions],
) -> Any:
    """A data-quality report of the two tables, to read before evaluating.

    Returns a pandas DataFrame with one row per kind of problem found: ``table``,
    ``severity`` ("error": :func:`evaluate` refuses the input; "note": allowed,
    but it changes what a mean covers), ``problem``, ``column``, ``n_rows`` (rows
    or users concerned), ``example`` and ``message``. Errors are missing columns,
    wrong types, empty tables, null ids, invalid ranks, scores or relevances and
    duplicates; notes are users in one table only, users without a relevant
    item, lists shorter than the largest ``k``, and lists with tied scores.
    Arguments are those of :func:`evaluate`, checked as it checks them, so that
    the options an evaluation will use can be passed here first. An empty report
    means nothing to report.

    Args:
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):
    """
    import pandas as pd

    arguments = _macro_arguments("check", ["precision"], k, group_by, False, options, partition_by)
    # Render first: an invalid argument fails before anything touches a connection.
    _render_evaluate("recommendations", "interactions", "duckdb", arguments)
    partition_by = arguments["partition_by"] or []
    group_by = arguments["group_by"] or []
    list_keys = _list_keys(arguments)
    cutoffs = [cutoff for cutoff in (arguments["k"] if isinstance(arguments["k"], list) else [arguments["k"]])
               if cutoff is not None]
    largest_k = max(cutoffs) if cutoffs else None
    # Left out, the threshold is the convention's; given, it must be a number
    # (check never took None for it).
    threshold = (arguments["relevance_threshold"] if "relevance_threshold" in options
                 else convention_options(arguments["convention"])["relevance_threshold"])
    columns = {name: arguments[name] for name in ("user_col", "item_col", "score_col", "relevance_col")}
    renderer().call("evaluation_notes", "recommendations", "interactions", relevance_threshold=threshold,
                    k=largest_k, group_by=group_by, partition_by=partition_by, **columns)
    rows: list[tuple] = []
    private = con is None
    connection = duckdb.connect() if private else con
    try:
        with resolved_inputs(connection, recommendations=recommendations, interactions=interactions) as inputs:
            if not private:
                refuse_a_text_collation(connection, "check", text_key_columns(
                    connection, inputs, user_col=arguments["user_col"], item_col=arguments["item_col"],
                    group_by=list_keys))
            try:
                check_columns(connection, inputs["recommendations"], inputs["interactions"],
                              rank_col=arguments["rank_col"], group_by=group_by, partition_by=partition_by, **columns)
            except InputError as error:
                problem = _COLUMN_PROBLEMS.get(type(error).__name__, "unreadable_input")
                rows.append((error.table, "error", problem, error.column, None, None, str(error)))
                return pd.DataFrame(rows, columns=CHECK_COLUMNS)
            for found in problems(connection, inputs["recommendations"], inputs["interactions"],
                                  rank_col=arguments["rank_col"], group_by=list_keys, partition_by=partition_by,
                                  duplicate_interactions=arguments["duplicate_interactions"],
                                  gain=_resolved(arguments, "gain"), **columns):
                rows.append((found.table, "error", found.problem, found.column_name, found.n_rows, found.example,
                             str(found.error())))
            for error in overlap_errors(connection, inputs["recommendations"], inputs["interactions"],
                                        user_col=arguments["user_col"], item_col=arguments["item_col"],
                                        partition_by=partition_by):
                rows.append((error.table, "error", error.problem, error.column, None, None, str(error)))
            unread = unread_relevance_column(connection, inputs["interactions"], relevance_col=arguments["relevance_col"],
                                             key_columns=[arguments["user_col"], arguments["item_col"], *partition_by])
            if unread is not None:
                rows.append((inputs["interactions"].label, "note", "relevance_column_not_read", unread, None, None,
                             _UNREAD_RELEVANCE.format(table=inputs["interactions"].label, column=unread)))
            for problem, column, n_rows, example in notes(
                connection, inputs["recommendations"], inputs["interactions"], relevance_threshold=threshold,
                k=largest_k, group_by=group_by, partition_by=partition_by, **columns,
            ):
                table = inputs["interactions"].label if problem in ("users_only_in_interactions", "users_without_relevant_item") else inputs["recommendations"].label
                rows.append((table, "note", problem, column, n_rows, example, _NOTE_MESSAGES[problem].format(n=n_rows, example=example)))
    finally:
        if private:
            connection.close()
    return pd.DataFrame(rows, columns=CHECK_COLUMNS)


_COLUMN_PROBLEMS = {
    "MissingColumnError": "missing_column",
    "ColumnTypeError": "wrong_type",
    "EmptyInputError": "empty_table",
}
_UNREAD_RELEVANCE = ("rankwise: the {table} have a column '{column}' that looks like a relevance, but relevance_col "
                     "is not given, so every interaction counts as relevant (relevance 1) and '{column}' is not read "
                     "or checked. Pass relevance_col='{column}' to use it.")
_NOTE_MESSAGES = {
    "users_only_in_recommendations": "{n} users have recommendations but no interactions (e.g. {example}): they are left out of every mean.",
    "users_only_in_interactions": "{n} users have interactions but no recommendations (e.g. {example}): they score 0 in every mean (the default, users='interactions'), or are left out with users='both'.",
    "users_without_relevant_item": "{n} users have no relevant item (e.g. {example}): they score 0 where a ratio would divide by zero; users='relevant' leaves them out.",
    "lists_shorter_than_k": "{n} lists are shorter than k (e.g. {example}): missing positions count as misses, or see precision_denominator='list_length'.",
    "tied_scores": "{n} lists have tied scores (e.g. {example}): ties are ordered by item id, see the `ties` option.",
}
