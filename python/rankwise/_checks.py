"""Checks of the inputs, run before any metric SQL so that bad input gets a clear
rankwise error, not an engine's error or a silently wrong number. The column
checks read the engine-neutral column types of an input (rankwise.engines
.ColumnType); the value checks are the SQL of the macros recommendation_problems
and interaction_problems, rendered for the engine's adapter and run through it;
the options they depend on come from the plan (rankwise._plan). Every engine
gets every check, and every message. Here too: the warnings read off the means
(coverage_warnings) and the report of :func:`rankwise.check`."""

from __future__ import annotations

import difflib
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._plan import Plan
from ._render import MacroRenderer, renderer
from .engines import ColumnType, Engine, ResolvedInput
from .errors import (
    RankwiseWarning,
    InvalidArgumentError,
    ColumnTypeError,
    InputError,
    DuplicateRowsError,
    EmptyInputError,
    InvalidValueError,
    MissingColumnError,
    NoOverlapError,
)

# The exception class of each problem; what it means and how to fix it are the
# macro _problem_descriptions' (one wording with the package models').
_PROBLEM_KINDS: dict[str, type[InvalidValueError]] = {
    "duplicate_item": DuplicateRowsError,
    "duplicate_rank": DuplicateRowsError,
    "duplicate_interaction": DuplicateRowsError,
}


@dataclass(frozen=True)
class Problem:
    table: str
    problem: str
    column_name: str
    n_rows: int
    example: str | None

    def error(self) -> InvalidValueError:
        message = renderer().call("_python_message", "problem", {
            "table": self.table, "problem": self.problem, "column_name": self.column_name, "n_rows": self.n_rows,
            "example": self.example})
        kind = _PROBLEM_KINDS.get(self.problem, InvalidValueError)
        return kind(message, table=self.table, column=self.column_name, problem=self.problem,
                    n_rows=self.n_rows, example=self.example)


def _require(schema: dict[str, ColumnType], table: str, role: str, column: str) -> ColumnType:
    if column in schema:
        return schema[column]
    close = difflib.get_close_matches(column, list(schema), n=1)
    # the wording of the dbt macros' check of a relation's columns
    message = renderer().call("_python_message", "missing_column", {
        "column": column, "purpose": role, "table": table, "columns": list(schema), "suggestion": close[0] if close else None})
    raise MissingColumnError(message, table=table, column=column)


def require_column(engine: Engine, resolved: ResolvedInput, role: str, column: str) -> None:
    """Raises MissingColumnError unless the input has `column` (its `role` in
    the message, such as "model column")."""
    _require(engine.column_types(resolved), resolved.label, role, column)


# What a column read for each purpose must hold; which columns are read, and
# for what, is the planner's (the plan's columns_read).
_ID_PURPOSES = ("user id", "item id")
_NUMERIC_PURPOSES = ("score", "rank", "relevance", "propensity")
_GROUP_PURPOSES = ("group_by column", "model column")


