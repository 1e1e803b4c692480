"""Quality gates on results: the rows of an evaluation whose metric is below
(or above) a threshold, and the rows of a comparison where a model is not shown
to be no worse than the baseline. The dbt generic tests metric_at_least,
metric_at_most and not_worse_than_baseline apply the same rules in SQL, and the
command line's --fail-under, --fail-over and --fail-if-worse exit with code 3
on the rows these functions return."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from .errors import InvalidArgumentError

if TYPE_CHECKING:
    import pandas as pd

GateOn = Literal["value", "ci_low", "ci_high"]
GATE_COLUMNS = ["gate", "metric_label", "value", "bound"]
_RESULT_COLUMNS = {"metric", "k", "metric_label", "value", "n_users", "n_users_without_list", "ci_low", "ci_high", "ci_clipped"}


def _as_pandas(result: Any, caller: str) -> pd.DataFrame:
    # imported here, as everywhere in rankwise: `import rankwise` (and the command
    # line) need not load pandas when no result becomes a pandas DataFrame
    import pandas as pd

    if isinstance(result, pd.DataFrame):
        return result
    for method in ("to_pandas", "df"):
        if hasattr(result, method):
            return getattr(result, method)()
    raise InvalidArgumentError(f"rankwise.{caller}: the result must be a table (pandas, polars, Arrow or a DuckDB "
                               f"relation); got {type(result).__name__}.")


def failing_metrics(result: Any, *, at_least: Mapping[str, float] | None = None,
                    at_most: Mapping[str, float] | None = None, on: GateOn = "value") -> pd.DataFrame:
    """The rows of an evaluation (:func:`rankwise.evaluate`'s means) that fail a
    gate: a metric label (``"ndcg@10"``) below its ``at_least`` bound or above its
    ``at_most`` bound, judged on ``on`` (the value, or the bound of its interval:
    ``ci_low`` for a gate that must hold with the interval's confidence). A row
    with no value to judge fails too. An empty table means every gate passed.

    Returns the group columns, then ``gate`` ("at_least" or "at_most"),
    ``metric_label``, ``value`` (of ``on``) and ``bound``.
    """
    import pandas as pd

    table = _as_pandas(result, "failing_metrics")
    gates = [("at_least", label, bound) for label, bound in (at_least or {}).items()]
    gates += [("at_most", label, bound) for label, bound in (at_most or {}).items()]
    if not gates:
        raise InvalidArgumentError("rankwise.failing_metrics: give `at_least` or `at_most`, such as "
                                   "at_least={'ndcg@10': 0.25}.")
    if on not in ("value", "ci_low", "ci_high"):
        raise InvalidArgumentError(f"rankwise.failing_metrics: argument `on` must be 'value', 'ci_low' or 'ci_high'; "
                                   f"got {on!r}.")
    if on not in table.columns:
        raise InvalidArgumentError(f"rankwise.failing_metrics: the result has no column `{on}` (evaluate gives "
                                   "ci_low and ci_high unless confidence is None).")
    labels = list(dict.fromkeys(table["metric_label"]))
    for _, label, bound in gates:
        if label not in labels:
            raise InvalidArgumentError(f"rankwise.failing_metrics: the result has no metric '{label}' to gate; its "
                                       f"metrics: {', '.join(labels)}.")
        if isinstance(bound, bool) or not isinstance(bound, (int, float)):
            raise InvalidArgumentError(f"rankwise.failing_metrics: the bound of '{label}' must be a number; got "
                                       f"{bound!r}.")
    groups = [column for column in table.columns if column not in _RESULT_COLUMNS]
    failed = []
    for gate, label, bound in gates:
        rows = table[table["metric_label"] == label]
        value = rows[on]
        passes = value >= bound if gate == "at_least" else value <= bound
        for _, row in rows[~passes.fillna(False).astype(bool)].iterrows():
            failed.append({**{column: row[column] for column in groups}, "gate": gate, "metric_label": label,
                           "value": row[on], "bound": bound})
    return pd.DataFrame(failed, columns=[*groups, *GATE_COLUMNS])


def failing_comparisons(comparison: Any, *, alpha: float = 0.05) -> pd.DataFrame:
    """The rows of a comparison (:func:`rankwise.compare` with a ``margin``) where
    the model is not shown to be no worse than the baseline by more than the
    margin: the non-inferiority p-value, corrected over every row, is not below
    ``alpha`` (or there is none). An empty table means every model passed.

    Returns the group columns, ``metric_label``, ``model``, ``baseline``,
    ``diff``, ``p_non_inferiority`` and ``p_non_inferiority_adjusted``.
    """
    table = _as_pandas(comparison, "failing_comparisons")
    if "p_non_inferiority_adjusted" not in table.columns:
        raise InvalidArgumentError("rankwise.failing_comparisons: the comparison has no non-inferiority test: run "
                                   "rankwise.compare with a `margin` (how much worse still counts as no worse).")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise InvalidArgumentError(f"rankwise.failing_comparisons: argument `alpha` must be a number strictly "
                                   f"between 0 and 1; got {alpha!r}.")
    shown = table["p_non_inferiority_adjusted"] < alpha
    failed = table[~shown.fillna(False).astype(bool)]
    end = table.columns.get_loc("metric")
    groups = list(table.columns[:end])
    return failed[[*groups, "metric_label", "model", "baseline", "diff", "p_non_inferiority",
                   "p_non_inferiority_adjusted"]].reset_index(drop=True)
