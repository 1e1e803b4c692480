"""rankwise.explain and rankwise.compare_sql: what rankwise.evaluate or
rankwise.compare will do, read off their plan (macros/planner/) without
touching any data: the plan in words, and the SQL of a comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from ._compare import Correction, Test, _compare_arguments
from ._options import EvaluateOptions, documented
from ._plan import Plan, _registry, macro_arguments, plan_of, render
from .engines import DIALECT_ADAPTERS, engine_fuses_checks, quote_table_name
from .errors import InvalidArgumentError

__all__ = ["compare_sql", "explain"]

_LEVELS = {
    "user": "per user (a value per user, averaged over the users of its set)",
    "list": "per list (a value per list, averaged over the lists with an item within k)",
    "group": "per group (one value per group of the output)",
}
_USER_SETS = {
    "interactions": "every user of the interactions; a user without a list scores 0",
    "both": "the users with a list and interactions",
    "relevant": "the users with a list and a relevant item",
}
_STRATEGY_NAMES = {"judged": "judged components", "means": "means", "lengths": "list lengths", "ideal": "IDCG",
                   "distance": "item distance"}


def _adapter_type(caller: str, dialect: str) -> str:
    if dialect not in DIALECT_ADAPTERS:
        raise InvalidArgumentError(
            f"rankwise.{caller}: argument `dialect` must be one of {', '.join(DIALECT_ADAPTERS)}; got {dialect!r}.")
    return DIALECT_ADAPTERS[dialect][0]


def _written_for(caller: str, plan: Plan, dialect: str, names: dict[str, str | None]) -> str:
    """The plan's SQL for table names, in a dialect (transpiled by sqlglot
    where the dialect has no adapter of its own)."""
    for role, name in names.items():
        if (role in ("recommendations", "interactions") or name is not None) and (not isinstance(name, str) or not name):
            raise InvalidArgumentError(f"rankwise.{caller}: argument `{role}` must be a table name; got {name!r}.")
    adapter_type, written_in = DIALECT_ADAPTERS[dialect]
    rendered = render(plan, {role: None if name is None else quote_table_name(name, adapter_type)
                             for role, name in names.items()})
    if written_in == dialect:
        return rendered
    import sqlglot  # only here: evaluate() need not pay for its import

    return sqlglot.transpile(rendered, read=written_in, write=dialect, pretty=True)[0]


@documented
def compare_sql(
    recommendations: str,
    interactions: str,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    model_col: str = "model",
    baseline: Any = None,
    dialect: str = "duckdb",
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    confidence: float = 0.95,
    tests: Sequence[Test] | Test = ("t",),
    n_resamples: int = 1000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    margin: float | None = None,
    equivalence: bool = False,
    items: str | None = None,
    train: str | None = None,
    **options: Unpack[EvaluateOptions],
) -> str:
    """The SQL :func:`rankwise.compare` runs, for two table names, in a SQL
    dialect: :func:`rankwise.sql` is evaluate's. The arguments are compare's;
    ``recommendations`` and ``interactions`` (and ``items`` and ``train`` when
    the metrics read them) are table names (``schema.table`` is split on the
    dot).

    Args:
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):
    """
    adapter_type = _adapter_type("compare_sql", dialect)
    statistics = {"confidence": confidence, "tests": tests, "n_resamples": n_resamples, "seed": seed,
                  "correction": correction, "alpha": alpha, "margin": margin, "equivalence": equivalence}
    arguments = _compare_arguments(metrics, k, model_col, baseline, group_by, partition_by, statistics, options)
    plan = plan_of("compare", arguments, adapter_type=adapter_type, items=items is not None, train=train is not None)
    return _written_for("compare_sql", plan, dialect, {"recommendations": recommendations,
                                                       "interactions": interactions, "items": items, "train": train})


@documented
def explain(
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    compare: bool = False,
    model_col: str = "model",
    baseline: Any = None,
    dialect: str = "duckdb",
    group_by: Sequence[str] | str | None = None,
    partition_by: Sequence[str] | str | None = None,
    per_user: bool = False,
    confidence: float | None = 0.95,
    bootstrap_resamples: int | None = None,
    tests: Sequence[Test] | Test = ("t",),
    n_resamples: int = 1000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    margin: float | None = None,
    equivalence: bool = False,
    items: Any = None,
    train: Any = None,
    validate: bool = True,
    **options: Unpack[EvaluateOptions],
) -> str:
    """The plan of :func:`rankwise.evaluate` (or, with ``compare``, of
    :func:`rankwise.compare`) in words, for someone asking why a number is
    what it is: the metrics by level and the users each mean is over, the
    inputs and the columns read, the checks that will run, the strategies
    chosen and why, and the stages of the query in order, one line each. No
    data is read: the plan depends on the arguments and the engine alone.

    Args:
        metrics: As for :func:`rankwise.evaluate` or :func:`rankwise.compare`.
        k: As for :func:`rankwise.evaluate`.
        compare: Explain rankwise.compare (its other arguments below) rather
            than rankwise.evaluate.
        dialect: The engine whose plan to explain (strategies differ between
            engines), as for :func:`rankwise.sql`.
        items, train: Anything but None says the input is given, as a table
            or a file would be.
        validate: Whether the checks will run, as for :func:`rankwise.evaluate`.
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):

    Returns:
        The explanation, as text.
    """
    adapter_type = _adapter_type("explain", dialect)
    if compare:
        statistics = {"confidence": confidence, "tests": tests, "n_resamples": n_resamples, "seed": seed,
                      "correction": correction, "alpha": alpha, "margin": margin, "equivalence": equivalence}
        arguments = _compare_arguments(metrics, k, model_col, baseline, group_by, partition_by, statistics, options)
    else:
        arguments = macro_arguments("explain", metrics, k, group_by, per_user, options, partition_by, confidence,
                                    bootstrap_resamples, seed)
    plan = plan_of("compare" if compare else "evaluate", arguments, adapter_type=adapter_type,
                   items=items is not None, train=train is not None)
    return _explanation(plan, dialect, validate)


def _explanation(plan: Plan, dialect: str, validate: bool) -> str:
    call = plan.call
    labels = ", ".join(metric["label"] for metric in plan.metrics)
    lines = [f"rankwise.{call} of {labels}, on {dialect}", ""]
    for warning in plan.unread_inputs:
        lines += [f"Note: {warning['message']}", ""]
    lines.append("Metrics")
    for level, words in _LEVELS.items():
        named = [metric["label"] for metric in plan.metrics if metric["level"] == level]
        if named:
            lines.append(f"  {words}: {', '.join(named)}")
    users = [(metric["label"], metric["users"]) for metric in plan.metrics if metric["level"] == "user"]
    if users:
        lines += ["", "The users each mean of a per-user metric is over (option `users`)"]
        lines += [f"  {label}: {_USER_SETS[users_set]}" for label, users_set in users]
    # the registry's summary: a total or a geometric mean in place of the mean
    summaries = [(metric["label"], _registry("metric_summary", metric=metric["name"])) for metric in plan.metrics
                 if metric["level"] == "user"]
    for summary, words in (("sum", "summed over those users (a total, with no interval)"),
                           ("geometric", "their geometric mean, each value floored at 1e-5 (no interval)")):
        named = [label for label, its in summaries if its == summary]
        if named:
            lines.append(f"  {', '.join(named)}: {words}")
    lines += ["", "Inputs and the columns read"]
    for role, columns in plan.columns_read.items():
        read = [f"{column} ({purpose})" for column, purpose in columns if column is not None]
        if role in ("recommendations", "interactions") or role in plan.inputs_read:
            lines.append(f"  {role}: {', '.join(read)}")
    group = ", ".join(plan.group_by) or "none (one group: every list)"
    lists = f"one per user in each ({', '.join(plan.list_keys)})" if plan.list_keys else "one per user"
    lines.append(f"  groups of the output: {group}; lists: {lists}")
    lines += ["", "Checks before the metrics", *(f"  {check}" for check in _checks(plan, validate, dialect))]
    descriptions = _registry("strategy_descriptions")
    # The IDCG strategy is set only when IDCG is computed, and under some of
    # its values (user_arrays, ranked_truth) another stage does the work.
    chosen = [(name, value) for name, value in plan.strategies.items()
              if value is not None and (name == "ideal" or any(stage.get("strategy") == name for stage in plan.stages))]
    if chosen:
        lines += ["", "Strategies (macros/planner/strategies.sql)"]
        lines += [f"  {_STRATEGY_NAMES.get(name, name)}: {value}, {descriptions[name][value]}" for name, value in chosen]
    lines += ["", "Stages, in the order the query writes them (macros/evaluate/stage_registry.sql)"]
    number = 0
    for stage in plan.stages:
        if stage["output"]:
            lines.append(f"  then the result: one row per {stage['row']} (rankwise.{stage['writes']})")
            continue
        number += 1
        lines.append(f"  {number:2d}. {stage['cte']}: one row per {stage['row']} (rankwise.{stage['writes']})")
    return "\n".join(lines) + "\n"


def _checks(plan: Plan, validate: bool, dialect: str) -> list[str]:
    """The checks evaluate (or compare) runs, in words: inside the metric query
    where the plan allows it and the wrapper's engine for `dialect` fuses them."""
    checks = ["the columns read exist, with types their purpose can use (ids strings or numbers of one kind in "
              "both tables, ranks, scores and relevances numbers)"]
    if not validate:
        return ["none of the inputs' values (validate=False), only that the columns read exist"]
    where = ("inside the metric query itself, which has rows only when they pass"
             if plan.checks_fuse and plan.call == "evaluate" and engine_fuses_checks(_adapter_type("explain", dialect))
             else "as queries of their own before the metric query")
    checks.append(f"no null id, no invalid rank, score or relevance, no item twice in a list or interaction twice, "
                  f"{where}")
    checks.append("the two tables share a user and an item (unless a mean above 0 shows it)")
    for role in plan.inputs_read:
        checks.append(f"the {role}: rows, the columns read, no null ids"
                      + (", every recommended item in the catalog" if role == "items" else ""))
    if plan.options.get("reference") is not None:
        checks.append(f"the reference model {plan.options['reference']!r} has lists")
    if plan.comparison and plan.comparison.get("baseline") is not None:
        checks.append(f"the baseline {plan.comparison['baseline']!r} is a value of the model column")
    return checks
