"""Random evaluation cases for the cross-checks against reference implementations."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from hypothesis import strategies as st

# Ids of varying length whose string order differs from their length order
# ('a10' < 'a9'), so that tie-breaking by item id is exercised.
ITEM_IDS = [f"{prefix}{n}" for prefix in ("a", "b", "zz") for n in range(12)]
USER_IDS = [f"user{n}" for n in range(8)]


@dataclass
class Case:
    recommendations: pd.DataFrame  # user_id, item_id, score
    interactions: pd.DataFrame  # user_id, item_id, relevance

    def is_evaluable(self) -> bool:
        """rankwise refuses an empty table (an EmptyInputError)."""
        return not self.recommendations.empty and not self.interactions.empty

    def run(self) -> dict[str, dict[str, float]]:
        return {
            user: dict(zip(rows.item_id, rows.score.astype(float)))
            for user, rows in self.recommendations.groupby("user_id")
        }

    def qrels(self) -> dict[str, dict[str, int]]:
        return {
            user: dict(zip(rows.item_id, rows.relevance.astype(int)))
            for user, rows in self.interactions.groupby("user_id")
        }


@st.composite
def cases(draw: st.DrawFn, distinct_scores: bool = False) -> Case:
    """Up to 8 users; each may have a list of 0..30 items, a graded truth (0..4)
    of 0..12 items that may or may not be recommended, or both. Scores are drawn
    from a few values, so ties are common, unless `distinct_scores`."""
    recommendations, interactions = [], []
    for user in draw(st.lists(st.sampled_from(USER_IDS), min_size=1, max_size=8, unique=True)):
        listed = draw(st.lists(st.sampled_from(ITEM_IDS), max_size=30, unique=True))
        if distinct_scores:
            scores = draw(st.permutations(range(len(listed))))
        else:
            scores = draw(st.lists(st.integers(0, 4), min_size=len(listed), max_size=len(listed)))
        recommendations += [(user, item, float(score) / 4) for item, score in zip(listed, scores)]
        judged = draw(st.lists(st.sampled_from(ITEM_IDS), max_size=12, unique=True))
        judged += draw(st.lists(st.sampled_from(listed), max_size=5, unique=True)) if listed else []
        for item in dict.fromkeys(judged):
            interactions.append((user, item, draw(st.integers(0, 4))))
    return Case(
        pd.DataFrame(recommendations, columns=["user_id", "item_id", "score"]),
        pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]).astype({"relevance": float}),
    )
