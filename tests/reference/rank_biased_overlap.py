"""Reference implementation of rank-biased overlap (rbo@k), written straight
from Webber, Moffat & Zobel, "A similarity measure for indefinite rankings",
ACM TOIS 28(4), 2010: the extrapolated RBO of two lists of uneven lengths,
equation (32), sharing no code with the macros.

    RBO_ext(L, S, p) = (1 - p) / p * ( sum_{d=1}^{l} X_d / d * p^d
                                       + sum_{d=s+1}^{l} X_s * (d - s) / (s * d) * p^d )
                       + ( (X_l - X_s) / l + X_s / s ) * p^l

S is the shorter list (length s), L the longer (length l >= s); X_d is the
overlap at depth d, |S_{:d} ∩ L_{:d}|, where for d > s the whole of S is set
against L's top d: X_d = |S_{:min(d, s)} ∩ L_{:d}|. With s = l the second sum is
empty and the last term is X_l / l * p^l: equation (30), the even case.

rankwise's rbo@k compares each model's list of a user with the reference
model's list of the same user, both cut at k (ranks 1 to k); a user without a
reference list has no value. tests/crosscheck/peers/README.md records the check
of `rbo_ext` against the PyPI package rbo 0.1.3 (`RankingSimilarity(S, L).rbo_ext(p)`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pandas as pd


def overlap(short: Sequence[Hashable], long: Sequence[Hashable], depth: int) -> int:
    """X_d: the items S's top min(d, s) and L's top d have in common."""
    return len(set(short[:min(depth, len(short))]) & set(long[:depth]))


def rbo_ext(first: Sequence[Hashable], second: Sequence[Hashable], p: float) -> float:
    """Equation (32) of the paper, term by term, for two lists without repeated
    items, each of at least one item, and 0 < p < 1."""
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), not {p}")
    for ranking in (first, second):
        if not ranking:
            raise ValueError("RBO_ext is defined here for lists of at least one item")
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"a ranking repeats an item: {ranking}")
    short, long = (first, second) if len(first) <= len(second) else (second, first)
    s, l = len(short), len(long)
    X = {d: overlap(short, long, d) for d in range(1, l + 1)}

    first_sum = sum(X[d] / d * p**d for d in range(1, l + 1))
    second_sum = sum(X[s] * (d - s) / (s * d) * p**d for d in range(s + 1, l + 1))
    extrapolation = ((X[l] - X[s]) / l + X[s] / s) * p**l
    return (1 - p) / p * (first_sum + second_sum) + extrapolation


def top_k(recommendations: pd.DataFrame, k: int) -> dict[tuple, list]:
    """Each (user, model) list's items ranked 1 to k, best first. Columns:
    user_id, item_id, rank, model."""
    within = recommendations[recommendations["rank"] <= k].sort_values(["user_id", "model", "rank"])
    return {(user, model): list(rows["item_id"]) for (user, model), rows in within.groupby(["user_id", "model"])}


def rbo_per_list(recommendations: pd.DataFrame, reference: Hashable, k: int, p: float = 0.9,
                 without_reference: float | None = None) -> dict[tuple, float | None]:
    """rbo@k of every (user, model) list against the `reference` model's list
    of the same user, both cut at k; `without_reference` (None: no value) for a
    list whose user has no reference list. The reference's own lists score 1."""
    lists = top_k(recommendations, k)
    values: dict[tuple, float | None] = {}
    for (user, model), items in lists.items():
        reference_list = lists.get((user, reference))
        values[(user, model)] = without_reference if reference_list is None else rbo_ext(items, reference_list, p)
    return values


def mean_per_model(values: dict[tuple, float | None]) -> dict[Hashable, float]:
    """The mean of each model's values over its lists that have one."""
    by_model: dict[Hashable, list[float]] = {}
    for (_, model), value in values.items():
        if value is not None:
            by_model.setdefault(model, []).append(value)
    return {model: sum(model_values) / len(model_values) for model, model_values in by_model.items()}
