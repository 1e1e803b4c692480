"""DuckDB reads the judged components (hits, AP's precision sum, the first relevant
rank, DCG) off bit sets of ranks when every cutoff is at most 62, and off a window
of running hits otherwise (macros/evaluate/stage_judged.sql). Both must give the
same numbers: the same evaluation runs once with cutoffs up to 62 and once with
one more cutoff, 63, which sends every cutoff down the window path."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rankwise

CUTOFFS = [1, 2, 5, 10, 20, 61, 62]
METRICS = ["precision", "recall", "f1", "hit_rate", "map", "mrr", "dcg", "idcg", "ndcg"]


def _data(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Lists of 0 to 80 items over 120 items, so that ranks run past 62 and some
    lists stop short of a cutoff; graded truth with zeros and unjudged users; two
    models and two folds."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for fold in ("f1", "f2"):
        for user in range(40):
            truth = rng.choice(120, size=rng.integers(0, 30), replace=False)
            for item in truth:
                interactions.append((fold, f"u{user}", int(item), float(rng.integers(0, 4))))
            for model in ("a", "b"):
                length = int(rng.integers(0, 81))
                # relevant items lean to the top, so that deep and shallow hits both occur
                weights = np.where(np.isin(np.arange(120), truth), 6.0, 1.0)
                items = rng.choice(120, size=length, replace=False, p=weights / weights.sum())
                for rank, item in enumerate(items, start=1):
                    recommendations.append((fold, model, f"u{user}", int(item), rank))
    return (pd.DataFrame(recommendations, columns=["fold", "model", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["fold", "user_id", "item_id", "relevance"]))


def _both_paths(recommendations, interactions, per_user=False, **options):
    keys = ["fold", "model", "metric", "k"] + (["user_id"] if per_user else [])
    arguments = dict(relevance_col="relevance", group_by="model", partition_by="fold", per_user=per_user, **options)
    bits = rankwise.evaluate(recommendations, interactions, METRICS, k=CUTOFFS, **arguments)
    window = rankwise.evaluate(recommendations, interactions, METRICS, k=CUTOFFS + [63], **arguments)
    window = window[window["k"] != 63]
    return (bits.sort_values(keys).reset_index(drop=True), window.sort_values(keys).reset_index(drop=True))


@pytest.mark.filterwarnings("ignore:.*scored on different users")
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("options", [
    {},
    {"relevance_threshold": 2, "gain": "exponential"},
    {"convention": "ranx"},
    {"users": "both", "ap_denominator": "min_relevant_k"},
], ids=["trec_eval", "threshold_2_exponential", "ranx", "both_min_relevant_k"])
def test_the_bit_path_gives_the_window_paths_numbers(seed, options):
    bits, window = _both_paths(*_data(seed), **options)
    assert len(bits) == len(window) > 0
    pd.testing.assert_frame_equal(bits, window, check_exact=False, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("seed", [3])
def test_the_bit_path_gives_the_window_paths_numbers_per_user(seed):
    bits, window = _both_paths(*_data(seed), per_user=True)
    assert len(bits) == len(window) > 0
    assert (bits["hits"] > 0).any() and bits["value"].notna().any()
    pd.testing.assert_frame_equal(bits, window, check_exact=False, rtol=1e-12, atol=1e-15)


def test_the_path_is_chosen_by_the_largest_cutoff_and_the_tie_rule():
    def sql(k, **options):
        return rankwise.sql("recommendations", "interactions", ["map", "ndcg", "mrr"], k=k, **options)

    assert "bit_or(" in sql([5, 62]) and "over (" not in sql([5, 62]).split("rw_list_bits")[1].split("rw_user_components")[0]
    assert "bit_or(" not in sql([5, 63])
    assert "bit_or(" not in sql(None)
    # tied scores that share a rank would set one bit for two items
    assert "bit_or(" not in sql(10, score_col="score", ties="shared")
    assert "bit_or(" in sql(10, score_col="score")
    # R-precision reads R on every judged row
    assert "bit_or(" not in rankwise.sql("recommendations", "interactions", ["map@10", "r_precision"])
