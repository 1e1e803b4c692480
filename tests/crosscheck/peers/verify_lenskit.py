"""Run by hand, not in CI (LensKit 2026 needs Python >= 3.12.5): in a venv of
Python 3.12 or later with lenskit 2026.4.0, numpy and pytest, from the
repository root,

    python -m pytest tests/crosscheck/peers/verify_lenskit.py -p no:cacheprovider

The port gives LensKit's RBP on random lists, at and without a cutoff, with and
without its normalisation, and its ExposureGini on random sets of lists."""

from __future__ import annotations

import math
import random

import pytest

from . import lenskit as lenskit_port


@pytest.mark.parametrize("seed", range(200))
def test_the_lenskit_port_gives_the_library_numbers(seed: int) -> None:
    from lenskit.data import ItemList
    from lenskit.metrics import RBP

    draw = random.Random(seed)
    items = [f"i{index}" for index in range(30)]
    recs = draw.sample(items, draw.randint(0, 25))
    test = set(draw.sample(items, draw.randint(1, 12)))
    n = draw.choice([None, 1, 3, 5, 10, 20, 40])
    patience = draw.choice([0.5, 0.8, 0.85, 0.95])
    for normalize in (False, True):
        if normalize and not recs:
            # the normalisation of an empty list is 0, which both divide by
            with pytest.raises(ZeroDivisionError):
                RBP(n, patience=patience, normalize=True).measure_list(ItemList(item_ids=recs, ordered=True),
                                                                        ItemList(item_ids=sorted(test)))
            with pytest.raises(ZeroDivisionError):
                lenskit_port.rbp(recs, test, n, patience, True)
            continue
        library = RBP(n, patience=patience, normalize=normalize).measure_list(
            ItemList(item_ids=recs, ordered=True), ItemList(item_ids=sorted(test)))
        port = lenskit_port.rbp(recs, test, n, patience, normalize)
        assert (math.isnan(library) and math.isnan(port)) or math.isclose(port, library, rel_tol=0, abs_tol=1e-12), \
            (seed, normalize, port, library)


@pytest.mark.parametrize("seed", range(200))
def test_the_exposure_gini_port_gives_the_library_numbers(seed: int) -> None:
    from lenskit.data import ItemList, Vocabulary
    from lenskit.metrics import ExposureGini, GeometricRankWeight

    draw = random.Random(seed)
    catalog = [f"i{index}" for index in range(draw.randint(1, 40))]
    lists = [draw.sample(catalog, draw.randint(1, min(len(catalog), 15))) for _ in range(draw.randint(1, 12))]
    k = draw.choice([None, 1, 3, 5, 10, 20])
    patience = draw.choice([0.5, 0.8, 0.85, 0.95])
    metric = ExposureGini(k=k, items=Vocabulary(catalog), weight=GeometricRankWeight(patience))
    accumulator = metric.create_accumulator()
    for recs in lists:
        accumulator.add(metric.measure_list(ItemList(item_ids=recs, ordered=True), ItemList(item_ids=[])))
    library = accumulator.accumulate()
    port = lenskit_port.exposure_gini(lists, len(catalog), k, patience)
    assert math.isclose(port, library, rel_tol=0, abs_tol=1e-12), (seed, port, library)
