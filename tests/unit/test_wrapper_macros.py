"""The Python wrapper calls a named set of macros, and no other: the public
entry points a dbt user calls too, plus the string literal that quotes a file
path. A new call must be added here, which makes it a decision."""

from __future__ import annotations

import re
from pathlib import Path

from rankwise._render import renderer

PYTHON = Path(__file__).resolve().parents[2] / "python" / "rankwise"
WRAPPER_MACROS = {
    "evaluate", "evaluation_notes", "recommendation_problems", "interaction_problems", "convention_options",
    "metric_names", "quote_identifier", "_string_literal", "id_overlap", "coverage_warnings", "_problem_message",
    "_missing_column_message", "compare", "_ids_shared", "_catalog_problems", "_train_problems",
    "_evaluation_plan", "_option_registry", "_note_message", "_note_table", "_readers_of", "_metric_names_of_level",
    "_input_problems", "_guarded_evaluate", "_model_literal", "_options_read_by", "exposure_by_item_group",
    "_compared_options", "metric_alias", "metric_aliases",
}


def test_the_wrapper_calls_only_the_named_macros():
    called = {match.group(1) for path in PYTHON.rglob("*.py")
              for match in re.finditer(r"\.call\(\s*\"(\w+)\"", path.read_text())}
    assert called == WRAPPER_MACROS


def test_every_named_macro_exists_and_the_public_ones_are_documented():
    namespace = renderer().namespace
    schema = (Path(__file__).resolve().parents[2] / "macros" / "schema.yml").read_text()
    for name in WRAPPER_MACROS:
        assert name in namespace, name
        if not name.startswith("_"):
            assert f"- name: {name}\n" in schema, name


def test_metric_names_lists_the_registry_in_order():
    assert renderer().call("metric_names") == [
        "precision", "recall", "f1", "hit_rate", "map", "mrr", "dcg", "idcg", "ndcg", "r_precision",
        "rbp", "err", "map_to_full_recall", "entropy", "coverage", "gini", "exposure_gini", "exposure_disparity",
        "personalization", "novelty", "arp", "long_tail_share", "serendipity", "intra_list_diversity", "popularity_lift",
        "miscalibration", "rbo", "intersection"]
