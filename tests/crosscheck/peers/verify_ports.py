"""Run by hand, not in CI: the ports in this folder give the libraries' own
numbers. In a venv with the libraries (pip install rectools recommenders
evidently pandas hypothesis pytest), from the repository root:

    python -m pytest tests/crosscheck/peers/verify_ports.py -p no:cacheprovider
"""

from __future__ import annotations

import math
import warnings

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ..strategies import Case, beyond_cases, cases
from . import evidently as evidently_port
from . import recommenders as recommenders_port
from . import rectools as rectools_port

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(case=cases(distinct_scores=True), k=st.integers(1, 35))
def test_the_recommenders_port_gives_the_library_numbers(case: Case, k: int) -> None:
    from recommenders.evaluation import python_evaluation as library

    assume(case.is_evaluable() and set(case.run()) & set(case.qrels()))
    rating_true = case.interactions.rename(columns={"relevance": "rating"})
    rating_pred = case.recommendations.rename(columns={"score": "prediction"})
    columns = dict(col_user="user_id", col_item="item_id", col_prediction="prediction", k=k)
    for name in ("precision_at_k", "recall_at_k", "r_precision_at_k", "map_at_k", "map"):
        library.map.cache_clear() if hasattr(library.map, "cache_clear") else None
        expected = getattr(library, name)(rating_true, rating_pred, **columns)
        assert math.isclose(getattr(recommenders_port, name)(rating_true, rating_pred, k), expected, abs_tol=1e-12), name
    for score_type in ("binary", "raw", "exp"):
        expected = library.ndcg_at_k(rating_true, rating_pred, col_rating="rating", score_type=score_type, **columns)
        actual = recommenders_port.ndcg_at_k(rating_true, rating_pred, k, score_type=score_type)
        assert (math.isnan(actual) and math.isnan(expected)) or math.isclose(actual, expected, abs_tol=1e-12), score_type


@SETTINGS
@given(case=cases(), k=st.integers(1, 35))
def test_the_rectools_port_gives_the_library_numbers(case: Case, k: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from rectools.metrics import MAP, MRR, NDCG, HitRate, Precision, Recall

    assume(case.is_evaluable())
    ranked = case.recommendations.sort_values(["user_id", "score", "item_id"], ascending=[True, False, False])
    ranked = ranked.assign(rank=ranked.groupby("user_id").cumcount() + 1)[["user_id", "item_id", "rank"]]
    interactions = case.interactions[["user_id", "item_id"]]
    merged = rectools_port.merge_reco(ranked, interactions)
    pairs = [
        (Precision(k=k), rectools_port.precision(merged, k)), (Recall(k=k), rectools_port.recall(merged, k)),
        (HitRate(k=k), rectools_port.hit_rate(merged, k)), (MRR(k=k), rectools_port.mrr(merged, k)),
        (MAP(k=k), rectools_port.map_(merged, k)), (MAP(k=k, divide_by_k=True), rectools_port.map_(merged, k, True)),
        (NDCG(k=k), rectools_port.ndcg(merged, k)), (NDCG(k=k, divide_by_achievable=True), rectools_port.ndcg(merged, k, True)),
    ]
    reco = ranked.rename(columns={"user_id": "user_id", "item_id": "item_id", "rank": "rank"})
    for metric, port in pairs:
        expected = metric.calc_per_user(reco, interactions)
        # the users of the interactions, which case.is_evaluable makes at least one
        assert set(port) == set(expected.index)
        for user, value in port.items():
            assert math.isclose(value, float(expected[user]), abs_tol=1e-12), (metric, user)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), data=st.data())
