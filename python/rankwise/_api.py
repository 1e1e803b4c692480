"""rankwise.evaluate, rankwise.sql and rankwise.check: the dbt macros, planned
(rankwise._plan), checked (rankwise._checks), rendered for the engine's adapter
and run on it (rankwise.engines: DuckDB, Spark for Spark DataFrames, ClickHouse
for the tables of a chDB session)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from typing import Any, Unpack

from . import _checks
from ._options import Convention, EvaluateOptions, documented
from ._plan import _registry, macro_arguments, metric_names, plan_of, render
from ._render import renderer
from .engines import DIALECT_ADAPTERS, Output, engine_for, quote_table_name
from .errors import InvalidArgumentError, RankwiseWarning

__all__ = ["DIALECT_ADAPTERS", "check", "convention_options", "evaluate", "exposure_by_item_group", "metric_names", "sql"]


def convention_options(convention: Convention = "rankwise") -> dict[str, Any]:
    """The option values a convention sets, as :func:`evaluate` applies them.

    >>> convention_options("rectools")["idcg"]
    'k_positions'
    """
    options = dict(_registry("convention_options", convention=convention))
    if isinstance(options.get("users"), dict):
        options["users"] = dict(options["users"])
    return options


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
    con: Any = None,
    validate: bool = True,
    memory_limit: str | None = None,
    temp_directory: str | os.PathLike[str] | None = None,
    output: Output | None = None,
    **options: Unpack[EvaluateOptions],
) -> Any:
    """Evaluates ranked recommendations against interactions, in DuckDB, Spark or ClickHouse.

    Runs the SQL of the dbt macro ``rankwise.evaluate`` (rendered from the same
    macro files dbt compiles, with the dispatch of the engine it runs on):
    every metric at every cutoff in one pass. Spark DataFrames (or table names
    with ``con`` a SparkSession) run in their Spark session, table names with
    ``con`` a chDB session in ClickHouse; anything else in DuckDB.

    Args:
        recommendations: The ranked lists: a pandas or polars DataFrame, a pyarrow
            Table, a DuckDB relation (of ``con``), a table or view name on ``con``,
            or a path or glob to Parquet or CSV files; or a Spark DataFrame. One
            row per (groups, user, item) with a rank (1 = best) or a score
            (higher = better).
        interactions: The truth, in any of the same forms: one row per (user,
            item), with an optional numeric relevance.
        metrics: Metric names, each optionally with a cutoff as in ranx:
            ``["ndcg@10", "map", "precision"]``, and with parameters as in
            ir_measures: ``"rbp(p=0.95)@20"``, ``"ndcg(rel=2)@10"`` (a
            relevance threshold of the metric's own). See :func:`metric_names`.
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
            default: a private in-memory one. Or a SparkSession, to read table
            names in (the session of Spark DataFrames otherwise), or a chDB
            session (``chdb.session.Session``) to read table names in. It is left as
            it was found.
        validate: Check the inputs before computing (missing columns, wrong
            types, empty tables, null ids, invalid ranks, scores or relevances,
            duplicates) and raise a clear error. Turn off only for data known
            to be clean: it saves a pass over each table.
        memory_limit: DuckDB's ``memory_limit`` for this evaluation, such as
            "8GB"; past it, DuckDB spills to ``temp_directory``. Default: DuckDB's
            (80% of RAM). Only without ``con``: rankwise never changes the
            settings of a connection it is given (nor of a Spark or chDB session).
        temp_directory: Where DuckDB spills when data outgrows memory.
        output: On DuckDB "pandas" (the default), "arrow", "polars" or
            "relation" (a lazy DuckDB relation, returned on ``con``); on Spark
            "spark" (the default: a Spark DataFrame), "pandas", "arrow" or
            "polars", the result alone brought to the driver; on ClickHouse
            "pandas" (the default), "arrow" or "polars", as chDB gives them.
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
    optional = {role: value for role, value in (("items", items), ("train", train)) if value is not None}
    given = {"recommendations": recommendations, "interactions": interactions, **optional}
    engine = engine_for("evaluate", con, given)
    output = engine.check_output("evaluate", output)
    arguments = macro_arguments("evaluate", metrics, k, group_by, per_user, options, partition_by, confidence,
                                bootstrap_resamples, seed)
    # The plan first: an invalid argument fails before anything touches a connection.
    plan = plan_of("evaluate", arguments, adapter_type=engine.adapter_type, items="items" in optional,
                   train="train" in optional)
    for unread in plan.unread_inputs:
        warnings.warn(unread["message"], RankwiseWarning, stacklevel=2)

    with engine.opened("evaluate", con, given, output=output,
                       settings={"memory_limit": memory_limit, "temp_directory": temp_directory},
                       text_keys=_checks.text_keys(plan)) as (running, inputs):
        # The means tell whether the tables share ids (shows_a_hit): the overlap
        # check then runs after them, and only when they show no hit.
        overlap_first = arguments["per_user"]
        # The value checks in the metric query itself where its plan allows
        # (one query of means): it has rows only when the inputs pass them.
        fused = validate and plan.checks_fuse and running.fuses_checks
        if fused:
            _checks.refuse_bad_columns(running, inputs, plan)
        elif validate:
            _checks.refuse_bad_input(running, inputs, plan, overlap=overlap_first)
        if validate:
            _checks.refuse_bad_optional_inputs(running, inputs, plan, list(optional))
        # Read even without validate, as compare reads its model column.
        _checks.refuse_a_missing_reference(running, inputs, plan)
        _checks.warn_of_an_unread_relevance(running, inputs, plan)

        def query(guarded: bool) -> str:
            return render(plan, _relations(inputs), guarded=guarded)

        result = running.run(query(fused))
        _checks.warn_of_dropped_rows(running, inputs, plan)
        if arguments["per_user"]:
            return running.returned(result, output)
        # Means are few rows: computed once, then read again for the warnings.
        if fused:
            computed = _checks.computed_when_checked(running, inputs, plan, result, lambda: running.run(query(False)))
        else:
            computed = running.computed(result)
        if validate and not overlap_first and not _checks.shows_a_hit(running, computed, plan):
            _checks.refuse_without_overlap(running, inputs, plan)
        _checks.warn_of_coverage(running, computed, plan)
        return running.returned(computed, output)


@documented
def exposure_by_item_group(
    recommendations: Any,
    interactions: Any,
    items: Any,
    k: int | Sequence[int | None] | None = None,
    *,
    item_group_col: str,
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    con: Any = None,
    validate: bool = True,
    output: Output | None = None,
    **options: Unpack[EvaluateOptions],
) -> Any:
    """Each item group's share of the exposure and of the relevance: the rows
    behind ``exposure_disparity@k``, for a chart (the report draws one).

    Runs the dbt macro ``rankwise.exposure_by_item_group`` on the engine
    :func:`evaluate` would pick, after the same checks (and those of the item
    groups: one per item, none null, every relevant item in the catalog).

    Args:
        recommendations: As for :func:`evaluate`.
        interactions: As for :func:`evaluate`: the relevant (user, item) pairs
            give the relevance shares.
        items: The catalog, with ``item_group_col``.
        k: The cutoffs: an int or a list; None (default) the whole list.
        item_group_col: The catalog's column naming each item's group.
        group_by: As for :func:`evaluate`.
        partition_by: As for :func:`evaluate`.
        con: As for :func:`evaluate`.
        validate: As for :func:`evaluate`.
        output: As for :func:`evaluate`.
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):
            ``exposure_model`` and ``exposure_persistence`` weigh the slots.

    Returns:
        One row per (group columns, ``k``, ``item_group``): ``n_items``,
        ``exposure``, ``exposure_share`` (E_g), ``n_relevant_pairs``,
        ``relevance_share`` (R_g) and ``exposure_ratio`` (E_g / R_g, null where
        R_g is 0), documented in docs/metrics.md, "exposure_by_item_group".
    """
    given = {"recommendations": recommendations, "interactions": interactions, "items": items}
    engine = engine_for("exposure_by_item_group", con, given)
    output = engine.check_output("exposure_by_item_group", output)
    arguments = macro_arguments("exposure_by_item_group", ["exposure_disparity"], k, group_by, False,
                                {**options, "item_group_col": item_group_col}, partition_by, None)
    plan = plan_of("exposure_by_item_group", arguments, adapter_type=engine.adapter_type, items=True)
    with engine.opened("exposure_by_item_group", con, given, output=output, settings={},
                       text_keys=_checks.text_keys(plan)) as (running, inputs):
        if validate:
            _checks.refuse_bad_input(running, inputs, plan, overlap=False)
            _checks.refuse_bad_optional_inputs(running, inputs, plan, ["items"])
        result = running.run(render(plan, _relations(inputs)))
        _checks.warn_of_dropped_rows(running, inputs, plan)
        return running.returned(result, output)


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
    adapter (``postgres__``, ``spark__``, ``snowflake__``...), exactly as dbt
    would compile them there (redshift through its own overrides, then
    postgres'). ``recommendations`` and ``interactions`` (and ``items`` and
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
    arguments = macro_arguments("sql", metrics, k, group_by, per_user, options, partition_by, confidence,
                                bootstrap_resamples, seed)
    adapter_type, written_in = DIALECT_ADAPTERS[dialect]
    names = {"recommendations": recommendations, "interactions": interactions, "items": items, "train": train}
    plan = plan_of("sql", arguments, adapter_type=adapter_type, items=items is not None, train=train is not None)
    rendered = render(plan, {role: None if name is None else quote_table_name(name, adapter_type)
                             for role, name in names.items()})
    if written_in == dialect:
        return rendered
    import sqlglot  # only here: evaluate() need not pay for its import

    return sqlglot.transpile(rendered, read=written_in, write=dialect, pretty=True)[0]


CHECK_COLUMNS = _checks.CHECK_COLUMNS


@documented
def check(
    recommendations: Any,
    interactions: Any,
    *,
    k: int | Sequence[int | None] | None = None,
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    con: Any = None,
    **options: Unpack[EvaluateOptions],
) -> Any:
    """A data-quality report of the two tables, to read before evaluating.

    Returns a pandas DataFrame with one row per kind of problem found: ``table``,
    ``severity`` ("error": :func:`evaluate` refuses the input; "note": allowed,
    but it changes what a mean covers), ``problem``, ``column``, ``n_rows`` (rows
    or users concerned), ``example`` and ``message``. Errors are missing columns,
    wrong types, empty tables, null ids, invalid ranks, scores or relevances and
    duplicates; notes are users in one table only, users without a relevant
    item, lists shorter than the largest ``k``, lists with tied scores, and the
    rows ``judged_only``, ``ignore_identical_ids`` or
    ``duplicate_recommendations='first'`` would drop before ranking.
    Arguments are those of :func:`evaluate`, checked as it checks them, so that
    the options an evaluation will use can be passed here first. An empty report
    means nothing to report. Spark DataFrames are checked in their session, and
    the tables of a chDB session in it (the report, a few rows, is pandas on
    every engine).

    Args:
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):
    """
    import pandas as pd

    given = {"recommendations": recommendations, "interactions": interactions}
    engine = engine_for("check", con, given)
    # any metric: the plan only resolves the options (entropy, which reads no
    # interactions, is planned under every one)
    arguments = macro_arguments("check", ["entropy"], k, group_by, False, options, partition_by)
    # The plan first: an invalid argument fails before anything touches a connection.
    plan = plan_of("check", arguments, adapter_type=engine.adapter_type)
    cutoffs = [cutoff for cutoff in (arguments["k"] if isinstance(arguments["k"], list) else [arguments["k"]])
               if cutoff is not None]
    largest_k = max(cutoffs) if cutoffs else None
    # Given as None, the threshold is refused (check never took None for it).
    threshold = None if options.get("relevance_threshold", 0) is None else plan.options["relevance_threshold"]
    # the notes' own arguments checked before anything touches a connection
    renderer(engine.adapter_type).call("_python_check_query", "notes", {
        "recommendations": "recommendations", "interactions": "interactions", "relevance_threshold": threshold,
        "k": largest_k, "group_by": arguments["group_by"] or [], "partition_by": plan.partition_by,
        **{name: plan.options[name] for name in ("user_col", "item_col", "score_col", "relevance_col")}})
    with engine.opened("check", con, given, output="pandas", settings={},
                       text_keys=_checks.text_keys(plan)) as (running, inputs):
        rows = _checks.report_rows(running, inputs, plan, threshold, largest_k)
    return pd.DataFrame(rows, columns=CHECK_COLUMNS)


def _relations(inputs: dict[str, Any]) -> dict[str, str | None]:
    """The SQL each input is read under, None for an optional one not given."""
    return {role: inputs[role].sql if role in inputs else None for role in ("recommendations", "interactions", "items", "train")}
