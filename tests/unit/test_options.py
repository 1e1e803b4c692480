"""The options are declared once (rankwise._options) and agree with the macros:
every entry point takes them, the command line has a flag for each, and each
choice list is the one the macro accepts."""

from __future__ import annotations

import ast
import inspect
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise._text_table import frame_text
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
                              "users", "ties", "duplicate_recommendations", "duplicate_interactions", "negative_relevance", "novelty_popularity", "arp_popularity",
                              "item_distance", "diversity_denominator", "single_item_diversity", "coverage_of", "gini_items",
                              "novelty_unseen", "without_reference", "exposure_model"]


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


# --- each choice computes what it says -------------------------------------------
# For each option, a tiny input, the one metric the option changes there, and the
# value each choice must give, worked by hand from docs/metrics.md (the arithmetic
# beside it). The macro's SQL runs on DuckDB. Rows: recommendations (user, item,
# rank, or score with score_col), interactions (user, item, relevance), items
# (item, f1, f2), train (user, item).

L = 1 / math.log2(3)  # the DCG discount at rank 2


@dataclass(frozen=True)
class ChoiceCase:
    metric: str
    expected: dict[Any, float]
    recommendations: list[tuple]
    interactions: list[tuple] = (("u1", "a", 1.0),)
    items: list[tuple] | None = None
    train: list[tuple] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    # options of one choice only
    choice_options: dict[Any, dict[str, Any]] = field(default_factory=dict)
    # the output row to read, where the output has more than one
    row: str | None = None