def check_columns(engine: Engine, recommendations: ResolvedInput, interactions: ResolvedInput,
                  columns_read: Mapping[str, Sequence[tuple[str | None, str]]], *, rows: bool = True) -> None:
    """Both tables have rows (unless `rows` is false, for a query that checks
    that itself), and every column the plan reads of them (`columns_read`: per
    input, its (column, purpose) pairs) exists and has a type its purpose can
    use: ids strings or numbers of one kind in both tables, ranks, scores,
    relevances and propensities numbers, the partition columns of one kind in
    both, the user group column in the interactions alone."""
    tables = {"recommendations": engine.column_types(recommendations), "interactions": engine.column_types(interactions)}
    for resolved in engine.empty_inputs([recommendations, interactions]) if rows else []:
        raise EmptyInputError(f"rankwise: the {resolved.label} is empty: there is nothing to evaluate.", table=resolved.label)
    labels = {"recommendations": recommendations.label, "interactions": interactions.label}
    read = {role: [(column, purpose) for column, purpose in columns_read[role] if column is not None] for role in tables}
    kinds: dict[tuple[str, str], ColumnType] = {}
    for role, schema in tables.items():
        for column, purpose in read[role]:
            if purpose not in _ID_PURPOSES:
                continue
            kind = _require(schema, labels[role], purpose, column)
            if kind.family == "nested":
                raise ColumnTypeError(
                    f"rankwise: the {purpose} column '{column}' of the {labels[role]} is of type {kind.name}; "
                    "ids must be strings or numbers.", table=labels[role], column=column)
            kinds[(role, column)] = kind
    for column, purpose in read["recommendations"]:
        if purpose in _ID_PURPOSES:
            _check_comparable(purpose, column, (kinds[("recommendations", column)], kinds[("interactions", column)]),
                              labels, "cast one so that both are strings or both numbers")
    for role, schema in tables.items():
        for column, purpose in read[role]:
            if purpose in _NUMERIC_PURPOSES and not _require(schema, labels[role], purpose, column).numeric:
                raise ColumnTypeError(
                    f"rankwise: the {purpose} column '{column}' of the {labels[role]} is of type "
                    f"{schema[column].name}; it must be numeric.", table=labels[role], column=column)
    for column, purpose in read["recommendations"]:
        if purpose in _GROUP_PURPOSES:
            _require(tables["recommendations"], labels["recommendations"], purpose, column)
    for column, purpose in read["interactions"]:
        if purpose != "user group":
            continue
        _require(tables["interactions"], labels["interactions"], purpose, column)
        if column in tables["recommendations"]:
            raise InvalidArgumentError(
                f"rankwise: the {labels['recommendations']} have a column '{column}' too, the name of the user "
                "group column of the interactions (`user_group_col`), which the lists take their user's group under; "
                "rename one of them.")
    for column, purpose in read["recommendations"]:
        if purpose == "partition_by column":
            found = tuple(_require(tables[role], labels[role], purpose, column) for role in tables)
            _check_comparable("partition_by", column, found, labels, "cast one so that both are of one type")


def check_optional_inputs(
    engine: Engine,
    recommendations: ResolvedInput,
    optional: dict[str, ResolvedInput],
    columns_read: Mapping[str, Sequence[tuple[str, str]]],
    *,
    cosine: bool = False,
    interactions: ResolvedInput | None = None,
    relevance_col: str | None = None,
    relevance_threshold: float = 1,
) -> None:
    """The catalog (`items`) and the train interactions (`train`), when given:
    rows, the columns the plan reads of them (`columns_read`) with ids of the
    recommendations' kind, no null ids, and every recommended item in the
    catalog; with the features that intra_list_diversity reads, one row per
    item, no null feature, and for a cosine distance numbers (or arrays of
    numbers) that make a vector of one length other than zero; with an item
    group column, one group per item, none null, and every relevant item of
    `interactions` (given when the relevant items' groups are read) in the
    catalog."""
    shown = engine.column_types(recommendations)
    for role, resolved in optional.items():
        schema = engine.column_types(resolved)
        if engine.empty_inputs([resolved]):
            raise EmptyInputError(f"rankwise: the {resolved.label} is empty: "
                                  + ("a catalog has at least the recommended items." if role == "items"
                                     else "popularity needs train interactions."), table=resolved.label)
        read = list(columns_read[role])
        of_purpose = {purpose: [column for column, kind in read if kind == purpose] for _, purpose in read}
        item_col = of_purpose["item id"][0]
        labels = {"recommendations": recommendations.label, "interactions": resolved.label}
        for column, purpose in read:
            if purpose in ("user id", "item id", "partition_by column"):
                kind = _require(schema, resolved.label, purpose, column)
                _check_comparable(purpose, column, (shown[column], kind), labels,
                                  "cast one so that both are strings or both numbers")
        vector_col = (of_purpose.get("item vector") or [None])[0]
        feature_cols = of_purpose.get("item feature", [])
        group_col = (of_purpose.get("item group") or [None])[0]
        if role == "items":
            _check_item_features(schema, resolved.label, vector_col, feature_cols, cosine)
            if group_col is not None:
                _require(schema, resolved.label, "item group", group_col)
        relevance_shares = role == "items" and group_col is not None and interactions is not None
        if role == "items":
            query = _check_query(engine, "catalog_problems", recommendations=recommendations.sql, items=resolved.sql,
                                 item_col=item_col, vector_col=vector_col, feature_cols=feature_cols, cosine=cosine,
                                 group_col=group_col,
                                 **({"interactions": interactions.sql, "relevance_col": relevance_col,
                                     "relevance_threshold": relevance_threshold} if relevance_shares else {}))
        else:
            query = _check_query(engine, "train_problems", train=resolved.sql, user_col=of_purpose["user id"][0],
                                 item_col=item_col)
        for problem, column_name, n_rows, example in engine.rows(query):
            if n_rows:
                table = {"item_not_in_catalog": recommendations.label,
                         "relevant_item_not_in_catalog": interactions.label if interactions else resolved.label,
                         }.get(problem, resolved.label)
                raise Problem(table, problem, column_name, int(n_rows), example).error()


