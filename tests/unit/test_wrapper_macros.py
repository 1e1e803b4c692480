"""The macros the Python wrapper calls, the contract's (macros/planner/contract.sql,
held to the package by tests/unit/test_contract.py), exist, and the public ones
are documented."""

from __future__ import annotations

from pathlib import Path

from rankwise._render import renderer
from tests.unit.test_contract import _contract

WRAPPER_MACROS = _contract()


def test_every_named_macro_exists_and_the_public_ones_are_documented():
    namespace = renderer().namespace
    schema = (Path(__file__).resolve().parents[2] / "macros" / "schema.yml").read_text()
    for name in WRAPPER_MACROS:
        assert name in namespace, name
        if not name.startswith("_"):
            assert f"- name: {name}\n" in schema, name


def test_metric_names_lists_the_registry_in_order():
    assert renderer().call("metric_names") == [
        "precision", "recall", "recall_cap", "f1", "hit_rate", "map", "mrr", "dcg", "idcg", "ndcg", "r_precision",
        "rbp", "err", "unjudged", "judged", "map_to_full_recall", "gm_map", "bpref", "gm_bpref", "num_ret", "num_rel",
        "num_rel_ret", "num_nonrel_judged_ret", "iprec_at_recall", "ap_11pt", "r_precision_multiple", "relative_precision",
        "set_map", "utility", "inf_ap", "ndcg_rel", "bin_g", "g", "rndcg", "rbp_residual", "entropy", "coverage", "gini", "exposure_gini",
        "exposure_disparity",
        "personalization", "novelty", "arp", "long_tail_share", "serendipity", "intra_list_diversity", "popularity_lift",
        "miscalibration", "rbo", "intersection"]