CHOICE_CASES: dict[str, ChoiceCase] = {
    # u1: R = 3, a hit at rank 1 (sum of P@i 1, h 1); u2: R = 1, a hit at rank 2 (sum 1/2, h 1)
    "ap_denominator": ChoiceCase(
        "map@2",
        {"relevant": (1 / 3 + (1 / 2) / 1) / 2,  # D = R: 5/12
         "min_relevant_k": (1 / 2 + (1 / 2) / 1) / 2,  # D = min(R, 2): 1/2
         "hits": (1 / 1 + (1 / 2) / 1) / 2,  # D = h: 3/4
         "k": (1 / 2 + (1 / 2) / 2) / 2},  # D = 2: 3/8
        [("u1", "a", 1), ("u1", "b", 2), ("u2", "c", 1), ("u2", "d", 2)],
        [("u1", "a", 1.0), ("u1", "x", 1.0), ("u1", "y", 1.0), ("u2", "d", 1.0)]),
    # a list of 2 with 1 hit, at k = 3
    "precision_denominator": ChoiceCase(
        "precision@3", {"k": 1 / 3, "list_length": 1 / 2},
        [("u1", "a", 1), ("u1", "b", 2)], [("u1", "a", 1.0)]),
    # relevances 2 and 3 at ranks 1 and 2
    "gain": ChoiceCase(
        "dcg@2", {"linear": 2 + 3 * L, "exponential": (2**2 - 1) + (2**3 - 1) * L, "binary": 1 + L},
        [("u1", "a", 1), ("u1", "b", 2)], [("u1", "a", 2.0), ("u1", "b", 3.0)]),
    # relevance 0.5, below the threshold 1, at rank 1; 2 at rank 2
    "gain_items": ChoiceCase(
        "dcg@2", {"positive": 0.5 + 2 * L, "relevant": 2 * L},
        [("u1", "a", 1), ("u1", "b", 2)], [("u1", "a", 0.5), ("u1", "b", 2.0)]),
    # binary gain; the truth's 2 relevant items, 1 of them at rank 2: DCG@3 = L
    "idcg": ChoiceCase(
        "ndcg@3", {"truth": L / (1 + L), "k_positions": L / (1 + L + 1 / math.log2(4))},
        [("u1", "a", 1), ("u1", "b", 2), ("u1", "c", 3)], [("u1", "b", 1.0), ("u1", "x", 1.0)],
        options={"gain": "binary"}),
    # u1 scores 1; u2 has only an item of relevance 0 (R = 0): 0; u3 has no list: 0;
    # u4 has no truth and is never counted
    "users": ChoiceCase(
        "precision@1", {"both": (1 + 0) / 2, "interactions": (1 + 0 + 0) / 3, "relevant": 1 / 1},
        [("u1", "a", 1), ("u2", "b", 1), ("u4", "d", 1)], [("u1", "a", 1.0), ("u2", "b", 0.0), ("u3", "c", 1.0)]),
    # b, c and d tie behind a; the relevant b is 4th by item id descending, 2nd
    # ascending; shared, the three take the mean of positions 2 to 4: 3
    "ties": ChoiceCase(
        "mrr", {"item_desc": 1 / 4, "item_asc": 1 / 2, "shared": 1 / 3},
        [("u1", "a", 0.9), ("u1", "b", 0.5), ("u1", "c", 0.5), ("u1", "d", 0.5)], [("u1", "b", 1.0)],
        options={"score_col": "score"}),
    # three slots: a fills 2, b 1; H = -(2/3 log 2/3 + 1/3 log 1/3)
    "log_base": ChoiceCase(
        "entropy@1", {"e": math.log(3) - 2 / 3 * math.log(2), 2: math.log2(3) - 2 / 3},
        [("u1", "a", 1), ("u2", "b", 1), ("u3", "a", 1)]),
    # (u1, a) judged twice, relevances 1 and 3: 'max' keeps 3; under 'error' the SQL
    # reads the rows as they are (the wrapper refuses them first), both gains count
    # a listed at ranks 1 and 3: counted twice without the refusal the checks make,
    # once under 'first' (its second row dropped, b's rank kept)
    "duplicate_recommendations": ChoiceCase(
        "precision@3", {"error": 2 / 3, "first": 1 / 3},
        [("u1", "a", 1), ("u1", "b", 2), ("u1", "a", 3)]),
    "duplicate_interactions": ChoiceCase(
        "dcg@1", {"error": 1 + 3, "max": 3},
        [("u1", "a", 1)], [("u1", "a", 1.0), ("u1", "a", 3.0)]),
    # x, of relevance -1, between the relevant a and b: 'pooled' counts it in the pool above b but not among
    # the judged (infAP's 1/3 + (2/3) (1 + eps)/(1 + 2 eps) at b); under 'error' the SQL reads it as judged
    # not relevant (the wrapper refuses it first): 1/3 + (2/3) (1 + eps)/(2 + 2 eps) = 2/3
    "negative_relevance": ChoiceCase(
        "inf_ap", {"error": (1 + 2 / 3) / 2, "pooled": (1 + 1 / 3 + 2 / 3 * (1 + 1e-5) / (1 + 2e-5)) / 2},
        [("u1", "a", 1), ("u1", "x", 2), ("u1", "b", 3)], [("u1", "a", 1.0), ("u1", "x", -1.0), ("u1", "b", 1.0)]),
    # train: a by u1 twice, b by u2; a's share of the users 1/2, of the rows 2/3
    "novelty_popularity": ChoiceCase(
        "novelty@1", {"users": -math.log2(1 / 2), "interactions": -math.log2(2 / 3)},
        [("u1", "a", 1)], train=[("u1", "a"), ("u1", "a"), ("u2", "b")]),
    "arp_popularity": ChoiceCase(
        "arp@1", {"users": 1 / 2, "interactions": 2 / 3},
        [("u1", "a", 1)], train=[("u1", "a"), ("u1", "a"), ("u2", "b")]),
    # one pair: a = (1, 0), b = (1, 1); in train a has users u1, u2, u3, b has u1
    "item_distance": ChoiceCase(
        "intra_list_diversity@2",
        {"cosine": 1 - (1 * 1 + 0 * 1) / (1 * math.sqrt(2)),
         "hamming": 1,  # they differ in f2 only
         "cooccurrence": 1 - 1 / math.sqrt(3 * 1)},
        [("u1", "a", 1), ("u1", "b", 2)], items=[("a", 1.0, 0.0), ("b", 1.0, 1.0)],
        train=[("u1", "a"), ("u1", "b"), ("u2", "a"), ("u3", "a")],
        choice_options={"cosine": {"item_feature_cols": ["f1", "f2"]}, "hamming": {"item_feature_cols": ["f1", "f2"]}}),
    # one pair at Hamming distance 1, in a list of 2
    "diversity_denominator": ChoiceCase(
        "intra_list_diversity@2", {"pairs": 1 / 1, "list_length": 1 / 2},
        [("u1", "a", 1), ("u1", "b", 2)], items=[("a", 1.0, 0.0), ("b", 1.0, 1.0)],
        options={"item_distance": "hamming", "item_feature_cols": ["f1", "f2"]}),
    # u1: one pair at Hamming distance 1; u2: one item, no pair
    "single_item_diversity": ChoiceCase(
        "intra_list_diversity@2", {"no_value": 1 / 1, "zero": (1 + 0) / 2},
        [("u1", "a", 1), ("u1", "b", 2), ("u2", "a", 1)], items=[("a", 1.0, 0.0), ("b", 1.0, 1.0)],
        options={"item_distance": "hamming", "item_feature_cols": ["f1", "f2"]}),
    # a, b and c shown, in a catalog of 8; train items a, b, x, y
    "coverage_of": ChoiceCase(
        "coverage@2", {"catalog": 3 / 8, "train_items": 2 / 4, "train_item_count": 3 / 4},
        [("u1", "a", 1), ("u1", "c", 2), ("u2", "a", 1), ("u2", "b", 2)],
        items=[(item, 0.0, 0.0) for item in "abcdefgh"],
        train=[("u1", "a"), ("u1", "b"), ("u2", "x"), ("u2", "y")]),
    # a fills 2 slots, b 1. Catalog a..d, counts ascending 0 0 1 2:
    # ((2*3 - 5) * 1 + (2*4 - 5) * 2) / (4 * 3); shown only, 1 2: ((2 - 3) * 1 + (4 - 3) * 2) / ((2 - 1) * 3)
    "gini_items": ChoiceCase(
        "gini@1", {"catalog": 7 / 12, "shown": 1 / 3},
        [("u1", "a", 1), ("u2", "a", 1), ("u3", "b", 1)], items=[(item, 0.0, 0.0) for item in "abcd"]),
    # 3 train users; a has 2 of them, f none
    "novelty_unseen": ChoiceCase(
        "novelty@2",
        {"one": (-math.log2(2 / 3) - math.log2(1 / 3)) / 2,  # f counts as one user
         "dropped": -math.log2(2 / 3),  # f left out of the mean
         "zero": (-math.log2(2 / 3) + 0) / 2},
        [("u1", "a", 1), ("u1", "f", 2)], train=[("u1", "a"), ("u2", "a"), ("u3", "b")]),
    # model m lists a, b for u1 and c for u2; the reference lists a for u1 only:
    # u1's intersection@2 is 1/2, u2 has no reference list
    "without_reference": ChoiceCase(
        "intersection@2", {"no_value": 1 / 2, "zero": (1 / 2 + 0) / 2},
        [("u1", "a", 1, "m"), ("u1", "b", 2, "m"), ("u2", "c", 1, "m"), ("u1", "a", 1, "prod")],
        options={"model_col": "model", "reference": "prod"}, row="model = 'm'"),
    # a at rank 1 for u1 and u2, b at rank 2 for u1, in a catalog of a, b, c: exposures
    # ascending 0, w2, 2 with w2 = 1/log2(3) ('dcg') or 0.8 ('rbp', p^(2-1)):
    # ((-2) * 0 + 0 * w2 + 2 * 2) / (3 * (2 + w2))
    "exposure_model": ChoiceCase(
        "exposure_gini@2", {"dcg": 4 / (3 * (2 + L)), "rbp": 4 / (3 * 2.8)},
        [("u1", "a", 1), ("u1", "b", 2), ("u2", "a", 1)], items=[(item, 0.0, 0.0) for item in "abc"]),
    # u1: relevances 0.5, 2, 0 at ranks 1 to 3 and an unrecommended 4; u2 has truth
    # but no list (NDCG 0). Linear, every positive item: DCG@3 = 0.5 + 2L, IDCG@3 =
    # 4 + 2L + 0.5/2. Relevant items only: DCG 2L, IDCG 4 + 2L; binary: DCG L,
    # IDCG 1 + L, or 1 + L + 1/2 over 3 slots.
    "convention": ChoiceCase(
        "ndcg@3",
        {"rankwise": (0.5 + 2 * L) / (4.25 + 2 * L) / 2,  # users u1 and u2
         "trec_eval": (0.5 + 2 * L) / (4.25 + 2 * L),  # users in both tables: u1
         "ranx": 2 * L / (4 + 2 * L) / 2,
         "recommenders": L / (1 + L) / 2,
         "rectools": L / (1.5 + L) / 2,
         "evidently": 2 * L / (4 + 2 * L),  # users with a list and a relevant item: u1
         # MS MARCO's options are trec_eval -c's, as rankwise's; BEIR's trec_eval's, with
         # identical ids dropped (none here): both named for what they reproduce
         "msmarco": (0.5 + 2 * L) / (4.25 + 2 * L) / 2,
         "beir": (0.5 + 2 * L) / (4.25 + 2 * L)},
        [("u1", "a", 1), ("u1", "b", 2), ("u1", "c", 3)],
        [("u1", "a", 0.5), ("u1", "b", 2.0), ("u1", "x", 4.0), ("u2", "y", 1.0)]),
}


