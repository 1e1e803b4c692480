"""The plan of an evaluation, as the macros decide it, and its SQL.

Every argument check and every decision lives in the planner macros
(macros/planner/). This module only turns Python values into what the
macros take (numpy scalars into numbers, a column name into a list), asks the
planner for the plan through the contract with Python (macros/planner/contract.sql:
the options resolved, the metrics asked by level, the optional inputs they
read, the columns read per input) and has the plan written as SQL. The wrapper
reads the plan and re-derives none of it.

A plan depends on its arguments and the engine's adapter only, and its SQL on
those and the names the inputs are read under: both are kept for the process
(an evaluation repeated with the same arguments, as after every epoch of a
training, is planned and written once).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._options import plain, resolve
from ._render import renderer
from .errors import InvalidArgumentError


def metric_names(level: str | None = None) -> list[str]:
    """The names rankwise knows, as `metrics` accepts them (each optionally @k),
    in the registry's order; with `level`, those of one level: 'user' (a value
    per user with truth, averaged), 'list' (a value per list, averaged) or
    'group' (one value per group)."""
    if level not in (None, "user", "list", "group"):
        raise InvalidArgumentError(f"rankwise.metric_names: argument `level` must be 'user', 'list', 'group' or None; "
                                   f"got {level!r}.")
    return list(_registry("metric_names", level=level))


def _registry(name: str, **arguments: Any) -> Any:
    """A registry of the macros (the contract's _python_registry), read once
    per process and arguments: the registries do not change."""
    macros = renderer()
    return _registered(macros.identity, name, json.dumps(arguments, sort_keys=True))


@functools.lru_cache(maxsize=512)
def _registered(identity: int, name: str, arguments: str) -> Any:
    return renderer().call("_python_registry", name, json.loads(arguments))


def listed(value: Any) -> Any:
    """A column name or a sequence of values as a list; anything else as it is,
    for the planner to refuse with its own message (group_by=1 is not a list)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return list(value)
    return value


def macro_arguments(
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
    """The keyword arguments of the macro evaluate: every option named, every
    numpy scalar made a Python number, before anything is rendered."""
    k = plain(k)
    return {
        "metrics": plain(metrics),
        "k": list(k) if isinstance(k, Sequence) and not isinstance(k, str) else k,
        "group_by": listed(plain(group_by)) if group_by is not None else None,
        "partition_by": listed(plain(partition_by)) if partition_by is not None else None,
        "per_user": plain(per_user),
        "confidence": plain(confidence),
        "bootstrap_resamples": plain(bootstrap_resamples),
        "seed": plain(seed),
        **resolve(caller, options),
    }


@dataclass(frozen=True)
class Plan:
    """What the planner decided for one call (the contract's _python_plan)."""

    call: str
    arguments: dict[str, Any]
    adapter_type: str
    items: bool
    train: bool
    spec: dict[str, Any]
    """The planner's plan, which :func:`render` writes as SQL."""
    options: dict[str, Any]
    metrics: list[dict[str, Any]]
    inputs_read: list[str]
    unread_inputs: list[dict[str, str]]
    metrics_shown_by_a_hit: list[str]
    checks_fuse: bool
    """Whether the input checks can run inside the metric query (render with
    `guarded`): one query of means over the per-user metrics."""
    group_by: list[str]
    """The group columns of the output: group_by, with the model column."""
    partition_by: list[str]
    list_keys: list[str]
    """The columns besides the user that tell one list from another: the
    partition columns, then the group columns."""
    columns_read: dict[str, list[tuple[str, str]]]
    """Per input, the (column, purpose) pairs the call reads."""
    relevant_item_groups: bool
    """Whether the relevant items' groups are read (exposure_disparity)."""
    stages: list[dict[str, Any]]
    strategies: dict[str, Any]
    comparison: dict[str, Any] | None

    def names_of_level(self, *levels: str) -> set[str]:
        """The names of the metrics asked whose level is one of `levels`:
        'user', 'list' or 'group'."""
        return {metric["name"] for metric in self.metrics if metric["level"] in levels}

    def compared_names(self) -> set[str]:
        """The names of the metrics asked that the report's verdict tests with
        rankwise.compare: per-user values that depend on the model (not idcg, a
        property of the truth; not the list-level ones, which compare tests
        with the t test alone)."""
        return {metric["name"] for metric in self.metrics if metric["compared"]}

    def inputs_read_by(self, names: set[str]) -> set[str]:
        """The optional inputs (items, train) that the metrics named read."""
        return {read for metric in self.metrics if metric["name"] in names for read in metric["reads"]
                if read in self.inputs_read}


def plan_of(call: str, arguments: dict[str, Any], *, adapter_type: str = "duckdb", items: bool = False,
            train: bool = False) -> Plan:
    """The planner's plan of `call` (evaluate, compare, exposure_by_item_group,
    check, report, sql) for the macro arguments of :func:`macro_arguments`, on
    an engine of `adapter_type`: raises InvalidArgumentError on any invalid
    argument, before anything touches a connection. `items` and `train` say
    whether those inputs are given."""
    key = json.dumps(arguments, sort_keys=True, default=repr)
    planned = _planned(call, key, adapter_type, items, train, renderer(adapter_type).identity)
    return Plan(arguments=arguments, items=items, train=train, **planned)


@functools.lru_cache(maxsize=128)
def _planned(call: str, key: str, adapter_type: str, items: bool, train: bool, identity: int) -> dict[str, Any]:
    planned = renderer(adapter_type).call("_python_plan", call, json.loads(key), items=items, train=train)
    return {
        "call": call,
        "adapter_type": adapter_type,
        "spec": planned["spec"],
        "options": {name: dict(value) if isinstance(value, Mapping) else value for name, value in planned["options"].items()},
        "metrics": [dict(metric) for metric in planned["metrics"]],
        "inputs_read": list(planned["inputs_read"]),
        "unread_inputs": [dict(unread) for unread in planned["unread_inputs"]],
        "metrics_shown_by_a_hit": list(planned["metrics_shown_by_a_hit"]),
        "checks_fuse": bool(planned["checks_fuse"]),
        "group_by": list(planned["group_by"]),
        "partition_by": list(planned["partition_by"]),
        "list_keys": list(planned["list_keys"]),
        "columns_read": {role: [tuple(pair) for pair in pairs] for role, pairs in planned["columns_read"].items()},
        "relevant_item_groups": bool(planned["relevant_item_groups"]),
        "stages": [dict(stage) for stage in planned["stages"]],
        "strategies": dict(planned["strategies"]),
        "comparison": dict(planned["comparison"]) if planned["comparison"] else None,
    }


def render(plan: Plan, relations: Mapping[str, str | None], *, guarded: bool = False) -> str:
    """The SQL of a plan on its inputs (`relations`: the SQL each of
    recommendations, interactions, items and train is read under, None when
    not given); `guarded`, for evaluate, with the input checks fused into it."""
    return _rendered(plan.call, json.dumps(plan.arguments, sort_keys=True, default=repr), plan.adapter_type,
                     plan.items, plan.train, tuple(sorted(relations.items())), guarded,
                     renderer(plan.adapter_type).identity)


@functools.lru_cache(maxsize=128)
def _rendered(call: str, key: str, adapter_type: str, items: bool, train: bool, relations: tuple[tuple[str, Any], ...],
              guarded: bool, identity: int) -> str:
    spec = _planned(call, key, adapter_type, items, train, identity)["spec"]
    return str(renderer(adapter_type).call("_python_query", call, spec, dict(relations), guarded=guarded)).strip()
