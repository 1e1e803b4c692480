"""The options are declared once (rankwise._options) and agree with the macros:
every entry point takes them, the command line has a flag for each, and each
choice list is the one the macro accepts."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
import rankwise.cli
from rankwise._options import DEFAULTS, DOCS, EvaluateOptions, choices, option_types
from rankwise._render import renderer
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError

ENTRY_POINTS = [rankwise.evaluate, rankwise.sql, rankwise.check]
CHOICE_OPTIONS = [name for name, annotation in option_types().items() if choices(annotation) and name != "log_base"]


def _refusal(**options: Any) -> str:
    """The macro's own message for an option value it refuses."""
    with pytest.raises(InvalidArgumentError) as raised:
        renderer().call("evaluate", "recommendations", "interactions", metrics=["precision@5"], **options)
    return str(raised.value)


def test_the_choice_options_are_the_ones_the_macro_checks() -> None:
    assert CHOICE_OPTIONS == ["convention", "ap_denominator", "precision_denominator", "gain", "gain_items", "idcg",
                              "users", "ties", "duplicate_interactions", "novelty_popularity", "arp_popularity",
                              "item_distance", "diversity_denominator", "coverage_of", "gini_items", "novelty_unseen"]


@pytest.mark.parametrize("name", CHOICE_OPTIONS)
def test_each_choice_list_is_what_the_macro_accepts(name: str) -> None:
    message = _refusal(**{name: "no_such_value"})
    listed = re.fullmatch(rf"rankwise\.evaluate: argument `{name}` must be one of (.*); got 'no_such_value'\.", message)
    assert listed, message
    assert tuple(re.findall(r"'([^']*)'", listed.group(1))) == choices(option_types()[name])


def test_users_per_metric_takes_the_same_choices() -> None:
    message = _refusal(users={"ndcg": "no_such_value"})
    listed = re.search(r"must be one of (.*); got", message)
    assert tuple(re.findall(r"'([^']*)'", listed.group(1))) == choices(option_types()["users"])


@pytest.mark.parametrize(("name", "value"), [(name, value) for name in [*CHOICE_OPTIONS, "log_base"]
                                             for value in choices(option_types()[name])])
def test_the_macro_renders_every_choice(name: str, value: str) -> None:
    # k_positions counts each slot with gain 1, so it needs the binary gain
    extra = {"gain": "binary"} if (name, value) == ("idcg", "k_positions") else {}
    sql = renderer().call("evaluate", "recommendations", "interactions", metrics=["precision@5", "ndcg@5", "entropy@5"],
                          **{name: value}, **extra)
    assert "select" in sql


@pytest.mark.parametrize("convention", choices(option_types()["convention"]))
def test_every_preset_value_is_a_declared_choice(convention: str) -> None:
    preset = rankwise.convention_options(convention)
    for name, value in preset.items():
        allowed = choices(option_types()[name])
        values = value.values() if isinstance(value, dict) else [value]
        if name in ("relevance_threshold", "head_share"):
            assert all(isinstance(v, (int, float)) for v in values)
        elif name == "log_base":
            assert all(v in allowed or isinstance(v, (int, float)) for v in values)
        else:
            assert set(values) <= set(allowed), (name, value)


def test_the_defaults_are_the_macros() -> None:
    """Passing every default explicitly renders the SQL the macro's own defaults give."""
    metrics = ["ndcg@5", "map", "entropy@3"]
    bare = renderer().call("evaluate", "recommendations", "interactions", metrics=metrics)
    assert renderer().call("evaluate", "recommendations", "interactions", metrics=metrics, **DEFAULTS) == bare


@pytest.mark.parametrize("function", ENTRY_POINTS, ids=lambda f: f.__name__)
def test_every_entry_point_takes_the_options_once(function) -> None:
    parameters = inspect.signature(function).parameters
    assert parameters["options"].kind is inspect.Parameter.VAR_KEYWORD
    assert parameters["options"].annotation == "Unpack[EvaluateOptions]"
    assert not set(parameters) & set(EvaluateOptions.__annotations__)
    # help() lists each option with its one doc
    for name, doc in DOCS.items():
        assert f"{name}: {doc.split()[0]}" in function.__doc__