def _choice_value(case: ChoiceCase, name: str, value: Any) -> float:
    connection = duckdb.connect()
    ranked_by = "score" if "score_col" in case.options else "rank"
    tables = {
        "recommendations": (["user_id", "item_id", ranked_by, "model"][:len(case.recommendations[0])], case.recommendations),
        "interactions": (["user_id", "item_id", "relevance"], case.interactions),
        "items": (["item_id", "f1", "f2"], case.items),
        "train": (["user_id", "item_id"], case.train),
    }
    for table, (columns, rows) in tables.items():
        if rows is not None:
            frame = pd.DataFrame(list(rows), columns=columns)  # noqa: F841 (read by DuckDB)
            connection.execute(f"create table {table} as select * from frame")
    inputs = {table: table for table in ("items", "train") if tables[table][1] is not None}
    sql = renderer().call("evaluate", "recommendations", "interactions", metrics=[case.metric],
                          relevance_col="relevance", **inputs, **case.options, **case.choice_options.get(value, {}),
                          **{name: value})
    (result,) = connection.sql(f"select value from ({sql}) as evaluated where {case.row or 'true'}").fetchall()
    return result[0]


def test_every_choice_has_a_worked_value() -> None:
    for name in [*CHOICE_OPTIONS, "log_base"]:
        assert set(choices(option_types()[name])) <= set(CHOICE_CASES[name].expected), name
    # each option's choices give different values on its input: a choice ignored would show
    for name, case in CHOICE_CASES.items():
        named_alike = SAME_OPTIONS_AS if name == "convention" else {}
        distinct = [value for choice, value in case.expected.items() if choice not in named_alike]
        assert len({round(value, 12) for value in distinct}) == len(distinct), name


