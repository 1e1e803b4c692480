"""trec_eval's, ir_measures' and ranx's names of rankwise's metrics: one table in
the macros (macros/aliases/metric_aliases.sql), read by the metric parser and
the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rankwise
from rankwise._aliases import aliases_table
from rankwise._render import renderer
from rankwise.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"
REPO_ROOT = Path(__file__).resolve().parents[2]


def _alias(metric: object) -> object:
    return renderer().call("metric_alias", metric)


@pytest.mark.parametrize(("alias", "canonical"), [
    ("P_10", "precision@10"), ("P@10", "precision@10"), ("P(rel=2)@10", "precision(rel=2)@10"),
    ("recall_100", "recall@100"), ("R@100", "recall@100"),
    ("map_cut_10", "map@10"), ("AP@10", "map@10"), ("AP", "map"), ("AP(rel=2)", "map(rel=2)"),
    ("ndcg_cut_10", "ndcg@10"), ("nDCG@10", "ndcg@10"),
    ("recip_rank", "mrr"), ("RR", "mrr"), ("RR@10", "mrr@10"),
    ("Rprec", "r_precision"), ("r-precision", "r_precision"),
    ("success_5", "hit_rate@5"), ("Success@5", "hit_rate@5"),
    ("set_P", "precision"), ("SetR", "recall"), ("set_F", "f1"), ("ideal_dcg", "idcg"),
])
def test_each_alias_becomes_its_rankwise_metric_string(alias: str, canonical: str) -> None:
    assert _alias(alias) == canonical


@pytest.mark.parametrize(("alias", "canonical"), [
    ("MAP", "map"), ("NDCG@10", "ndcg@10"), ("ndcg@10", "ndcg@10"), ("p_10", "precision@10"),
    ("NDCG_CUT_5", "ndcg@5"), ("Recip_Rank", "mrr"), ("rr@10", "mrr@10"), ("RBP(p=0.9)", "rbp(p=0.9)"),
])
def test_names_are_read_without_regard_to_case(alias: str, canonical: str) -> None:
    assert _alias(alias) == canonical


def test_a_rankwise_metric_string_is_returned_as_given() -> None:
    for metric in ("precision@10", "ndcg(rel=2)@5", "rbp(p=0.95, normalize=true)", "map", "recall@abc"):
        assert _alias(metric) == metric


@pytest.mark.parametrize("name", ["relstring", "yaap", "P_0", "P_x", "P_10@5", "P_10(rel=2)", "iprec_at_recall_x",
                                  "nothing", "", 5, None])
def test_other_names_have_no_metric(name: object) -> None:
    assert _alias(name) is None


def test_a_name_that_two_metrics_share_in_lower_case_needs_its_case() -> None:
    aliases = [{"alias": "Hits", "form": "name", "metric": "hit_rate"},
               {"alias": "HITS", "form": "name", "metric": "precision"}]
    call = renderer().call
    assert call("_aliased_metric", "Hits@5", aliases) == "hit_rate@5"
    assert call("_aliased_metric", "HITS@5", aliases) == "precision@5"
    assert call("_aliased_metric", "hits@5", aliases) is None


def test_an_alias_may_carry_a_parameter_as_trec_eval_prints_it() -> None:
    """The form of trec_eval's iprec_at_recall_0.10 and Rprec_mult_0.20."""
    aliases = [{"alias": "prec_at", "form": "name_value", "metric": "rbp", "parameter": "p"}]
    call = renderer().call
    assert call("_aliased_metric", "prec_at_0.95", aliases) == "rbp(p=0.95)"
    assert call("_aliased_metric", "prec_at_x", aliases) is None
    assert _alias("iprec_at_recall_0.10") == "iprec_at_recall(recall=0.10)"
    assert _alias("Rprec_mult_0.20") == "r_precision_multiple(m=0.20)"


def test_every_alias_names_a_rankwise_metric_and_its_example_resolves() -> None:
    known = set(rankwise.metric_names())
    for entry in renderer().call("metric_aliases"):
        assert entry["metric"] in known, entry
        # a rankwise name is read as rankwise's metric first: an alias written as one would never be reached
        assert entry["form"] != "name" or entry["alias"] not in known, entry
        assert _alias(entry["example"]).split("@")[0].split("(")[0] == entry["metric"], entry


def test_the_metric_parser_reads_the_aliases() -> None:
    parsed = renderer().call("_parse_metrics", ["P_10", "nDCG@5", "MAP", "map", "AP(rel=2)"], None, "evaluate")
    assert [(entry["name"], entry["k"], entry["label"]) for entry in parsed] == [
        ("precision", 10, "precision"), ("ndcg", 5, "ndcg"), ("map", None, "map"), ("map", None, "map(rel=2)")]


def test_the_command_line_takes_the_aliases(tmp_path: Path) -> None:
    run, qrels = tmp_path / "run.csv", tmp_path / "qrels.csv"
    rankwise.read_run(FIXTURES / "results.test").to_csv(run, index=False)
    rankwise.read_qrels(FIXTURES / "qrels.test").to_csv(qrels, index=False)
    arguments = [str(run), str(qrels), "--score-col", "score", "--relevance-col", "relevance", "--group-by", "model"]
    aliased = CliRunner().invoke(main, ["evaluate", *arguments, "-m", "P_5", "-m", "nDCG@10", "-m", "MAP"])
    canonical = CliRunner().invoke(main, ["evaluate", *arguments, "-m", "precision@5", "-m", "ndcg@10", "-m", "map"])
    assert aliased.exit_code == 0, aliased.output
    assert aliased.output == canonical.output
    assert "precision@5" in aliased.output


def test_docs_hold_the_table_of_aliases() -> None:
    assert aliases_table() in (REPO_ROOT / "docs" / "search.md").read_text()
