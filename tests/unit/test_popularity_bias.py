"""popularity_lift and miscalibration on a hand-worked example (docs/metrics.md).

Train: user 1 had a, b; user 2 a; user 3 c, d; users 4 and 5 a and b: the items'
train users a 3, b 2, c 1, d 1, e and f none, of 5 users. Genres: a, b x; c, d y;
e, f z. Lists: user 1 a b c, user 2 a e, user 3 f; user 6 (no train) a.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError, InvalidValueError

RECS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3, 6], "item_id": list("abcaefa"), "rank": [1, 2, 3, 1, 2, 1, 1]})
TRUTH = pd.DataFrame({"user_id": [1, 2, 3, 6], "item_id": list("abcd")})
TRAIN = pd.DataFrame({"user_id": [1, 1, 2, 3, 3, 4, 5], "item_id": list("abacdab")})
ITEMS = pd.DataFrame({"item_id": list("abcdef"), "genre": list("xxyyzz")})


def _per_user(metrics: list[str], **options) -> dict[tuple[int, str, int], float]:
    if any(metric.startswith("miscalibration") for metric in metrics):
        options.update(items=ITEMS, item_group_col="genre")
    table = rankwise.evaluate(RECS, TRUTH, metrics, per_user=True, train=TRAIN, **options)
    return {(row.user_id, row.metric, int(row.k)): row.value for row in table.itertuples()}


def test_popularity_lift_by_hand() -> None:
    values = _per_user(["popularity_lift@2"])
    # user 1: list (3 + 2)/2 over profile (3 + 2)/2: 0; user 2: 1.5 over 3; user 3: 0 over 1
    assert values[(1, "popularity_lift", 2)] == pytest.approx(0.0, abs=1e-12)
    assert values[(2, "popularity_lift", 2)] == pytest.approx(-0.5, abs=1e-12)
    assert values[(3, "popularity_lift", 2)] == pytest.approx(-1.0, abs=1e-12)
    # user 6 has no train item: no value
    assert (6, "popularity_lift", 2) not in values
    means = rankwise.evaluate(RECS, TRUTH, ["popularity_lift@2"], train=TRAIN)
    assert means.value[0] == pytest.approx(-0.5, abs=1e-12) and means.n_users[0] == 3


def test_popularity_lift_by_interactions() -> None:
    # rows a 3, b 2, c 1, d 1 of 7: the shares' 7 cancels, as the users' 5 does
    values = _per_user(["popularity_lift@3"], arp_popularity="interactions")
    assert values[(1, "popularity_lift", 3)] == pytest.approx((6 / 3) / (5 / 2) - 1, abs=1e-12)


def test_miscalibration_by_hand() -> None:
    values = _per_user(["miscalibration@2", "miscalibration(alpha=0.5)@3"])
    # user 1: p = q = {x: 1}: 0
    assert values[(1, "miscalibration", 2)] == pytest.approx(0.0, abs=1e-12)
    # user 2: p {x: 1}, q {x: 1/2, z: 1/2}: ln(1 / (0.99 * 0.5 + 0.01))
    assert values[(2, "miscalibration", 2)] == pytest.approx(math.log(1 / 0.505), abs=1e-12)
    # user 3: p {y: 1}, q {z: 1}: q~ = alpha p: ln(1 / 0.01)
    assert values[(3, "miscalibration", 2)] == pytest.approx(math.log(100), abs=1e-12)
    # alpha 0.5 @3: user 1's q {x: 2/3, y: 1/3}: ln(1 / (0.5 * 2/3 + 0.5))
    assert values[(1, "miscalibration", 3)] == pytest.approx(math.log(1.2), abs=1e-12)
    assert (6, "miscalibration", 2) not in values


def test_miscalibration_labels_alpha() -> None:
    table = rankwise.evaluate(RECS, TRUTH, ["miscalibration@2", "miscalibration(alpha=0.5)@3"], items=ITEMS,
                              train=TRAIN, item_group_col="genre")
    assert list(table.metric_label) == ["miscalibration@2", "miscalibration(alpha=0.5)@3"]
    assert table.value[0] == pytest.approx((math.log(1 / 0.505) + math.log(100)) / 3, abs=1e-12)


def test_miscalibration_refuses() -> None:
    with pytest.raises(InvalidArgumentError, match="give `item_group_col`"):
        rankwise.evaluate(RECS, TRUTH, ["miscalibration@2"], items=ITEMS, train=TRAIN)
    with pytest.raises(InvalidValueError, match="two or more groups"):
        rankwise.evaluate(RECS, TRUTH, ["miscalibration@2"], train=TRAIN, item_group_col="genre",
                          items=pd.concat([ITEMS, pd.DataFrame({"item_id": ["a"], "genre": ["y"]})]))
    with pytest.raises(InvalidValueError, match="null group"):
        rankwise.evaluate(RECS, TRUTH, ["miscalibration@2"], train=TRAIN, item_group_col="genre",
                          items=ITEMS.assign(genre=["x", None, "y", "y", "z", "z"]))
    with pytest.raises(Exception, match="alpha"):
        rankwise.evaluate(RECS, TRUTH, ["miscalibration(alpha=0)@2"], items=ITEMS, train=TRAIN, item_group_col="genre")