@pytest.mark.parametrize("function", ENTRY_POINTS, ids=lambda f: f.__name__)
def test_an_unknown_option_is_named_with_the_closest(function) -> None:
    arguments = ("recs", "truth") if function is not rankwise.check else (pd.DataFrame(), pd.DataFrame())
    metrics = (["ndcg"],) if function is not rankwise.check else ()
    with pytest.raises(InvalidArgumentError, match=rf"rankwise\.{function.__name__}: unknown argument `gian`\. Did you mean `gain`\?"):
        function(*arguments, *metrics, gian="binary")


def _flags(command: str) -> dict[str, Any]:
    return {parameter.name: parameter for parameter in main.commands[command].params}


@pytest.mark.parametrize("command", ["evaluate", "sql", "check"])
def test_every_option_has_a_flag_with_its_choices_and_doc(command: str) -> None:
    flags = _flags(command)
    for name, annotation in option_types().items():
        flag = flags[name]
        assert flag.opts == ["--" + name.replace("_", "-")]
        assert flag.help == DOCS[name]
        if name in CHOICE_OPTIONS and name != "users":
            assert tuple(flag.type.choices) == choices(annotation)


def test_the_command_line_imports_no_private_name() -> None:
    tree = ast.parse(Path(inspect.getfile(rankwise.cli)).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names]
    assert "evaluate" in imported
    assert [name for name in imported if name.startswith("_") and not name.endswith("__")] == []


@pytest.fixture
def duplicated(tmp_path: Path) -> tuple[str, str]:
    pd.DataFrame({"user_id": ["u1", "u1", "u2"], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]}).to_csv(tmp_path / "r.csv", index=False)
    pd.DataFrame({"user_id": ["u1", "u1", "u2"], "item_id": ["b", "b", "a"], "relevance": [1, 3, 2]}).to_csv(tmp_path / "t.csv", index=False)
    return str(tmp_path / "r.csv"), str(tmp_path / "t.csv")


def test_duplicate_interactions_on_the_command_line(duplicated) -> None:
    arguments = ["evaluate", *duplicated, "-m", "ndcg@2", "--relevance-col", "relevance"]
    refused = CliRunner().invoke(main, arguments)
    assert refused.exit_code == 1
    assert "(user, item) pairs listed twice" in refused.output
    merged = CliRunner().invoke(main, [*arguments, "--duplicate-interactions", "max"])
    assert merged.exit_code == 0, merged.output
    expected = rankwise.evaluate(*duplicated, ["ndcg@2"], relevance_col="relevance", duplicate_interactions="max")
    assert merged.output == expected.to_string(index=False) + "\n"
    checked = CliRunner().invoke(main, ["check", *duplicated, "--duplicate-interactions", "max"])
    assert checked.exit_code == 0, checked.output


def test_users_per_metric_and_log_base_on_the_command_line(duplicated) -> None:
    recommendations, _ = duplicated
    truth = str(Path(recommendations).with_name("t2.csv"))
    pd.DataFrame({"user_id": ["u1", "u3"], "item_id": ["b", "a"]}).to_csv(truth, index=False)
    result = CliRunner().invoke(main, ["evaluate", recommendations, truth, "-m", "ndcg@2", "-m", "precision@2",
                                       "-m", "entropy@2", "--users", "both", "--users", "ndcg=interactions",
                                       "--log-base", "2"])
    assert result.exit_code == 0, result.output
    expected = rankwise.evaluate(recommendations, truth, ["ndcg@2", "precision@2", "entropy@2"],
                                 users={"default": "both", "ndcg": "interactions"}, log_base=2)
    assert result.output == expected.to_string(index=False) + "\n"
    # u3 has no list: counted for ndcg only
    assert expected.set_index("metric")["n_users"].to_dict() == {"ndcg": 2, "precision": 1, "entropy": 2}
    natural = CliRunner().invoke(main, ["sql", "recs", "truth", "-m", "entropy@2", "--log-base", "e"])
    assert natural.output.strip() == rankwise.sql("recs", "truth", ["entropy@2"])


def test_check_takes_the_evaluation_options() -> None:
    recommendations = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"], "rank": [1]})
    interactions = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "a"], "relevance": [0.5, 2.0]})
    refused = rankwise.check(recommendations, interactions, relevance_col="relevance")
    assert refused["problem"].tolist() == ["duplicate_interaction"]
    merged = rankwise.check(recommendations, interactions, relevance_col="relevance", duplicate_interactions="max")
    assert merged.empty
    with pytest.raises(InvalidArgumentError, match="argument `gain` must be one of"):
        rankwise.check(recommendations, interactions, gain="steep")