def _check_item_features(schema: dict[str, ColumnType], label: str, vector_col: str | None,
                         feature_cols: Sequence[str], cosine: bool) -> None:
    """The catalog has the feature columns intra_list_diversity reads; a cosine
    reads numbers, or a vector of them."""
    for column in feature_cols:
        kind = _require(schema, label, "item feature", column)
        if cosine and not kind.numeric:
            raise ColumnTypeError(
                f"rankwise: the item feature column '{column}' of the {label} is {kind.name}, but "
                "item_distance='cosine' makes a vector of the feature columns, which must be numbers; cast it, or "
                "use item_distance='hamming' to count the features two items differ in.", table=label, column=column)
    if vector_col is not None:
        kind = _require(schema, label, "item vector", vector_col)
        if kind.element is None or not kind.element.numeric:
            raise ColumnTypeError(
                f"rankwise: the item vector column '{vector_col}' of the {label} is {kind.name}, but "
                "item_distance='cosine' reads an array of numbers (DOUBLE[]) per item.", table=label, column=vector_col)


def _check_query(engine: Engine, check: str, **arguments: Any) -> str:
    """The SQL of one input check, for the engine's adapter (the contract's
    _python_check_query)."""
    return engine.macros.call("_python_check_query", check, arguments)


def _check_comparable(purpose: str, column: str, kinds: tuple[ColumnType, ColumnType], labels: dict[str, str],
                      fix: str) -> None:
    """A column both tables join on holds values the two can compare: strings
    with strings, numbers with numbers, any other type with itself."""
    if len({kind.compares_as for kind in kinds} - {None}) > 1:
        raise ColumnTypeError(
            f"rankwise: the {purpose} column '{column}' is {kinds[0].name} in the {labels['recommendations']} "
            f"but {kinds[1].name} in the {labels['interactions']}; {fix}.",
            table=labels["interactions"], column=column)


def problems(
    engine: Engine,
    recommendations: ResolvedInput,
    interactions: ResolvedInput,
    *,
    user_col: str,
    item_col: str,
    rank_col: str,
    score_col: str | None,
    relevance_col: str | None,
    group_by: Sequence[str],
    partition_by: Sequence[str] = (),
    duplicate_interactions: str = "error",
    duplicate_recommendations: str = "error",
    negative_relevance: str = "error",
    gain: str | None = None,
    propensity_col: str | None = None,
    user_group_col: str | None = None,
) -> list[Problem]:
    """Every value problem of both tables; `gain` is the resolved gain, which
    decides whether a relevance can be too large."""
    query = _check_query(
        engine, "input_problems",
        recommendations={"recommendations": recommendations.sql, "user_col": user_col, "item_col": item_col,
                         "rank_col": rank_col, "score_col": score_col, "group_by": list(group_by)},
        interactions={"interactions": interactions.sql, "user_col": user_col, "item_col": item_col,
                      "relevance_col": relevance_col, "gain": gain, "partition_by": list(partition_by),
                      "propensity_col": propensity_col, "user_group_col": user_group_col})
    tables = (recommendations.label, interactions.label)
    return [Problem(tables[table], problem, column_name, int(n_rows), example)
            for table, problem, column_name, n_rows, example in engine.rows(query)
            if not (problem == "duplicate_interaction" and duplicate_interactions == "max")
            and not (problem == "duplicate_item" and duplicate_recommendations == "first")
            and not (problem == "negative_relevance" and negative_relevance == "pooled")]


