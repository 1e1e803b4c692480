"""The contract with Python (macros/planner/contract.sql): the Python package
calls those macros and no other, so that every rule lives in the macros and
python/ asks for it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pandas as pd
import pytest

import rankwise
from rankwise import _plan
from rankwise._compare import _compare_arguments

REPO_ROOT = Path(__file__).resolve().parents[2]
CONTRACT = REPO_ROOT / "macros" / "planner" / "contract.sql"


def _contract() -> set[str]:
    """The macros the contract's header names, each defined in it (or public)."""
    text = CONTRACT.read_text()
    header = text[:text.index("-#}")]
    named = set(re.findall(r"^\s{6}(\w+)\s", header, re.MULTILINE))
    defined = set(re.findall(r"\{% macro (\w+)\(", text))
    assert named - {"quote_identifier"} <= defined
    return named


def _called() -> dict[str, list[str]]:
    """Every macro name python/ passes to MacroRenderer.call, by file."""
    found: dict[str, list[str]] = {}
    for path in (REPO_ROOT / "python").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, []).append(path.relative_to(REPO_ROOT).as_posix())
    return found


def test_python_calls_only_the_contract() -> None:
    contract = _contract()
    called = _called()
    assert 1 < len(contract) <= 10
    assert set(called) - contract == set(), {name: called[name] for name in set(called) - contract}
    # every macro of the contract is called, or it is not part of it
    assert contract - set(called) == set()


def test_a_plan_and_its_sql_are_kept_per_argument_set() -> None:
    recommendations = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "b"], "rank": [1, 2]})
    interactions = pd.DataFrame({"user_id": ["u"], "item_id": ["b"]})
    _plan._planned.cache_clear()
    _plan._rendered.cache_clear()
    first = rankwise.evaluate(recommendations, interactions, ["ndcg@2"])
    again = rankwise.evaluate(recommendations, interactions, ["ndcg@2"])
    pd.testing.assert_frame_equal(first, again)
    assert _plan._planned.cache_info().misses == 1 and _plan._planned.cache_info().hits >= 1
    other = rankwise.evaluate(recommendations, interactions, ["ndcg@1"])
    assert other["value"].tolist() == [0.0]
    assert _plan._planned.cache_info().misses == 2


def test_a_kept_plan_is_not_changed_by_writing_it() -> None:
    """Writing a plan's SQL for one set of inputs leaves the plan as it was, so
    the next call's SQL reads its own inputs."""
    arguments = _plan.macro_arguments("sql", ["ndcg@3", "entropy"], None, None, False, {}, None)
    plan = _plan.plan_of("sql", arguments)
    first = _plan.render(plan, {"recommendations": "a", "interactions": "b", "items": None, "train": None})
    second = _plan.render(plan, {"recommendations": "c", "interactions": "d", "items": None, "train": None})
    assert "from a\n" in first and "from c\n" in second and "from a\n" not in second
    assert "relations" not in plan.spec


@pytest.mark.parametrize("call", ["evaluate", "compare"])
def test_the_plan_names_every_column_read_per_input_with_its_purpose(call: str) -> None:
    options = {"relevance_col": "grade", "score_col": "score"}
    if call == "compare":
        statistics = {"confidence": 0.95, "tests": ["t"], "n_resamples": 10, "seed": 0, "correction": "holm",
                      "alpha": 0.05, "margin": None, "equivalence": False}
        arguments = _compare_arguments(["ndcg@3", "novelty@3"], None, "model", None, ["segment"], ["fold"], statistics,
                                       options)
    else:
        arguments = _plan.macro_arguments(call, ["ndcg@3", "novelty@3"], None, ["segment"], False, options, ["fold"])
    plan = _plan.plan_of(call, arguments, train=True)
    read = plan.columns_read
    assert read["recommendations"][:3] == [("user_id", "user id"), ("item_id", "item id"), ("score", "score")]
    assert ("segment", "group_by column") in read["recommendations"]
    assert (("model", "model column") in read["recommendations"]) == (call == "compare")
    assert ("fold", "partition_by column") in read["recommendations"]
    assert read["interactions"][:3] == [("user_id", "user id"), ("item_id", "item id"), ("grade", "relevance")]
    assert read["train"] == [("user_id", "user id"), ("item_id", "item id"), ("fold", "partition_by column")]
    assert plan.list_keys == ["fold", "segment", *(["model"] if call == "compare" else [])]


def test_every_dispatch_names_its_macro_in_the_text() -> None:
    """dbt reads the name of each adapter.dispatch off the macro's text when it
    parses the project, and fails on a name held in a variable."""
    calls = [(path.name, match.group(1)) for path in (REPO_ROOT / "macros").rglob("*.sql")
             for match in re.finditer(r"adapter\.dispatch\(\s*([^,)]+)", path.read_text())]
    assert len(calls) > 50
    assert [(name, first) for name, first in calls if not re.fullmatch(r"'\w+'", first.strip())] == []


# The checks whose rows the wrapper reads in turn (the first problem raised, the
# notes in the order rankwise.check lists them), with arguments that render
# every branch of their UNION ALL.
ORDERED_CHECKS = {
    "input_problems": {
        "recommendations": {"recommendations": "recs", "user_col": "user_id", "item_col": "item_id", "rank_col": "rank",
                            "score_col": None, "group_by": ["model"]},
        "interactions": {"interactions": "truth", "user_col": "user_id", "item_col": "item_id",
                         "relevance_col": "relevance", "gain": "exponential", "partition_by": [], "propensity_col": None,
                         "user_group_col": None}},
    "catalog_problems": {"recommendations": "recs", "items": "items", "item_col": "item_id", "vector_col": "embedding",
                         "feature_cols": [], "cosine": True, "group_col": "provider", "interactions": "truth",
                         "relevance_col": "relevance", "relevance_threshold": 1},
    "train_problems": {"train": "train", "user_col": "user_id", "item_col": "item_id"},
    "id_overlap": {"recommendations": "recs", "interactions": "truth", "user_col": "user_id", "item_col": "item_id",
                   "partition_by": ["fold"]},
    "notes": {"recommendations": "recs", "interactions": "truth", "user_col": "user_id", "item_col": "item_id",
              "score_col": "score", "relevance_col": "relevance", "relevance_threshold": 1, "k": 10,
              "group_by": ["model"], "partition_by": ["fold"]},
    "coverage_warnings": {"evaluation": "means", "group_by": ["model"], "partition_by": ["fold"], "users": "both"},
}


@pytest.mark.parametrize("adapter_type", ["duckdb", "postgres", "spark", "clickhouse"])
@pytest.mark.parametrize("check", list(ORDERED_CHECKS))
def test_the_checks_read_in_turn_come_in_one_order(check: str, adapter_type: str) -> None:
    """A UNION ALL has no order of its own, and ClickHouse runs its branches side
    by side: each query whose rows the wrapper reads in turn ends in an ORDER BY
    of the whole result, so every engine raises the same first problem."""
    import sqlglot
    from sqlglot import exp

    from rankwise._render import renderer

    query = renderer(adapter_type).call("_python_check_query", check, ORDERED_CHECKS[check])
    assert "union all" in query.lower() or check == "coverage_warnings"
    tree = sqlglot.parse_one(query, read={"postgres": "postgres"}.get(adapter_type, adapter_type))
    assert isinstance(tree, exp.Select) and tree.args.get("order") is not None, f"{check} on {adapter_type}: no ORDER BY"
