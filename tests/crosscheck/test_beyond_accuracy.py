"""The beyond-accuracy metrics on hypothesis-generated cases, against the code
of RecTools, Microsoft Recommenders and Evidently (the ports in peers/, each
checked against its library by verify_ports.py) and against the reference
implementations of tests/reference/beyond_accuracy.py, written from each
definition in docs/metrics.md."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankwise
from tests.reference import beyond_accuracy as reference

from .peers import evidently, recommenders, rectools
from .strategies import BeyondCase, beyond_cases

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
# the cases of the metrics that evaluate several variants per example
FEWER = settings(SETTINGS, max_examples=15)


def _evaluate(case: BeyondCase, metrics: list[str], **options) -> dict[str, float]:
    # the interactions are not read by these metrics; any table that shares ids will do
    names = {metric.split("@")[0] for metric in metrics}
    inputs = {**({"train": case.train} if names & {"novelty", "arp", "long_tail_share"} else {}),
              **({"items": case.items} if names & {"coverage", "gini"} else {})}
    table = rankwise.evaluate(case.recommendations, case.recommendations[["user_id", "item_id"]], metrics,
                              **inputs, **options)
    return dict(zip(table["metric_label"], table["value"]))


def _mean(per_list: dict) -> float:
    return sum(per_list.values()) / len(per_list)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_catalog_coverage_gini_and_personalization_match_their_definitions(case: BeyondCase, k: int) -> None:
    values = _evaluate(case, ["coverage", "gini", f"personalization@{k}"], k=[k, None] if k > 1 else k)
    recommendations, items = case.recommendations, case.items
    assert values[f"coverage@{k}"] == pytest.approx(reference.coverage(recommendations, items, k), abs=1e-12)
    assert values[f"coverage@{k}"] == pytest.approx(
        rectools.catalog_coverage(recommendations, items["item_id"], k, normalize=True), abs=1e-12)
    assert values[f"gini@{k}"] == pytest.approx(reference.gini(recommendations, items, k), abs=1e-12)
    personalization = reference.personalization(recommendations, k)
    if math.isnan(personalization):
        assert math.isnan(values[f"personalization@{k}"])
    else:
        assert values[f"personalization@{k}"] == pytest.approx(personalization, abs=1e-12)
    if k > 1:
        assert values["gini"] == pytest.approx(reference.gini(recommendations, items, None), abs=1e-12)
        assert values["coverage"] == pytest.approx(reference.coverage(recommendations, items, None), abs=1e-12)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), head_share=st.sampled_from([0.2, 0.5, 0.8, 1.0]))
def test_novelty_arp_and_long_tail_share_match_their_definitions(case: BeyondCase, k: int, head_share: float) -> None:
    recommendations, train = case.recommendations, case.train
    for by in ("users", "interactions"):
        values = _evaluate(case, [f"novelty@{k}", f"arp@{k}", f"long_tail_share@{k}"], novelty_popularity=by,
                           arp_popularity=by, head_share=head_share)
        assert values[f"novelty@{k}"] == pytest.approx(_mean(reference.novelty(recommendations, train, k, by)), abs=1e-9)
        assert values[f"arp@{k}"] == pytest.approx(_mean(reference.arp(recommendations, train, k, by)), abs=1e-12)
        assert values[f"long_tail_share@{k}"] == pytest.approx(
            _mean(reference.long_tail_share(recommendations, train, k, head_share)), abs=1e-12)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_novelty_and_arp_match_rectools(case: BeyondCase, k: int) -> None:
    """MeanInvUserFreq, and AvgRecPopularity(normalize=True) under the
    RecTools convention, per user and as means."""
    expected_novelty = rectools.mean_inv_user_freq(case.recommendations, case.train, k)
    expected_arp = rectools.avg_rec_popularity(case.recommendations, case.train, k, normalize=True)
    per_user = rankwise.evaluate(case.recommendations, case.recommendations[["user_id", "item_id"]],
                                 [f"novelty@{k}", f"arp@{k}"], train=case.train, convention="rectools", per_user=True)
    for metric, expected in (("novelty", expected_novelty), ("arp", expected_arp)):
        rows = per_user[per_user["metric"] == metric]
        assert dict(zip(rows["user_id"], rows["value"])) == pytest.approx(expected, abs=1e-9)
    means = _evaluate(case, [f"novelty@{k}", f"arp@{k}"], convention="rectools")
    assert means[f"novelty@{k}"] == pytest.approx(_mean(expected_novelty), abs=1e-9)
    assert means[f"arp@{k}"] == pytest.approx(_mean(expected_arp), abs=1e-12)


def _per_list(case: BeyondCase, metric: str, **options) -> dict:
    """serendipity or intra_list_diversity by features, per list."""
    inputs = {"items": case.items, **({"train": case.train} if metric.startswith("serendipity") else {})}
    table = rankwise.evaluate(case.recommendations, case.interactions, [metric], per_user=True, **inputs, **options)
    return dict(zip(table["user_id"], table["value"]))


DIVERSITY_VARIANTS = [("cosine", dict(item_feature_cols=reference.VECTOR)),
                      ("cosine", dict(item_vector_col="vector")),
                      ("hamming", dict(item_feature_cols=reference.FEATURES)),
                      ("cooccurrence", {})]


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_serendipity_and_intra_list_diversity_match_their_definitions(case: BeyondCase, k: int) -> None:
    serendipity = _per_list(case, f"serendipity@{k}")
    assert serendipity == pytest.approx(
        reference.serendipity(case.recommendations, case.interactions, case.train, case.items, k), abs=1e-12)
    with_vectors = case.items.assign(vector=case.items[reference.VECTOR].values.tolist())
    for distance, columns in DIVERSITY_VARIANTS:
        for denominator in ("pairs", "list_length"):
            options = dict(item_distance=distance, diversity_denominator=denominator, **columns)
            inputs = {"train": case.train} if distance == "cooccurrence" else {"items": with_vectors}
            table = rankwise.evaluate(case.recommendations, case.interactions, [f"intra_list_diversity@{k}"],
                                      per_user=True, validate=False, **inputs, **options)
            expected = reference.intra_list_diversity(case.recommendations, case.items, case.train, k, distance,
                                                      denominator)
            assert dict(zip(table["user_id"], table["value"])) == pytest.approx(expected, abs=1e-9), options


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12), beyond=st.integers(-3, 3), data=st.data())
def test_serendipity_beside_the_accuracy_metrics_reads_relevance_off_their_rank_bits(case: BeyondCase, k: int,
                                                                                   beyond: int, data) -> None:
    """Beside a per-user metric whose cutoff holds serendipity's, a shown item's
    relevance is read off its list's relevant ranks (rw_list_bits), not by a
    second join to the interactions; beside a smaller cutoff, off the
    interactions. The same values either way, on graded interactions of which
    those of relevance 2 and up are relevant."""
    metrics = [f"serendipity@{k}", f"ndcg@{max(k + beyond, 1)}"]
    sql = rankwise.sql("recommendations", "interactions", metrics, items="items", train="train",
                       relevance_col="relevance")
    assert ("rw_list_bits as shown" in sql, "rw_interactions as truth" in sql) == (
        (True, False) if beyond >= 0 else (False, True))
    grades = data.draw(st.lists(st.integers(0, 3), min_size=len(case.interactions), max_size=len(case.interactions)))
    interactions = case.interactions.assign(relevance=grades)
    table = rankwise.evaluate(case.recommendations, interactions, metrics, items=case.items, train=case.train,
                              relevance_col="relevance", relevance_threshold=2, per_user=True)
    rows = table[table["metric"] == "serendipity"]
    relevant = interactions[interactions["relevance"] >= 2][["user_id", "item_id"]]
    assert dict(zip(rows["user_id"], rows["value"])) == pytest.approx(
        reference.serendipity(case.recommendations, relevant, case.train, case.items, k), abs=1e-12)


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_serendipity_and_hamming_diversity_match_rectools(case: BeyondCase, k: int) -> None:
    """Serendipity, and IntraListDiversity with PairwiseHammingDistanceCalculator
    under the RecTools convention, per list and as the mean: a list of one item
    scores 0 there (single_item_diversity='zero'); with 'no_value' it is left out."""
    expected = rectools.serendipity(case.recommendations, case.interactions, case.train, case.items["item_id"], k)
    assert _per_list(case, f"serendipity@{k}", convention="rectools") == pytest.approx(expected, abs=1e-12)
    means = rankwise.evaluate(case.recommendations, case.interactions, [f"serendipity@{k}"], items=case.items,
                              train=case.train, convention="rectools")
    assert means["value"].item() == pytest.approx(_mean(expected), abs=1e-12)
    features = case.items.set_index("item_id")[reference.FEATURES]
    expected = rectools.intra_list_diversity_hamming(case.recommendations, features, k)
    actual = _per_list(case, f"intra_list_diversity@{k}", convention="rectools", item_feature_cols=reference.FEATURES)
    assert actual == pytest.approx(expected, abs=1e-12)
    means = rankwise.evaluate(case.recommendations, case.interactions, [f"intra_list_diversity@{k}"], items=case.items,
                              convention="rectools", item_feature_cols=reference.FEATURES)
    assert means["value"].item() == pytest.approx(_mean(expected), abs=1e-12)
    assert means["n_users"].item() == len(expected)
    top = case.recommendations[case.recommendations["rank"] <= k]
    single = set(top["user_id"].value_counts().loc[lambda counts: counts == 1].index)
    without = _per_list(case, f"intra_list_diversity@{k}", convention="rectools", item_feature_cols=reference.FEATURES,
                        single_item_diversity="no_value")
    assert without == pytest.approx({user: value for user, value in expected.items() if user not in single}, abs=1e-12)


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_cooccurrence_diversity_matches_recommenders(case: BeyondCase, k: int) -> None:
    """user_diversity and diversity with item_cooccurrence_count under the
    Recommenders convention, given the top k as Recommenders reads its whole
    input, and a train table without repeated rows as it assumes."""
    train = case.train.drop_duplicates()
    top = case.recommendations[case.recommendations["rank"] <= k]
    # diversity reads no interactions; the top k's own pairs share its ids
    per_list = rankwise.evaluate(top, top[["user_id", "item_id"]], ["intra_list_diversity"], train=train,
                                 convention="recommenders", per_user=True)
    expected = recommenders.user_diversity(train, top)
    assert dict(zip(per_list["user_id"], per_list["value"])) == pytest.approx(expected, abs=1e-12)
    if expected:
        means = rankwise.evaluate(top, top[["user_id", "item_id"]], ["intra_list_diversity"], train=train,
                                  convention="recommenders")
        assert means["value"].item() == pytest.approx(recommenders.diversity(train, top), abs=1e-12)


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_cosine_diversity_over_the_list_length_matches_evidently(case: BeyondCase, k: int) -> None:
    """DiversityMetric under the Evidently convention: cosine distances of the
    item features, summed over the pairs and divided by the list's items."""
    rows = case.recommendations.merge(case.items, on="item_id")
    means = rankwise.evaluate(case.recommendations, case.interactions, [f"intra_list_diversity@{k}"], items=case.items,
                              convention="evidently", item_feature_cols=reference.VECTOR)
    assert means["value"].item() == pytest.approx(evidently.diversity(rows, reference.VECTOR, k), abs=1e-12)


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_coverage_gini_and_novelty_match_evidently(case: BeyondCase, k: int) -> None:
    """PopularityBias's coverage (the train items shown) and Gini (over the
    items shown, n - 1) and NoveltyMetric (items not in train dropped) under the
    Evidently convention."""
    values = _evaluate_with(case, [f"coverage@{k}", f"gini@{k}", f"novelty@{k}"], train=case.train,
                            convention="evidently")
    expected = evidently.popularity_bias(case.recommendations, case.train, k)
    top = case.recommendations[case.recommendations["rank"] <= k]
    assert values[f"coverage@{k}"] == pytest.approx(expected["coverage"], abs=1e-12)
    if top["item_id"].nunique() > 1:
        assert values[f"gini@{k}"] == pytest.approx(expected["gini"], abs=1e-12)
    else:  # Evidently divides by n - 1 = 0
        assert math.isnan(values[f"gini@{k}"])
    if top["item_id"].isin(case.train["item_id"]).any():
        assert values[f"novelty@{k}"] == pytest.approx(evidently.novelty(case.recommendations, case.train, k), abs=1e-9)
    else:  # every item dropped: no list has a value
        assert f"novelty@{k}" not in values