def notes(
    engine: Engine,
    recommendations: ResolvedInput,
    interactions: ResolvedInput,
    *,
    user_col: str,
    item_col: str,
    score_col: str | None,
    relevance_col: str | None,
    relevance_threshold: float,
    k: int | None,
    group_by: Sequence[str],
    partition_by: Sequence[str] = (),
) -> list[tuple[str, str, int, str | None]]:
    """Facts that are not errors (one-sided users, users without a relevant item,
    short lists, tied scores), from the macro evaluation_notes."""
    query = _check_query(engine, "notes", recommendations=recommendations.sql, interactions=interactions.sql,
                         user_col=user_col, item_col=item_col, score_col=score_col, relevance_col=relevance_col,
                         relevance_threshold=relevance_threshold, k=k, group_by=list(group_by),
                         partition_by=list(partition_by))
    return [(problem, column, int(n_rows), example) for problem, column, n_rows, example in engine.rows(query)]


def text_key_columns(engine: Engine, inputs: dict[str, ResolvedInput], *, user_col: str,
                     item_col: str, group_by: Sequence[str]) -> list[str]:
    """The id and group columns that hold text in either input, which a collation
    would compare; a column an input lacks is left to check_columns."""
    found = []
    for resolved in inputs.values():
        schema = engine.column_types(resolved)
        for column in (user_col, item_col, *group_by):
            if column in schema and schema[column].family == "string" and column not in found:
                found.append(column)
    return found


def overlap_errors(
    engine: Engine,
    recommendations: ResolvedInput,
    interactions: ResolvedInput,
    *,
    user_col: str,
    item_col: str,
    partition_by: Sequence[str] = (),
) -> list[NoOverlapError]:
    """An error for each kind of id (user, item) of which the two tables share
    none, from the macro id_overlap: ids written differently in the two tables
    (case, type, a prefix) would otherwise give an empty or all-zero result."""
    tables = {"recommendations": recommendations.sql, "interactions": interactions.sql, "user_col": user_col,
              "item_col": item_col, "partition_by": list(partition_by)}
    if all(engine.rows(_check_query(engine, "ids_shared", **tables))[0]):
        return []
    query = _check_query(engine, "id_overlap", **tables)
    schemas = {"recommendations": engine.column_types(recommendations),
               "interactions": engine.column_types(interactions)}
    found = []
    for kind, column, n_recommended, n_judged, n_common, recommended_example, judged_example in engine.rows(query):
        if n_common > 0 or n_recommended == 0 or n_judged == 0:
            continue
        types = {role: schema[column].name for role, schema in schemas.items()}
        within = (f" within the same {', '.join(partition_by)}" if kind == "user" and partition_by else "")
        found.append(NoOverlapError(
            f"rankwise: no {kind} id of the {recommendations.label} occurs in the {interactions.label}{within}, so no "
            f"list can be judged: column '{column}' holds {n_recommended} ids of type {types['recommendations']} in "
            f"the {recommendations.label} (e.g. {recommended_example!r}) and {n_judged} of type "
            f"{types['interactions']} in the {interactions.label} (e.g. {judged_example!r}). Write the ids the same way in both tables "
            "(the same case, type and prefix), or check that these are the tables you meant.",
            table=interactions.label, column=column, problem=f"no_common_{kind}s"))
    return found


# Words that name a relevance-like column: read by name, a column called
# `rating` left out of relevance_col would make every interaction relevant.
_RELEVANCE_WORDS = frozenset({"relevance", "rel", "rating", "ratings", "score", "weight", "label", "grade", "gain",
                              "judgment", "judgement", "stars", "preference", "feedback", "clicks", "qrel"})


def unread_relevance_column(engine: Engine, interactions: ResolvedInput, *, relevance_col: str | None,
                            key_columns: Sequence[str]) -> str | None:
    """A numeric column of the interactions whose name says relevance (rating,
    score, grade...) while relevance_col is not given, or None."""
    if relevance_col is not None:
        return None
    for column, kind in engine.column_types(interactions).items():
        words = {word for word in re.split(r"[^a-z0-9]+", column.lower()) if word}
        if column not in key_columns and kind.numeric and words & _RELEVANCE_WORDS:
            return column
    return None


UNREAD_RELEVANCE = ("rankwise: the {table} have a column '{column}' that looks like a relevance, but relevance_col "
                    "is not given, so every interaction counts as relevant (relevance 1) and '{column}' is not read "
                    "or checked. Pass relevance_col='{column}' to use it.")


