"""The options are declared once, in the macros' option registry
(_option_registry): the Python types restate its choices for type checkers, and
the docs' table of options is generated from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rankwise._options import DEFAULTS, DOCS, EvaluateOptions, choices, option_types, options_table
from rankwise._render import renderer

REGISTRY = renderer().call("_option_registry")
DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"


def test_the_typed_dict_names_the_registry_options_in_order() -> None:
    assert list(EvaluateOptions.__annotations__) == list(REGISTRY)


@pytest.mark.parametrize("name", [name for name, option in REGISTRY.items() if "choices" in option])
def test_each_literal_restates_the_declared_choices(name: str) -> None:
    typed = choices(option_types()[name])
    assert typed == tuple(REGISTRY[name]["choices"])


def test_the_convention_literal_is_the_presets() -> None:
    assert choices(option_types()["convention"]) == tuple(renderer().call("_convention_presets"))


def test_defaults_and_docs_are_read_off_the_registry() -> None:
    for name, option in REGISTRY.items():
        assert DOCS[name] == option["help"]
        assert DEFAULTS[name] == (None if option.get("preset") else option["default"])


def test_trec_eval_is_the_declared_defaults() -> None:
    trec_eval = renderer().call("convention_options", "trec_eval")
    assert dict(trec_eval) == {name: option["default"] for name, option in REGISTRY.items() if option.get("preset")}


def test_the_docs_table_of_options_is_generated_from_the_registry() -> None:
    page = DOCS_PAGE.read_text()
    found = re.search(r"<!-- options: begin -->\n(.*?)\n<!-- options: end -->", page, re.S)
    assert found, "docs/metrics.md has no generated table of options"
    assert found.group(1) == options_table(), "regenerate it with rankwise._options.options_table()"
    for name in REGISTRY:
        assert f"| `{name}` |" in found.group(1)


def test_metric_names_by_level_partition_the_registry() -> None:
    import rankwise
    from rankwise.errors import InvalidArgumentError

    levels = {level: rankwise.metric_names(level) for level in ("user", "list", "group")}
    assert sorted(sum(levels.values(), [])) == sorted(rankwise.metric_names())
    assert {"ndcg", "map", "idcg"} <= set(levels["user"])
    assert {"novelty", "intra_list_diversity"} <= set(levels["list"])
    assert {"entropy", "personalization", "coverage", "gini"} <= set(levels["group"])
    with pytest.raises(InvalidArgumentError, match="`level` must be"):
        rankwise.metric_names("users")
