"""The stage registry (macros/evaluate/stage_registry.sql) says what each CTE
reads, and the planner plans from it alone: every name a registry reads
resolves, every stage comes after what it reads, and in every query the
integration project and the dialect tests render, each CTE reads only the
stages its entry declares, reads every stage its entry says it reads, and is
read by something."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rankwise._render import renderer
from tests.unit.test_dialects import EVALUATE_CASES

REPO_ROOT = Path(__file__).resolve().parents[2]
MACROS = REPO_ROOT / "macros"
INPUTS = {"recommendations", "interactions", "items", "train"}

COMPARE_CASES: dict[str, dict[str, Any]] = {
    "every_test": dict(metrics=["precision", "ndcg", "map", "rbp", "err", "map_to_full_recall"], k=[3, None],
                       baseline="popular", tests=["t", "randomization", "bootstrap"], n_resamples=10, correction="bh",
                       partition_by=["fold"], group_by=["segment"], relevance_col="relevance"),
    "users_both": dict(metrics=["ndcg", "map"], k=[5], users={"default": "both", "map": "relevant"}, tests=["bootstrap"]),
    "list_level": dict(metrics=["novelty", "arp", "ndcg"], k=[5], tests=["t", "randomization", "bootstrap"],
                       train="analytics.train"),
}


def _registry() -> dict[str, dict[str, Any]]:
    return renderer().call("_stage_registry")


def _entries(name: str, declared: dict[str, Any]) -> list[dict[str, Any]]:
    """The entry under each of its providers (or itself)."""
    base = {field: value for field, value in declared.items() if field != "providers"}
    return [{**base, **provider} for provider in declared.get("providers", {}).values()] or [base]


def _names_read(entry: dict[str, Any]) -> list[str]:
    names = [*entry.get("reads", []), *entry.get("after", [])]
    names += [name for reads in entry.get("provides", {}).values() for name in reads]
    names += [name for case in entry.get("reads_when", []) for name in case["reads"]]
    return names


def test_every_stage_comes_after_the_stages_it_reads() -> None:
    order = list(_registry())
    late = [(name, read) for name, declared in _registry().items() for entry in _entries(name, declared)
            for read in _names_read(entry) if order.index(read) >= order.index(name)]
    assert len(order) > 80
    assert late == []


def test_every_read_of_the_registries_names_a_stage_what_a_stage_provides_or_an_input() -> None:
    registry = _registry()
    provided = {demand for name, declared in registry.items() for entry in _entries(name, declared)
                for demand in entry.get("provides", {})}
    known = set(registry) | provided | INPUTS
    reads: list[tuple[str, str]] = []
    for name, metric in renderer().call("_metric_registry").items():
        cases = [metric.get("reads", []), *(case["reads"] for case in metric.get("reads_when", []))]
        reads += [(f"metric {name}", read) for case in cases for read in case]
    for name, component in renderer().call("_component_registry").items():
        cases = [component.get("reads", []), *(case["reads"] for case in component.get("reads_when", []))]
        reads += [(f"component {name}", read) for case in cases for read in case]
    for name, declared in registry.items():
        for entry in _entries(name, declared):
            reads += [(f"stage {name}", read) for read in _names_read(entry)]
            reads += [(f"stage {name}", read) for read in entry.get("inputs", []) if read not in INPUTS]
    for call, roots in renderer().call("_stage_roots").items():
        shapes = roots.values() if isinstance(roots, dict) else [roots]
        flat = _flatten(list(shapes))
        reads += [(f"roots of {call}", root) for root in flat]
    assert len(reads) > 150
    assert [(reader, read) for reader, read in reads if read not in known] == []


def _flatten(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [name for item in value.values() for name in _flatten(item)]
    return [name for item in value for name in _flatten(item)]


def _ctes(sql: str) -> dict[str, str]:
    """Each CTE's body by name (the text after `name as (` up to the next
    CTE's comment), the outputs under 'output'."""
    starts = [(match.start(), match.group(1)) for match in re.finditer(r"(?m)^(rw_[a-z0-9_]+) as (?:[a-z ]*)\(", sql)]
    bodies = {}
    for (start, name), (end, _) in zip(starts, [*starts[1:], (len(sql), "")]):
        bodies[name] = sql[start + len(name):end]
    last = starts[-1][0]
    closing = re.search(r"(?m)^\)\s*$", sql[last:])
    bodies["output"] = sql[last + closing.end():]
    bodies[starts[-1][1]] = sql[last + len(starts[-1][1]):last + closing.end()]
    return bodies


