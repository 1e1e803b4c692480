"""Two models that give a user the same list tie on that user, on every run:
the engine adds a list's terms in whatever order its threads meet them, so
equal values can differ in the last bits; compare judges them equal within
1e-12 of the larger (docs/statistics.md, "Ties"). Here ten runs of compare over
400 users and three models, too slow for tests/unit, which holds the rule on
hand-picked values (tests/unit/test_compare_ties.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import rankwise

METRICS = ["ndcg@10", "map@10", "dcg@20", "mrr@20", "precision@5"]


def _inputs(seed: int = 7) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three models over 400 users with graded relevances: b copies a's list for
    most users, c copies a's for a third of them."""
    rng = np.random.default_rng(seed)
    rows, truth = [], []
    for user in range(400):
        items = rng.choice(200, size=20, replace=False)
        for item in rng.choice(200, size=15, replace=False):
            truth.append((user, int(item), float(rng.integers(0, 4)) + rng.random()))
        lists = {"a": items, "b": items if rng.random() < 0.8 else rng.permutation(items),
                 "c": items if rng.random() < 0.33 else rng.choice(200, size=20, replace=False)}
        for model, shown in lists.items():
            rows += [(model, user, int(item), rank) for rank, item in enumerate(shown, start=1)]
    recommendations = pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"])
    interactions = pd.DataFrame(truth, columns=["user_id", "item_id", "relevance"]).drop_duplicates(["user_id", "item_id"])
    return recommendations, interactions


def _counts(result: pd.DataFrame) -> list[tuple]:
    ordered = result.sort_values(["metric", "k", "model", "baseline"])
    return list(ordered[["metric", "k", "model", "baseline", "wins", "ties", "losses"]].itertuples(index=False))


def test_wins_ties_and_losses_are_the_same_on_every_run_and_match_the_per_user_values() -> None:
    recommendations, interactions = _inputs()
    runs = [_counts(rankwise.compare(recommendations, interactions, METRICS, relevance_col="relevance", gain="exponential"))
            for _ in range(10)]
    assert all(run == runs[0] for run in runs[1:])
    # each metric for each of the three pairs of models
    assert len(runs[0]) == 3 * len(METRICS)
    assert {(model, baseline) for _, _, model, baseline, *_ in runs[0]} == {("a", "b"), ("a", "c"), ("b", "c")}
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, group_by="model", per_user=True,
                                 relevance_col="relevance", gain="exponential")
    same_list = {model: set(recommendations.groupby("user_id").apply(
        lambda rows, model=model: rows.loc[rows.model == model, "item_id"].tolist()
        == rows.loc[rows.model == "a", "item_id"].tolist())[lambda flags: flags].index) for model in ("b", "c")}
    for metric, k, model, baseline, wins, ties, losses in runs[0]:
        wide = per_user[(per_user.metric == metric) & (per_user.k == k)].pivot(index="user_id", columns="model",
                                                                                 values="value")
        first, second = wide[model], wide[baseline]
        raw = first - second
        difference = raw.where(raw.abs() > 1e-12 * np.maximum(first.abs(), second.abs()), 0.0)
        assert (wins, ties, losses) == ((difference > 0).sum(), (difference == 0).sum(), (difference < 0).sum())
        # a user given the same list by both models is a tie
        for copied in ("b", "c"):
            if {model, baseline} == {"a", copied}:
                assert (difference.loc[sorted(same_list[copied])] == 0).all()
