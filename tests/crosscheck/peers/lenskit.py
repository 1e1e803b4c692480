"""LensKit's rank-biased precision, ported from lenskit 2026.4.0:
lenskit/metrics/ranking/_rbp.py (rank_biased_precision, RBP.measure_list) and
lenskit/metrics/ranking/_weighting.py (GeometricRankWeight).

LensKit is MIT-licensed: Copyright (C) 2018-2023 Boise State University,
Copyright (C) 2023-2026 Drexel University.

LensKit 2026 needs Python >= 3.12.5 and the test environment runs 3.11, so the
tests run this port; README.md beside this file records that it gave the
library's numbers on the same random lists.

Inputs as RBP.measure_list reads them: `recs`, the recommended item ids in rank
order (ranks 1, 2, ...), and `test`, the user's test items, every one relevant.
"""

from __future__ import annotations

import numpy as np


def rbp(recs: list, test: set, n: int | None = None, patience: float = 0.85, normalize: bool = False) -> float:
    """RBP(n, patience=patience, normalize=normalize).measure_list(recs, test)."""
    recs = list(recs)[:n] if n is not None else list(recs)
    k = len(recs)
    nrel = len(test)
    if nrel == 0:
        return float("nan")
    good = np.isin(np.array(recs, dtype=object), np.array(sorted(test), dtype=object))
    ranks = np.arange(1, k + 1)
    # GeometricRankWeight.weight: exp(log(patience) * (rank - 1))
    weights = np.exp(np.log(patience) * (ranks - 1))
    if normalize:
        # the most the truncated list can score: its first min(nrel, k) weights
        normalization = np.sum(weights[: min(nrel, k)]).item()
    else:
        normalization = 1 / (1 - patience)
    return np.sum(weights[good]).item() / normalization



def exposure_gini(lists: list[list], item_count: int, k: int | None = None, patience: float = 0.85) -> float:
    """ExposureGini(k=k, items=<a vocabulary of item_count items>,
    weight=GeometricRankWeight(patience)) over `lists` (each a list of distinct
    item ids in rank order), ported from lenskit 2026.4.0:
    lenskit/metrics/ranking/_gini.py (ExposureGini.measure_list, GiniAccumulator)
    and lenskit/stats/_gini.py (gini). Items never shown count 0."""
    totals = np.zeros(item_count)
    numbers: dict = {}
    for recs in lists:
        recs = recs[:k] if k is not None else recs
        ids = [numbers.setdefault(item, len(numbers)) for item in recs]
        # GeometricRankWeight.weight: exp(log(patience) * (rank - 1))
        totals[ids] += np.exp(np.log(patience) * (np.arange(1, len(recs) + 1, dtype=np.int32) - 1))
    # GiniAccumulator.accumulate: the Gini of the exposure shares
    xs = np.sort(totals / totals.sum())
    n = len(xs)
    ranks = np.arange(1, n + 1, dtype=np.float64) * 2 - (n + 1)
    return max(float(np.sum(xs * ranks) / (n * np.sum(xs, dtype=np.float64))), 0)