@FEWER
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_coverage_and_novelty_match_recommenders(case: BeyondCase, k: int) -> None:
    """catalog_coverage and novelty under the Recommenders convention, given
    the top k. Recommenders averages novelty over the recommended rows, rankwise
    over the lists: the per-list values weighted by their items give its mean."""
    train = case.train.drop_duplicates()
    top = case.recommendations[case.recommendations["rank"] <= k]
    values = _evaluate_with(case, ["coverage", "novelty"], train=train, convention="recommenders", recommendations=top)
    assert values["coverage"] == pytest.approx(recommenders.catalog_coverage(train, top), abs=1e-12)
    per_list = rankwise.evaluate(top, top[["user_id", "item_id"]], ["novelty"], train=train, convention="recommenders",
                                 per_user=True)
    rows_mean = (per_list["value"] * per_list["n_recommended"]).sum() / per_list["n_recommended"].sum()
    assert rows_mean == pytest.approx(recommenders.novelty(train, top), abs=1e-9)
    if top.groupby("user_id").size().nunique() == 1:  # lists of one length: the two means agree
        assert values["novelty"] == pytest.approx(recommenders.novelty(train, top), abs=1e-9)


def _evaluate_with(case: BeyondCase, metrics: list[str], recommendations=None, **options) -> dict[str, float]:
    """The means of metrics that read no interactions: the lists' own pairs
    stand for them (they share the lists' ids)."""
    lists = case.recommendations if recommendations is None else recommendations
    table = rankwise.evaluate(lists, lists[["user_id", "item_id"]], metrics, **options)
    return dict(zip(table["metric_label"], table["value"]))