def _plan(macro: str, arguments: dict[str, Any], adapter_type: str) -> dict[str, Any]:
    call = {key: value for key, value in arguments.items()}
    if macro == "evaluate":
        names = ["metrics", "k", "group_by", "per_user", "partition_by", "confidence", "bootstrap_resamples", "seed",
                 "items", "train"]
        defaults = {"per_user": False, "confidence": 0.95, "bootstrap_resamples": None, "seed": 0}
        positional = [call.pop(name, defaults.get(name)) for name in names]
        return renderer(adapter_type).call("_evaluation_spec", *positional, call, "evaluate")
    names = ["metrics", "k", "model_col", "baseline", "group_by", "partition_by", "confidence", "tests", "n_resamples",
             "seed", "correction", "alpha", "margin", "equivalence", "items", "train"]
    defaults = {"model_col": "model", "confidence": 0.95, "tests": ["t"], "n_resamples": 1000, "seed": 0,
                "correction": "holm", "alpha": 0.05, "equivalence": False}
    positional = [call.pop(name, defaults.get(name)) for name in names]
    return renderer(adapter_type).call("_comparison_spec", *positional, call)


# A metric with a threshold of its own ('ndcg(rel=2)') is an evaluation of its
# own, whose query is a union of whole queries: the cases without one.
CASES = [("evaluate", name) for name, arguments in EVALUATE_CASES.items()
         if not any("rel=" in metric for metric in arguments["metrics"])] + [("compare", name) for name in COMPARE_CASES]


@pytest.mark.parametrize("adapter_type", ["duckdb", "spark"])
@pytest.mark.parametrize("macro, case", CASES)
def test_each_cte_reads_what_its_entry_declares_and_is_read(adapter_type: str, macro: str, case: str) -> None:
    arguments = (EVALUATE_CASES if macro == "evaluate" else COMPARE_CASES)[case]
    spec = _plan(macro, arguments, adapter_type)
    sql = str(renderer(adapter_type).call(macro, "analytics.recs", "analytics.truth", **arguments))
    bodies = _ctes(sql)
    planned = {name: entry for name, entry in spec["stage_plan"].items() if not entry.get("output")}
    cte_of = {}
    for name, entry in planned.items():
        for cte in ([entry["cte"]] if "<n>" not in entry["cte"] else
                    [entry["cte"].replace("<n>", str(step)) for step in range(1, 4)]):
            cte_of[cte] = name
    assert set(bodies) - {"output"} == set(cte_of), "every planned stage is a CTE, and every CTE a planned stage"
    problems = []
    for cte, body in bodies.items():
        referenced = {other for other in cte_of if other != cte and re.search(rf"\b{other}\b", body)}
        if cte == "output":
            continue
        entry = planned[cte_of[cte]]
        declared = {planned_cte for planned_cte, stage in cte_of.items() if stage in _names_read(entry)}
        # a repeated stage reads the one before it
        declared |= {other for other in cte_of if cte_of[other] == cte_of[cte]}
        undeclared = referenced - declared
        if undeclared:
            problems.append(f"{cte} reads {sorted(undeclared)} without declaring it")
        unread = {other for other, stage in cte_of.items() if stage in entry.get("reads", [])} - referenced
        # a repeated stage's later CTEs read its first
        if unread and not (entry.get("repeats") and not cte.endswith("_1")):
            problems.append(f"{cte} declares it reads {sorted(unread)} but does not")
    read_somewhere = {other for cte, body in bodies.items() for other in cte_of if other != cte
                      and re.search(rf"\b{other}\b", body)}
    problems += [f"{cte} is read by nothing" for cte in cte_of if cte not in read_somewhere]
    assert problems == []


def test_evaluate_and_compare_walk_the_plan() -> None:
    """No stage is named in the public macros, no plan flag read there."""
    for path in (MACROS / "evaluate.sql", MACROS / "compare.sql"):
        text = path.read_text()
        assert "needs_" not in text
        assert re.findall(r"rankwise\._stage_\w+\(", text) == []
        assert re.findall(r"rankwise\._stages?_\w+", text) == []


REGISTRIES = {"macros/evaluate/metric_registry.sql", "macros/evaluate/stage_registry.sql"}


def test_no_macro_file_but_the_registries_is_over_250_lines() -> None:
    long = {path.relative_to(REPO_ROOT).as_posix(): len(path.read_text().splitlines())
            for path in MACROS.rglob("*.sql")}
    assert len(long) > 100
    assert {path: lines for path, lines in long.items() if lines > 250 and path not in REGISTRIES} == {}