def test_the_evidently_port_gives_the_library_numbers(case: Case, data: st.DataObject) -> None:
    from evidently.legacy.metrics import HitRateKMetric, MAPKMetric, MRRKMetric, NDCGKMetric, PrecisionTopKMetric, RecallTopKMetric
    from evidently.legacy.pipeline.column_mapping import ColumnMapping, RecomType
    from evidently.legacy.report import Report

    from . import evidently as evidently_port

    shown = case.recommendations.merge(case.interactions, on=["user_id", "item_id"], how="left")
    shown["target"] = shown["relevance"].fillna(0)
    shown = shown.sort_values(["user_id", "score"], ascending=[True, False], kind="stable")[["user_id", "item_id", "score", "target"]]
    assume(not shown.empty and (shown.target > 0).any())
    # the library reports cutoffs up to the largest rank only
    k = data.draw(st.integers(1, int(evidently_port.collect_dataset(shown, True).preds.max())))
    metrics = {"precision": PrecisionTopKMetric(k=k), "recall": RecallTopKMetric(k=k), "map": MAPKMetric(k=k),
               "ndcg": NDCGKMetric(k=k), "mrr": MRRKMetric(k=k), "hit_rate": HitRateKMetric(k=k)}
    report = Report(metrics=list(metrics.values()))
    mapping = ColumnMapping(recommendations_type=RecomType.SCORE, target="target", prediction="score",
                            user_id="user_id", item_id="item_id")
    report.run(reference_data=None, current_data=shown.reset_index(drop=True), column_mapping=mapping)
    reported = report.as_dict()["metrics"]
    assert len(reported) == len(metrics)
    results = {name: result["result"]["current"] for name, result in zip(metrics, reported)}
    port = {**evidently_port.precision_recall_map(shown, k), "ndcg": evidently_port.ndcg(shown, k),
            "mrr": evidently_port.mrr(shown, k), "hit_rate": evidently_port.hit_rate(shown, k)}
    for name, series in results.items():
        # ndcg and mrr index their series by k, the others by position
        expected = float(series[k]) if name in ("ndcg", "mrr") else float(series.iloc[k - 1])
        assert math.isclose(port[name], expected, abs_tol=1e-12), (name, k, port[name], expected)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_rectools_beyond_accuracy_port_gives_the_library_numbers(data: st.DataObject, k: int) -> None:
    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from rectools.metrics import AvgRecPopularity, CatalogCoverage, MeanInvUserFreq

    case = data.draw(beyond_cases())
    reco = case.recommendations
    prev = case.train
    expected = MeanInvUserFreq(k=k).calc_per_user(reco, prev)
    actual = rectools_port.mean_inv_user_freq(reco, prev, k)
    assert set(actual) == set(expected.dropna().index)
    for user, value in actual.items():
        assert math.isclose(value, expected[user], abs_tol=1e-12)
    for normalize in (False, True):
        expected = AvgRecPopularity(k=k, normalize=normalize).calc_per_user(reco, prev)
        actual = rectools_port.avg_rec_popularity(reco, prev, k, normalize)
        assert set(actual) == set(expected.index)
        for user, value in actual.items():
            assert math.isclose(value, expected[user], abs_tol=1e-12)
        catalog = pd.Series(case.items["item_id"])
        assert math.isclose(rectools_port.catalog_coverage(reco, catalog, k, normalize),
                            CatalogCoverage(k=k, normalize=normalize).calc(reco, catalog), abs_tol=1e-12)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_rectools_serendipity_and_diversity_ports_give_the_library_numbers(data: st.DataObject, k: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from rectools.metrics import IntraListDiversity, Serendipity
        from rectools.metrics.distances import PairwiseHammingDistanceCalculator

    case = data.draw(beyond_cases())
    reco, catalog = case.recommendations, case.items["item_id"]
    expected = Serendipity(k=k).calc_per_user(reco, case.interactions, case.train, catalog)
    actual = rectools_port.serendipity(reco, case.interactions, case.train, catalog, k)
    assert set(actual) == set(expected.dropna().index)
    for user, value in actual.items():
        assert math.isclose(value, expected[user], abs_tol=1e-12)
    features = case.items.set_index("item_id")[["genre", "era"]]
    # RecTools' Hamming calculator compares numbers: the genre as a code
    numeric = features.assign(genre=features["genre"].map({"drama": 0, "news": 1, "comedy": 2}))
    expected = IntraListDiversity(k=k, distance_calculator=PairwiseHammingDistanceCalculator(numeric)).calc_per_user(reco)
    actual = rectools_port.intra_list_diversity_hamming(reco, features, k)
    assert set(actual) == set(expected.index)
    for user, value in actual.items():
        assert math.isclose(value, expected[user], abs_tol=1e-12)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_recommenders_diversity_port_gives_the_library_numbers(data: st.DataObject, k: int) -> None:
    from recommenders.evaluation import python_evaluation as library

    train, reco = _recommenders_inputs(data.draw(beyond_cases()), k)
    expected = library.user_diversity(train, reco, col_user="user_id", col_item="item_id")
    actual = recommenders_port.user_diversity(train, reco)
    assert dict(zip(expected["user_id"], expected["user_diversity"])) == actual
    if actual:
        assert math.isclose(recommenders_port.diversity(train, reco),
                            library.diversity(train, reco, col_user="user_id", col_item="item_id"), abs_tol=1e-12)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_evidently_diversity_port_gives_the_library_numbers(data: st.DataObject, k: int) -> None:
    import pandas as pd
    from evidently.legacy.metrics import DiversityMetric

    case = data.draw(beyond_cases())
    rows = case.recommendations.merge(case.items, on="item_id")
    features = ["f1", "f2", "f3"]
    [result] = _evidently_results([DiversityMetric(k=k, item_features=features)], rows,
                                  pd.DataFrame(columns=["user_id", "item_id", *features]))
    expected = result["current_value"]
    assert math.isclose(evidently_port.diversity(rows, features, k), expected, abs_tol=1e-12)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_evidently_novelty_and_popularity_bias_ports_give_the_library_numbers(data: st.DataObject, k: int) -> None:
    from evidently.legacy.metrics import NoveltyMetric, PopularityBias

    case = data.draw(beyond_cases())
    reco, train = case.recommendations, case.train
    top = reco[reco["rank"] <= k]
    assume(top["item_id"].nunique() > 1 and top["item_id"].isin(train["item_id"]).any())
    novelty, bias = _evidently_results([NoveltyMetric(k=k), PopularityBias(k=k)], reco, train)
    assert math.isclose(evidently_port.novelty(reco, train, k), novelty["current_value"], abs_tol=1e-12)
    port = evidently_port.popularity_bias(reco, train, k)
    assert math.isclose(port["coverage"], bias["current_coverage"], abs_tol=1e-12)
    assert math.isclose(port["gini"], bias["current_gini"], abs_tol=1e-12)


@SETTINGS
@given(data=st.data(), k=st.integers(1, 12))
def test_the_recommenders_coverage_and_novelty_ports_give_the_library_numbers(data: st.DataObject, k: int) -> None:
    from recommenders.evaluation import python_evaluation as library

    train, reco = _recommenders_inputs(data.draw(beyond_cases()), k)
    columns = dict(col_user="user_id", col_item="item_id")
    assert math.isclose(recommenders_port.catalog_coverage(train, reco),
                        library.catalog_coverage(train, reco, **columns), abs_tol=1e-12)
    assert math.isclose(recommenders_port.novelty(train, reco), library.novelty(train, reco, **columns), abs_tol=1e-12)


def _recommenders_inputs(case, k: int):
    """The train table without repeated rows, as Recommenders assumes, and the
    top k without the (user, item) pairs of train, which the library refuses."""
    train = case.train.drop_duplicates()
    top = case.recommendations[case.recommendations["rank"] <= k]
    reco = top.merge(train, how="left", indicator=True).query("_merge == 'left_only'").drop(columns="_merge")
    assume(len(reco) > 0)
    return train, reco


def _evidently_results(metrics: list, recommendations, train) -> list[dict]:
    """Each metric's result in an Evidently report over ranked recommendations
    (no target read) with their train interactions."""
    from evidently.legacy.pipeline.column_mapping import ColumnMapping, RecomType
    from evidently.legacy.report import Report

    report = Report(metrics=metrics)
    report.run(reference_data=None, current_data=recommendations.assign(target=0),
               column_mapping=ColumnMapping(recommendations_type=RecomType.RANK, user_id="user_id", item_id="item_id",
                                            prediction="rank", target="target"),
               additional_data={"current_train_data": train})
    return [metric["result"] for metric in report.as_dict()["metrics"]]