# The options naming the inputs' columns the checks read (check_columns, problems).
_INPUT_COLUMNS = ("user_col", "item_col", "rank_col", "score_col", "relevance_col", "propensity_col", "user_group_col")


def _columns(plan: Plan, *names: str) -> dict[str, Any]:
    return {name: plan.options[name] for name in names}


def text_keys(plan: Plan) -> Any:
    """The text key columns of the inputs, for the engine's collation check."""
    def of(engine: Engine, inputs: dict[str, ResolvedInput]) -> list[str]:
        return text_key_columns(engine, inputs, user_col=plan.options["user_col"], item_col=plan.options["item_col"],
                                group_by=plan.list_keys)
    return of


def refuse_bad_columns(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan, *, rows: bool = False) -> None:
    """Raises the first problem of the inputs' columns (missing, of a wrong
    type), and with `rows` an empty table: without, what the query with the
    checks fused into it cannot check."""
    check_columns(engine, inputs["recommendations"], inputs["interactions"], plan.columns_read, rows=rows)


def refuse_bad_input(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan, *,
                     overlap: bool = True) -> None:
    """Raises the first problem of the inputs; with `overlap`, also when the two
    tables share no user or no item."""
    refuse_bad_columns(engine, inputs, plan, rows=True)
    found = problems(engine, inputs["recommendations"], inputs["interactions"], group_by=plan.list_keys,
                     partition_by=plan.partition_by,
                     duplicate_interactions=plan.options["duplicate_interactions"],
                     duplicate_recommendations=plan.options["duplicate_recommendations"],
                     negative_relevance=plan.options["negative_relevance"], gain=plan.options["gain"],
                     **_columns(plan, *_INPUT_COLUMNS))
    if found:
        raise found[0].error()
    if overlap:
        refuse_without_overlap(engine, inputs, plan)


def model_values(engine: Engine, recommendations_sql: str, model_col: str) -> tuple[list[Any], str]:
    """Up to 21 values of the model column, and the first 20 as a message shows
    them."""
    models = [row[0] for row in engine.rows(_check_query(engine, "model_values", recommendations=recommendations_sql,
                                                         model_col=model_col))]
    return models, ", ".join(map(repr, models[:20])) + (", ..." if len(models) > 20 else "")


def refuse_a_missing_reference(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan) -> None:
    """The reference model of rbo and intersection must have lists: without, every
    list would have no value, and the means no row."""
    refuse_a_missing_model(engine, inputs["recommendations"], plan.options["model_col"], plan.options["reference"],
                           "evaluate", "reference")


def refuse_a_missing_model(engine: Engine, recommendations: ResolvedInput, model_col: str, model: Any, caller: str,
                           role: str) -> None:
    """A model a call names (evaluate's reference, compare's baseline) must be
    a value of the model column, said before the query that reads it runs. One
    row is looked up, so it is checked even without validate; the values are
    listed only when it is missing."""
    if model is None:
        return
    if engine.rows(_check_query(engine, "model_present", recommendations=recommendations.sql, model_col=model_col,
                                model=model, caller=caller)):
        return
    _, shown = model_values(engine, recommendations.sql, model_col)
    raise InvalidArgumentError(
        f"rankwise.{caller}: the {role} {model!r} is not a value of the model column '{model_col}' of the "
        f"{recommendations.label}; its values: {shown or 'none'}.")


def refuse_without_overlap(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan) -> None:
    for error in overlap_errors(engine, inputs["recommendations"], inputs["interactions"],
                                user_col=plan.options["user_col"], item_col=plan.options["item_col"],
                                partition_by=plan.partition_by):
        raise error


def refuse_bad_optional_inputs(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan,
                               given: Sequence[str]) -> None:
    """The problems of the catalog and the train interactions given and read."""
    check_optional_inputs(engine, inputs["recommendations"], {role: inputs[role] for role in given if role in plan.inputs_read},
                          plan.columns_read, cosine=plan.options["item_distance"] == "cosine",
                          interactions=inputs["interactions"] if plan.relevant_item_groups else None,
                          relevance_col=plan.options["relevance_col"],
                          relevance_threshold=plan.options["relevance_threshold"])


