"""rankwise.compare and rankwise.comparison_table: the dbt macro compare, rendered
and run on an engine (DuckDB, Spark for Spark DataFrames, ClickHouse for the
tables of a chDB session), and its result laid out as ranx lays out its
comparisons."""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from typing import Any, Literal, Unpack

from . import _checks
from ._options import EvaluateOptions, documented, plain
from ._plan import _registry, macro_arguments, plan_of, render
from ._render import renderer
from .engines import Engine, Output, engine_for
from .errors import InvalidArgumentError, RankwiseWarning

Test = Literal["t", "randomization", "bootstrap"]
Correction = Literal["holm", "bh", "none"]
TableFormat = Literal["markdown", "latex", "csv", "json", "dataframe"]


def _compare_arguments(metrics: Any, k: Any, model_col: Any, baseline: Any, group_by: Any, partition_by: Any,
                       statistics: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The macro's keyword arguments, every option resolved as evaluate resolves
    it, numpy scalars made Python values."""
    arguments = macro_arguments("compare", metrics, k, group_by, False, options, partition_by)
    for evaluate_only in ("per_user", "bootstrap_resamples", "seed", "confidence"):
        del arguments[evaluate_only]
    tests = plain(statistics["tests"])
    arguments.update({
        "model_col": plain(model_col),
        "baseline": plain(baseline),
        **{name: plain(value) for name, value in statistics.items()},
        "tests": [tests] if isinstance(tests, str) else list(tests) if isinstance(tests, (list, tuple)) else tests,
    })
    return arguments


@documented
def compare(
    recommendations: Any,
    interactions: Any,
    metrics: Sequence[str] | str,
    k: int | Sequence[int | None] | None = None,
    *,
    model_col: str = "model",
    baseline: Any = None,
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
    items: Any = None,
    train: Any = None,
    con: Any = None,
    validate: bool = True,
    memory_limit: str | None = None,
    temp_directory: str | os.PathLike[str] | None = None,
    output: Output | None = None,
    **options: Unpack[EvaluateOptions],
) -> Any:
    """Compares models on paired per-user values: is one really better?

    Runs the SQL of the dbt macro ``rankwise.compare``. For each (group, metric,
    k) and each model against the baseline (or every pair of models once), the
    users both are scored on (evaluate's population: by default every user with
    ground truth, a missing list scoring 0) give one difference each; the result
    is their mean with its Student t interval, Cohen's d_z, the two-sided paired
    t test, and on request a sign-flip randomization test and a Poisson bootstrap
    interval, with p-values corrected over every row, and the smallest
    difference the t test would have detected with 80% power. docs/statistics.md
    has the formulas and which test to use when.

    Args:
        recommendations: The ranked lists of every model, as for :func:`evaluate`,
            with a column naming the model (``model_col``).
        interactions: The truth, as for :func:`evaluate`.
        metrics: Metric names, each optionally @k, as for :func:`evaluate`:
            the per-user metrics (not idcg, which does not depend on the
            model) and the list-level ones (novelty, arp, popularity_lift,
            miscalibration...), whose users in a pair are those with a value
            under both models; not entropy and the other metrics with one
            value per group.
        k: Cutoffs for the metrics given without ``@k``.
        model_col: The column of the recommendations that tells the models apart.
        baseline: The model every other is compared with (a value of
            ``model_col``); None compares every pair once, the model first in
            byte order of its name as text.
        group_by: Further columns of the recommendations that split the
            comparison (a segment, a run...).
        partition_by: Columns both inputs have (fold, week...), as for
            :func:`evaluate`.
        confidence: The level of the intervals, strictly between 0 and 1.
        tests: Any of "t" (always computed: ``t_statistic``, ``p_value``),
            "randomization" (``p_randomization``: Fisher's sign-flip test) and
            "bootstrap" (``bootstrap_ci_low``/``bootstrap_ci_high``).
        n_resamples: Resamples of the randomization test and the bootstrap.
        seed: The integer the resamples are drawn from; the same seed gives the
            same p on every engine.
        correction: "holm", "bh" (Benjamini-Hochberg) or "none": how
            ``p_adjusted`` corrects the p-values of every row of the result (of
            the randomization test when it is asked and "t" is not, else of the t
            test).
        alpha: ``significant`` is ``p_adjusted < alpha``.
        margin: How much worse than the baseline still counts as no worse, on
            the metric's scale (0.01 for NDCG 0.01 lower): adds
            ``p_non_inferiority``, the one-sided paired t p-value of "the model
            is no worse than the baseline by more than the margin" (H0: mean
            difference <= -margin), and its corrected ``p_non_inferiority_adjusted``.
        equivalence: With ``margin``, adds ``p_equivalence``: the larger p of
            the two one-sided tests against -margin and +margin (TOST), and
            ``p_equivalence_adjusted``.
        items, train: The catalog and the train interactions, as for
            :func:`evaluate`, for the list-level metrics that read them.
        con, validate, memory_limit, temp_directory, output: As for
            :func:`evaluate`.
        **options: The columns and conventions (:class:`rankwise.EvaluateOptions`):

    Returns:
        One row per (group columns, metric, k, model, baseline): ``metric_label``,
        ``n_users``, ``mean``, ``baseline_mean``, ``diff``, ``relative_diff``,
        ``ci_low``, ``ci_high``, ``effect_size``, ``t_statistic``, ``p_value``,
        [``p_randomization``], [``bootstrap_ci_low``, ``bootstrap_ci_high``],
        ``p_adjusted``, [``p_non_inferiority``, ``p_non_inferiority_adjusted``],
        [``p_equivalence``, ``p_equivalence_adjusted``],
        ``minimum_detectable_difference`` (the smallest true mean difference the
        two-sided t test detects with 80% power at the row's alpha after the
        correction: alpha / the number of tests under Holm and
        Benjamini-Hochberg), ``wins``, ``ties``, ``losses``, ``significant``.

    Raises:
        rankwise.errors.InvalidArgumentError: an argument is invalid, or the
            baseline is not a model of the recommendations.
        rankwise.errors.InputError: as for :func:`evaluate`.
    """
    optional = {role: value for role, value in (("items", items), ("train", train)) if value is not None}
    given = {"recommendations": recommendations, "interactions": interactions, **optional}
    engine = engine_for("compare", con, given)
    output = engine.check_output("compare", output)
    statistics = {"confidence": confidence, "tests": tests, "n_resamples": n_resamples, "seed": seed,
                  "correction": correction, "alpha": alpha, "margin": margin, "equivalence": equivalence}
    arguments = _compare_arguments(metrics, k, model_col, baseline, group_by, partition_by, statistics, options)
    # The plan first: an invalid argument fails before anything touches a connection.
    plan = plan_of("compare", arguments, adapter_type=engine.adapter_type, items="items" in optional,
                   train="train" in optional)
    for unread in plan.unread_inputs:
        warnings.warn(unread["message"], RankwiseWarning, stacklevel=2)
    with engine.opened("compare", con, given, output=output,
                       settings={"memory_limit": memory_limit, "temp_directory": temp_directory},
                       text_keys=_checks.text_keys(plan)) as (running, inputs):
        # Named as the model column, not as one more group column; read even
        # without validate, as it costs no pass over the data.
        _checks.require_column(running, inputs["recommendations"], "model column", arguments["model_col"])
        _checks.refuse_a_missing_model(running, inputs["recommendations"], arguments["model_col"], arguments["baseline"],
                                       "compare", "baseline")
        # As in evaluate, a mean above 0 proves that the tables share ids, so
        # the overlap check runs after the comparison, and only when no mean
        # shows a hit; before it when the catalog or train checks follow it,
        # whose errors it comes first among.
        overlap_first = bool(optional)
        if validate:
            _checks.refuse_bad_input(running, inputs, plan, overlap=overlap_first)
            _checks.refuse_bad_optional_inputs(running, inputs, plan, list(optional))
        relations = {role: inputs[role].sql if role in inputs else None
                     for role in ("recommendations", "interactions", "items", "train")}
        computed = running.computed(running.run(render(plan, relations)))
        if validate and not overlap_first and not _checks.shows_a_hit(running, computed, plan,
                                                                      values=("mean", "baseline_mean")):
            _checks.refuse_without_overlap(running, inputs, plan)
        _checks.warn_of_dropped_rows(running, inputs, plan)
        if _checks.is_empty(running, computed):
            _refuse_an_empty_comparison(running, inputs["recommendations"].sql, arguments,
                                        only_lists=plan.names_of_level("user") == set())
        return running.returned(computed, output)


def _refuse_an_empty_comparison(engine: Engine, recommendations_sql: str, arguments: dict[str, Any],
                                only_lists: bool = False) -> None:
    """No pair to compare (the baseline, when given, is a model: checked before
    the comparison ran): one model only, or no user in any pair's population
    (`only_lists`: the metrics are all list-level, scored where both models'
    lists have a value). Says which, rather than return an empty table."""
    models, shown = _checks.model_values(engine, recommendations_sql, arguments["model_col"])
    if len(models) >= 2 and only_lists:
        raise InvalidArgumentError(
            f"rankwise.compare: nothing to compare: no pair of models ({shown}) has a user whose lists have a value "
            "under both models (an item within the cutoff, and what else the metric needs, such as train items for "
            "popularity_lift), nor shares a group.")
    if len(models) >= 2:
        raise InvalidArgumentError(
            f"rankwise.compare: nothing to compare: no pair of models ({shown}) has a user both are scored on under "
            f"users={arguments['users'] or 'the convention'!r} (with 'both', a truth user with a list from both; "
            "with 'relevant', one that also has a relevant item), nor shares a group. users='interactions', the "
            "default, scores every user with ground truth.")
    raise InvalidArgumentError(
        f"rankwise.compare: nothing to compare: the model column '{arguments['model_col']}' of the recommendations "
        f"holds {len(models)} model{'s' if len(models) != 1 else ''} ({shown}) within each group; compare needs two.")


_SUPERSCRIPTS = {"markdown": "<sup>{}</sup>", "latex": "$^{{{}}}$", "csv": "^{}", "json": "^{}", "dataframe": "^{}"}


def comparison_table(result: Any, format: TableFormat = "dataframe", digits: int = 4) -> Any:
    """The comparison as ranx shows it: one row per model, one column per metric,
    each cell the model's mean with the letters of the models it beats
    significantly (its ``significant`` rows with a difference in its favour);
    a list-level metric (novelty, popularity_lift...), which has no better
    side, shows the mean alone.

    Args:
        result: What :func:`compare` returned (a pandas DataFrame, or anything
            with ``.to_pandas()`` or ``.df()``).
        format: "dataframe" (a pandas DataFrame of strings), or the text of a
            "markdown", "latex", "csv" or "json" table.
        digits: Decimals of the means.

    Returns:
        The table; group columns, when the comparison has any, lead each row.
    """
    import pandas as pd

    if format not in _SUPERSCRIPTS:
        raise InvalidArgumentError(
            f"rankwise.comparison_table: argument `format` must be one of {', '.join(map(repr, _SUPERSCRIPTS))}; "
            f"got {format!r}.")
    frame = _as_pandas(result)
    needed = {"metric_label", "model", "baseline", "mean", "baseline_mean", "diff", "significant", "n_users"}
    missing = needed - set(frame.columns)
    if missing:
        raise InvalidArgumentError(
            f"rankwise.comparison_table: `result` must be what rankwise.compare returns; it has no column "
            f"{', '.join(sorted(missing))}.")
    first_fixed = list(frame.columns).index("metric")
    groups = list(frame.columns[:first_fixed])
    models = sorted(set(frame["model"]) | set(frame["baseline"]), key=str)
    letters = {model: _letter(position) for position, model in enumerate(models)}
    metrics = list(dict.fromkeys(frame["metric_label"]))
    # a metric with no better side (the list-level ones, judged, unjudged): its
    # means are shown, not ranked
    macros = renderer()
    unranked = {name for name in _registry("metric_names")
                if macros.call("_python_registry", "metric_better", {"name": name}) is None}
    rows = []
    for key, part in (frame.groupby(groups, sort=True, dropna=False) if groups else [((), frame)]):
        key = key if isinstance(key, tuple) else (key,)
        for model in models:
            cells = {}
            for metric in metrics:
                rows_of_metric = part[part["metric_label"] == metric]
                as_model = rows_of_metric[rows_of_metric["model"] == model]
                as_baseline = rows_of_metric[rows_of_metric["baseline"] == model]
                # Under users='both' each pair has its own users: the widest pair's mean.
                means = [*zip(as_model["n_users"], as_model["mean"]), *zip(as_baseline["n_users"], as_baseline["baseline_mean"])]
                if not means:
                    cells[metric] = ""
                    continue
                mean = max(means, key=lambda pair: pair[0])[1]
                if set(rows_of_metric["metric"]) <= unranked:
                    cells[metric] = f"{mean:.{digits}f}"
                    continue
                beaten = sorted(
                    [letters[other] for other, diff, significant in zip(as_model["baseline"], as_model["diff"], as_model["significant"])
                     if _is_true(significant) and diff > 0]
                    + [letters[other] for other, diff, significant in zip(as_baseline["model"], as_baseline["diff"], as_baseline["significant"])
                       if _is_true(significant) and diff < 0])
                cells[metric] = f"{mean:.{digits}f}" + (_SUPERSCRIPTS[format].format("".join(beaten)) if beaten else "")
            rows.append({**dict(zip(groups, key)), "model": f"{letters[model]}. {model}", **cells})
    table = pd.DataFrame(rows, columns=[*groups, "model", *metrics])
    if format == "dataframe":
        return table
    if format == "markdown":
        return _markdown(table)
    if format == "latex":
        return _latex(table)
    if format == "csv":
        return table.to_csv(index=False)
    return table.to_json(orient="records", indent=2)


def _is_true(value: Any) -> bool:
    """A `significant` cell that holds true (not false, not null)."""
    import pandas as pd

    return value is not None and not pd.isna(value) and bool(value)


def _letter(position: int) -> str:
    """a, b, ..., z, aa, ab, ... as ranx names the models of its table."""
    name = ""
    position += 1
    while position:
        position, remainder = divmod(position - 1, 26)
        name = chr(ord("a") + remainder) + name
    return name


def _as_pandas(result: Any) -> Any:
    import pandas as pd

    if isinstance(result, pd.DataFrame):
        return result
    for method in ("to_pandas", "df", "toPandas"):  # Arrow and polars, DuckDB, Spark
        if hasattr(result, method):
            return getattr(result, method)()
    raise InvalidArgumentError(
        f"rankwise.comparison_table: `result` must be what rankwise.compare returns (a DataFrame); got "
        f"{type(result).__name__}.")


def _markdown(table: Any) -> str:
    header = "| " + " | ".join(map(str, table.columns)) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    lines = ["| " + " | ".join(str(value) for value in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *lines]) + "\n"


def _latex_text(value: Any) -> str:
    text = str(value)
    if "$^{" in text:
        number, mark = text.split("$^{", 1)
        return _latex_text(number) + "$^{" + mark
    for character, escaped in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                               ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
        text = text.replace(character, escaped)
    return text


def _latex(table: Any) -> str:
    # text columns (groups, model) left, means right
    spec = "l" * (list(table.columns).index("model") + 1) + "r" * (len(table.columns) - list(table.columns).index("model") - 1)
    lines = [r"\begin{tabular}{" + spec + "}", r"\toprule",
             " & ".join(_latex_text(column) for column in table.columns) + r" \\", r"\midrule"]
    lines += [" & ".join(_latex_text(value) for value in row) + r" \\" for row in table.itertuples(index=False)]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
