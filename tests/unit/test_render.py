"""The Jinja shim that renders the dbt macros for the Python wrapper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rankwise._render import MacroRenderer, renderer
from rankwise.errors import InvalidArgumentError

REPO_ROOT = Path(__file__).resolve().parents[2]
MACRO_ROOT = REPO_ROOT / "macros"
ADAPTER_TYPES = ("duckdb", "postgres", "spark", "databricks", "redshift", "snowflake", "bigquery", "trino", "clickhouse")


def _documented_macros() -> set[str]:
    """Documented macros, less the generic tests, which only dbt loads."""
    names = {macro["name"] for path in MACRO_ROOT.rglob("schema.yml")
             for macro in yaml.safe_load(path.read_text())["macros"]}
    tests = {name for name in names if name.startswith("test_")}
    for name in tests:
        assert (MACRO_ROOT / "generic_tests" / f"{name[len('test_'):]}.sql").exists(), name
    return names - tests


def _public_macros() -> set[str]:
    return {
        name
        for name in renderer().namespace
        if not name.startswith("_") and not any(name.startswith(f"{a}__") for a in ("default", *ADAPTER_TYPES))
    }


def test_every_public_macro_is_documented_and_dispatched() -> None:
    namespace = renderer().namespace
    assert _public_macros() == _documented_macros()
    for name in _public_macros():
        assert f"default__{name}" in namespace, f"{name} has no default__ implementation"


@pytest.mark.parametrize("path", sorted(MACRO_ROOT.rglob("*.sql")), ids=lambda p: str(p.relative_to(MACRO_ROOT)))
def test_one_public_macro_per_file_named_after_it(path: Path) -> None:
    defined = re.findall(r"{%-?\s*(?:macro|test)\s+(\w+)\s*\(", path.read_text())
    public = [name for name in defined if not name.startswith("_") and "__" not in name]
    assert public in ([], [path.stem]), f"{path.name} defines {public}"


def test_macros_call_each_other_through_the_namespace() -> None:
    """A bare call would bypass the wrapper that catches return()."""
    names = set(renderer().namespace)
    paths = sorted(MACRO_ROOT.rglob("*.sql"))
    assert MACRO_ROOT / "evaluate.sql" in paths and "evaluate" in names
    for path in paths:
        text = re.sub(r"{%-?\s*macro\s+\w+\s*\(", "", path.read_text())
        for match in re.finditer(r"(?<![\w.])(\w+)\s*\(", text):
            assert match.group(1) not in names, f"{path.name}: bare call of {match.group(1)}()"


@pytest.mark.parametrize(
    ("adapter_type", "expected"),
    [("duckdb", "double"), ("postgres", "double precision"), ("redshift", "double precision"), ("spark", "double")],
)
def test_dispatch_takes_the_adapter_then_its_parents_then_default(adapter_type: str, expected: str) -> None:
    assert renderer(adapter_type).call("type_float64").strip() == expected


@pytest.mark.parametrize(
    ("adapter_type", "expected"),
    [("duckdb", '"a""b"'), ("postgres", '"a""b"'), ("spark", "`a\"b`"), ("databricks", "`a``b`")],
)
def test_quote_identifier_escapes_the_quote_character(adapter_type: str, expected: str) -> None:
    name = 'a"b' if adapter_type != "databricks" else "a`b"
    assert renderer(adapter_type).call("quote_identifier", name).strip() == expected


def test_return_hands_back_python_values() -> None:
    plan = renderer().call("_parse_metrics", ["ndcg@10", "map", "r_precision"], [5, None], "evaluate")
    assert plan == [
        {"name": "ndcg", "k": 10, "parameters": {"rel": None}, "label": "ndcg", "key": "ndcg", "asked": "ndcg@10"},
        {"name": "map", "k": 5, "parameters": {"rel": None}, "label": "map", "key": "map", "asked": "map"},
        {"name": "map", "k": None, "parameters": {"rel": None}, "label": "map", "key": "map", "asked": "map"},
        {"name": "r_precision", "k": None, "parameters": {"rel": None}, "label": "r_precision", "key": "r_precision",
         "asked": "r_precision"},
    ]


def test_metric_strings_without_cutoff_take_every_k_and_duplicates_collapse() -> None:
    plan = renderer().call("_parse_metrics", ["precision", "precision@5", "entropy"], [5, 10], "evaluate")
    assert [(entry["name"], entry["k"]) for entry in plan] == [
        ("precision", 5),
        ("precision", 10),
        ("entropy", 5),
        ("entropy", 10),
    ]


def test_a_macro_root_can_be_given() -> None:
    assert MacroRenderer("duckdb", MACRO_ROOT).macro_root == MACRO_ROOT


BAD_ARGUMENTS = [
    ({"metrics": []}, "argument `metrics` must be a non-empty list"),
    ({"metrics": "ndcg", "k": 0}, "argument `k` must be a positive integer (or none for the whole list); got 0."),
    ({"metrics": "ndcg", "k": -3}, "got -3."),
    ({"metrics": "ndcg", "k": "10"}, "argument `k` must be a positive integer, a non-empty list of them, or none"),
    ({"metrics": "ndcg", "k": [5, 2.5]}, "got 2.5."),
    ({"metrics": "ndcg", "k": True}, "argument `k` must be a positive integer"),
    ({"metrics": ["ndcg@x"]}, "the cutoff in metric 'ndcg@x' must be a positive integer"),
    ({"metrics": ["ndcg@0"]}, "the cutoff in metric 'ndcg@0' must be a positive integer"),
    ({"metrics": ["ndgc@5"]}, "unknown metric 'ndgc@5'"),
    ({"metrics": [10]}, "every entry of `metrics` must be a string"),
    ({"metrics": "map", "ap_denominator": "R"}, "argument `ap_denominator` must be one of 'relevant', 'min_relevant_k', 'hits', 'k'; got 'R'."),
    ({"metrics": "map", "precision_denominator": "n"}, "argument `precision_denominator` must be one of 'k', 'list_length'; got 'n'."),
    ({"metrics": "ndcg", "gain": "exp"}, "argument `gain` must be one of 'linear', 'exponential', 'binary'; got 'exp'."),
    ({"metrics": "ndcg", "gain_items": "all"}, "argument `gain_items` must be one of 'positive', 'relevant'; got 'all'."),
    ({"metrics": "ndcg@5", "idcg": "k"}, "argument `idcg` must be one of 'truth', 'k_positions'; got 'k'."),
    ({"metrics": "ndcg@5", "idcg": "k_positions"}, "idcg='k_positions' counts every one of the k slots as a relevant item of gain 1, so it needs gain='binary'"),
    ({"metrics": "ndcg", "gain": "binary", "idcg": "k_positions"}, "ndcg needs a cutoff with idcg='k_positions'"),
    ({"metrics": "map", "ap_denominator": "k"}, "map needs a cutoff with ap_denominator='k'"),
    ({"metrics": "ndcg", "convention": "sklearn"}, "argument `convention` must be one of 'rankwise', 'trec_eval', 'ranx', 'recommenders', 'rectools', 'evidently', 'msmarco', 'beir'; got 'sklearn'."),
    ({"metrics": "ndcg", "users": {"entropy": "both"}}, "`users` maps 'entropy', which is not a per-user metric"),
    ({"metrics": "ndcg", "users": {"ndcg": "all"}}, "argument `users.ndcg` must be one of 'both', 'interactions', 'relevant'; got 'all'."),
    ({"metrics": "ndcg", "users": "all"}, "argument `users` must be one of 'both', 'interactions', 'relevant'; got 'all'."),
    ({"metrics": "ndcg", "ties": "random"}, "argument `ties` must be one of 'item_desc', 'item_asc', 'shared'; got 'random'."),
    ({"metrics": "ndcg", "per_user": "yes"}, "argument `per_user` must be true or false; got 'yes'."),
    ({"metrics": "ndcg", "per_user": 1}, "argument `per_user` must be true or false; got 1."),
    ({"metrics": "ndcg", "relevance_threshold": "2"}, "argument `relevance_threshold` must be a finite number; got '2'."),
    ({"metrics": "precision", "relevance_threshold": 2}, "relevance_threshold=2 (or a metric's `rel`) without `relevance_col`: every interaction then has relevance 1"),
    ({"metrics": ["precision(rel=1.5)@5"]}, "relevance_threshold=1.5 (or a metric's `rel`) without `relevance_col`"),
    ({"metrics": "entropy", "log_base": 1}, "argument `log_base` must be a finite positive number other than 1"),
    ({"metrics": "entropy", "log_base": -2}, "got -2."),
    ({"metrics": "ndcg", "user_col": ""}, "argument `user_col` must be a non-empty column name; got ''."),
    ({"metrics": "ndcg", "score_col": 3}, "argument `score_col` must be a non-empty column name or none; got 3."),
    ({"metrics": "ndcg", "group_by": ["model", "model"]}, "group_by lists column 'model' twice."),
    ({"metrics": "ndcg", "group_by": ["value"]}, "group_by column 'value' clashes with a column rankwise uses"),
    ({"metrics": "ndcg", "group_by": ["rw_model"]}, "group_by column 'rw_model' clashes"),
    ({"metrics": "ndcg", "group_by": ["user_id"]}, "group_by column 'user_id' clashes"),
    ({"metrics": "ndcg", "user_col": "metric"}, "argument `user_col` may not be named 'metric'"),
    ({"metrics": ["ndcg", "entropy"], "per_user": True}, "entropy has one value per group, not per user"),
]


# compare plans its metrics and options with evaluate's planner, and its errors
# name compare: every case but those of evaluate's own arguments (per_user, a
# group-level metric), of the model column, which compare refuses in group_by
# with its own message, and of a metric's `rel`, which compare does not take.
CALLS_WITH_BAD_ARGUMENTS = [("evaluate", arguments, message) for arguments, message in BAD_ARGUMENTS] + [
    ("compare", arguments, message) for arguments, message in BAD_ARGUMENTS
    if "per_user" not in arguments and "entropy" not in arguments["metrics"] and "model" not in arguments.get("group_by", [])
    and "(rel=" not in str(arguments["metrics"])]


@pytest.mark.parametrize(("macro", "arguments", "message"), CALLS_WITH_BAD_ARGUMENTS,
                         ids=[f"{macro}: {message}" for macro, _, message in CALLS_WITH_BAD_ARGUMENTS])
def test_invalid_arguments_raise_a_compiler_error_naming_argument_and_value(macro: str, arguments: dict,
                                                                            message: str) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        renderer().call(macro, "recs", "truth", **arguments)
    assert message in str(raised.value)
    assert str(raised.value).startswith(f"rankwise.{macro}: ")


@pytest.mark.parametrize(
    ("macro", "arguments", "message"),
    [
        ("precision_at_k", {"hits": "h", "k": 0}, "rankwise.precision_at_k: argument `k` must be a positive integer"),
        ("precision_at_k", {"hits": "h"}, "argument `n_recommended` is required when k is none"),
        ("average_precision_at_k", {"precision_sum": "s", "n_relevant": "r", "ap_denominator": "hits"}, "argument `hits` is required"),
        ("dcg_at_k", {"rank": "r", "relevance": "g", "gain": "log"}, "rankwise.dcg_at_k: argument `gain` must be one of"),
        ("self_information", {"probability": "p", "log_base": 0}, "rankwise.self_information: argument `log_base`"),
        ("quote_identifier", {"name": ""}, "rankwise.quote_identifier: a column name must be a non-empty string"),
    ],
)
def test_metric_macros_check_their_arguments(macro: str, arguments: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        renderer().call(macro, **arguments)


def test_a_pure_macros_result_is_kept_for_the_next_process_and_read_back_exactly(tmp_path):
    from rankwise import _render

    computed = []
    original = renderer().namespace["_student_t_quantile_pieces"]

    def counting(*args):
        computed.append(args)
        return original(*args)

    first = _render._memoised(counting, "_student_t_quantile_pieces", "digest-a", str(tmp_path))
    value = first(0.025)
    kept = list(tmp_path.glob("rankwise-memo-*.json"))
    assert len(kept) == 1 and computed == [(0.025,)]
    # a new process: a new wrapper over the same folder reads the kept result
    second = _render._memoised(counting, "_student_t_quantile_pieces", "digest-a", str(tmp_path))
    assert second(0.025) == value and computed == [(0.025,)]
    # other macro sources (an edited macro file) are another key
    third = _render._memoised(counting, "_student_t_quantile_pieces", "digest-b", str(tmp_path))
    assert third(0.025) == value and computed == [(0.025,), (0.025,)]


def test_a_kept_result_that_is_not_all_numbers_is_recomputed_not_read(tmp_path):
    from rankwise import _render

    original = renderer().namespace["_student_t_quantile_pieces"]
    first = _render._memoised(original, "_student_t_quantile_pieces", "digest", str(tmp_path))
    value = first(0.05)
    (path,) = tmp_path.glob("rankwise-memo-*.json")
    path.write_text('[{"low": "0); drop table users; --", "high": 1, "coefficients": [1]}]')
    again = _render._memoised(original, "_student_t_quantile_pieces", "digest", str(tmp_path))
    assert again(0.05) == value


def test_the_kept_fit_renders_the_same_sql_as_the_computed_one(tmp_path):
    import rankwise

    sql = rankwise.sql("recommendations", "interactions", ["map@10"], confidence=0.9)
    assert "then exp(" in sql
    # the process's renderer keeps its results in Jinja's cache folder; a renderer
    # built anew reads them back
    from rankwise import _render
    _render._cached_renderer.cache_clear()
    try:
        assert rankwise.sql("recommendations", "interactions", ["map@10"], confidence=0.9) == sql
    finally:
        _render._cached_renderer.cache_clear()