def warn_of_an_unread_relevance(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan) -> None:
    unread = unread_relevance_column(engine, inputs["interactions"], relevance_col=plan.options["relevance_col"],
                                     key_columns=[plan.options["user_col"], plan.options["item_col"], *plan.partition_by])
    if unread is not None:
        warnings.warn(UNREAD_RELEVANCE.format(table=inputs["interactions"].label, column=unread),
                      RankwiseWarning, stacklevel=3)


def computed_when_checked(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan, guarded: Any,
                          unguarded: Callable[[], Any]) -> Any:
    """The means of the query with the value checks fused into it (macro
    _guarded_evaluate), computed. It has no row when a check fails, and the
    checks' own queries then name the problem (refuse_bad_input raises it), as
    they do when the engine fails on data they refuse. When they find none, the
    means were empty on their own account: the query without the checks
    (`unguarded`) gives them."""
    try:
        computed = engine.computed(guarded)
    except Exception:
        try:
            refuse_bad_input(engine, inputs, plan, overlap=False)
        except InputError as error:
            raise error from None
        raise
    if not is_empty(engine, computed):
        return computed
    refuse_bad_input(engine, inputs, plan, overlap=False)
    return engine.computed(unguarded())


def is_empty(engine: Engine, computed: Any) -> bool:
    return not engine.read(computed, [])


def shows_a_hit(engine: Engine, means: Any, plan: Plan, values: Sequence[str] = ("value",)) -> bool:
    """Whether a mean proves that some list holds a relevant item of its user,
    so that the tables share a user and an item: a mean above 0 of a metric the
    plan names (macro _metrics_shown_by_a_hit). `means` is the engine's computed
    result (evaluate's means, or a comparison: its columns `values` hold the
    means), whose values are read as they are returned (a null mean, NaN in a
    DataFrame, is not above 0: without a hit shown, the overlap check decides)."""
    names = set(plan.metrics_shown_by_a_hit)
    return bool(names) and any(row[0] in names and any(not _null(value) and value > 0 for value in row[1:])
                               for row in engine.read(means, ["metric", *values]))