# The presets whose option values are another's (tests/crosscheck/test_retrieval_conventions.py
# checks what sets them apart: BEIR's identical ids, and each one's measure set).
SAME_OPTIONS_AS = {"msmarco": "rankwise", "beir": "trec_eval"}


def test_the_presets_named_alike_differ_only_as_said() -> None:
    for convention, other in SAME_OPTIONS_AS.items():
        differing = {name for name, value in rankwise.convention_options(convention).items()
                     if value != rankwise.convention_options(other)[name]}
        assert differing == ({"ignore_identical_ids", "users"} if convention == "beir" else set()), convention


@pytest.mark.parametrize(("name", "value"), [(name, value) for name, case in CHOICE_CASES.items()
                                             for value in case.expected])
def test_each_choice_computes_its_worked_value(name: str, value: Any) -> None:
    case = CHOICE_CASES[name]
    assert _choice_value(case, name, value) == pytest.approx(case.expected[value], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("convention", choices(option_types()["convention"]))
def test_every_preset_value_is_a_declared_choice(convention: str) -> None:
    preset = rankwise.convention_options(convention)
    # a preset sets every option the registry marks as a preset's, no fewer
    assert preset.keys() == {name for name, option in renderer().call("_option_registry").items() if option.get("preset")}
    for name, value in preset.items():
        allowed = choices(option_types()[name])
        values = value.values() if isinstance(value, dict) else [value]
        if name in ("relevance_threshold", "head_share"):
            assert all(isinstance(v, (int, float)) for v in values)
        elif name == "ignore_identical_ids":
            assert all(isinstance(v, bool) for v in values)
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
    assert merged.output == frame_text(expected) + "\n"
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
    assert result.output == frame_text(expected) + "\n"
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