def _null(value: Any) -> bool:
    """A value read off a result that SQL would read as null: None, NaN, or
    pandas' NA (whose comparisons are NA)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return True


def may_warn_of_coverage(rows: list[tuple[Any, Any]]) -> bool:
    """Whether the macro coverage_warnings can find a warning in means whose
    (n_users, n_users_without_list) are `rows`: only where a user lacks a list
    or means are over different numbers of users. The rows its query reads
    (n_users_without_list not null) are read here; a null n_users leaves the
    question to the query."""
    read = [(n_users, without_list) for n_users, without_list in rows if not _null(without_list)]
    return any(_null(n_users) or without_list != 0 for n_users, without_list in read) or len({n for n, _ in read}) > 1


def warn_of_coverage(engine: Engine, means: Any, plan: Plan) -> None:
    """A RankwiseWarning for each warning the macro coverage_warnings finds in
    the means: groups scored on different users, groups with lists for few of
    the users with ground truth. Its query runs only when the means' counts
    leave it something to find."""
    if not may_warn_of_coverage(engine.read(means, ["n_users", "n_users_without_list"])):
        return

    def query(relation: str, macros: MacroRenderer) -> str:
        return macros.call("_python_check_query", "coverage_warnings", {
            "evaluation": relation, "group_by": plan.group_by, "partition_by": plan.partition_by,
            "users": plan.options["users"]})
    for _, message in engine.rows_over(means, query):
        warnings.warn(message, RankwiseWarning, stacklevel=4)


def dropped_rows(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan) -> tuple[int, str] | None:
    """The rows dropped before ranking (judged_only, ignore_identical_ids,
    duplicate_recommendations='first'; macro dropped_recommendations) and the
    sentence that says so; None when the options drop none."""
    options = plan.options
    if not (options["judged_only"] or options["ignore_identical_ids"] or options["duplicate_recommendations"] == "first"):
        return None
    query = _check_query(engine, "dropped_rows", recommendations=inputs["recommendations"].sql,
                         interactions=inputs["interactions"].sql, user_col=options["user_col"],
                         item_col=options["item_col"], rank_col=None if options["score_col"] else options["rank_col"],
                         score_col=options["score_col"], group_by=[key for key in plan.list_keys
                                                                   if key != options["user_group_col"]],
                         partition_by=plan.partition_by, judged_only=options["judged_only"],
                         ignore_identical_ids=options["ignore_identical_ids"],
                         duplicate_recommendations=options["duplicate_recommendations"])
    n_unjudged, n_identical, n_repeated, n_lists, n_emptied = (int(value) for value in engine.rows(query)[0])
    reasons = [f"{count} {what} ({option})" for count, what, option in (
        (n_unjudged, "unjudged item(s), not in their user's interactions", "judged_only"),
        (n_identical, "item(s) whose id is their user's", "ignore_identical_ids"),
        (n_repeated, "repeat(s) of an item already in its list", "duplicate_recommendations='first'")) if count]
    if not reasons:
        return None
    emptied = (f"; {n_emptied} list(s) kept no item and count as users without a list" if n_emptied else "")
    return n_lists, (f"rankwise: {' and '.join(reasons)} were dropped from {n_lists} list(s) of the "
                     f"{inputs['recommendations'].label} before ranking{emptied}.")


def warn_of_dropped_rows(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan) -> None:
    """A RankwiseWarning that counts the rows dropped before ranking, when any
    is: a number read without them is not the number of the table given."""
    found = dropped_rows(engine, inputs, plan)
    if found is not None:
        warnings.warn(found[1], RankwiseWarning, stacklevel=4)


CHECK_COLUMNS = ["table", "severity", "problem", "column", "n_rows", "example", "message"]

_COLUMN_PROBLEMS = {
    "MissingColumnError": "missing_column",
    "ColumnTypeError": "wrong_type",
    "EmptyInputError": "empty_table",
}


def report_rows(engine: Engine, inputs: dict[str, ResolvedInput], plan: Plan,
                relevance_threshold: Any, largest_k: int | None) -> list[tuple]:
    """The rows of :func:`rankwise.check`'s report (CHECK_COLUMNS): the errors
    evaluate would raise, then the notes."""
    partition_by = plan.partition_by
    group_by = plan.group_by
    columns = _columns(plan, *_INPUT_COLUMNS)
    rows: list[tuple] = []
    try:
        check_columns(engine, inputs["recommendations"], inputs["interactions"], plan.columns_read)
    except InputError as error:
        problem = _COLUMN_PROBLEMS.get(type(error).__name__, "unreadable_input")
        return [(error.table, "error", problem, error.column, None, None, str(error))]
    for found in problems(engine, inputs["recommendations"], inputs["interactions"],
                          group_by=plan.list_keys, partition_by=partition_by,
                          duplicate_interactions=plan.options["duplicate_interactions"],
                          duplicate_recommendations=plan.options["duplicate_recommendations"],
                          negative_relevance=plan.options["negative_relevance"], gain=plan.options["gain"],
                          **columns):
        rows.append((found.table, "error", found.problem, found.column_name, found.n_rows, found.example,
                     str(found.error())))
    for error in overlap_errors(engine, inputs["recommendations"], inputs["interactions"], user_col=columns["user_col"],
                                item_col=columns["item_col"], partition_by=partition_by):
        rows.append((error.table, "error", error.problem, error.column, None, None, str(error)))
    unread = unread_relevance_column(engine, inputs["interactions"], relevance_col=columns["relevance_col"],
                                     key_columns=[columns["user_col"], columns["item_col"], *partition_by])
    if unread is not None:
        rows.append((inputs["interactions"].label, "note", "relevance_column_not_read", unread, None, None,
                     UNREAD_RELEVANCE.format(table=inputs["interactions"].label, column=unread)))
    macros = engine.macros
    for problem, column, n_rows, example in notes(engine, inputs["recommendations"], inputs["interactions"],
                                                  relevance_threshold=relevance_threshold, k=largest_k,
                                                  group_by=group_by, partition_by=partition_by,
                                                  **{name: columns[name] for name in columns
                                                     if name not in ("rank_col", "propensity_col", "user_group_col")}):
        note = macros.call("_python_message", "note", {"problem": problem, "n_rows": n_rows, "example": example})
        rows.append((inputs[note["table"]].label, "note", problem, column, n_rows, example, note["message"]))
    dropped = dropped_rows(engine, inputs, plan)
    if dropped is not None:
        rows.append((inputs["recommendations"].label, "note", "rows_dropped_before_ranking", columns["item_col"],
                     dropped[0], None, dropped[1]))
    return rows
