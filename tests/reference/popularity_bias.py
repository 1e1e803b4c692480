"""Reference implementations of popularity lift and miscalibration, written
from the papers in plain Python, sharing no code with the macros.

Popularity lift: Abdollahpouri, Mansoury, Burke & Mobasher (2019), "The
unfairness of popularity bias in recommendation" (RMSE workshop, RecSys 2019).
phi(i) is the popularity of item i, the share of the (train) users who rated it;
a user's profile popularity is the mean phi over the items of the profile p_u,
the list's over its items. The paper's Delta GAP divides group means; the
per-user lift here is the same ratio for a group of one user:
(mean phi over the list - mean phi over p_u) / mean phi over p_u.

Miscalibration: Steck (2018), "Calibrated recommendations" (RecSys 2018),
equations 1-5: p(g|u) = sum over the user's items i of p(g|i) / |items| (one
group per item, p(g|i) = 1), q(g|u) the same over the list's items (each slot
once, the rank weights of equation 2 all 1), q~ = (1 - alpha) q + alpha p, and
C_KL(p, q) = sum over g of p(g|u) log(p(g|u) / q~(g|u)), the terms with p = 0
being 0. Natural logarithm (nats).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Hashable, Iterable, Mapping, Sequence


def popularity(train: Iterable[tuple[Hashable, Hashable]], measure: str = "users") -> dict[Hashable, float]:
    """phi(i): the share of the train users who had item i ('users'), or of the
    train rows ('interactions'). `train` is (user, item) rows, repeats allowed."""
    rows = list(train)
    if measure == "users":
        users_of: dict[Hashable, set] = defaultdict(set)
        for user, item in rows:
            users_of[item].add(user)
        n_users = len({user for user, _ in rows})
        return {item: len(users) / n_users for item, users in users_of.items()}
    counts = Counter(item for _, item in rows)
    return {item: count / len(rows) for item, count in counts.items()}


def profiles(train: Iterable[tuple[Hashable, Hashable]]) -> dict[Hashable, set]:
    """Each user's distinct train items."""
    items_of: dict[Hashable, set] = defaultdict(set)
    for user, item in train:
        items_of[user].add(item)
    return items_of


def popularity_lift(top_k: Sequence[Hashable], profile: set, phi: Mapping[Hashable, float]) -> float | None:
    """The list's top-k items' mean popularity over the profile's, less 1; None
    without a profile or without an item in the top k. An item not in train
    has popularity 0."""
    if not profile or not top_k:
        return None
    list_mean = sum(phi.get(item, 0.0) for item in top_k) / len(top_k)
    profile_mean = sum(phi[item] for item in profile) / len(profile)
    return (list_mean - profile_mean) / profile_mean


def miscalibration(top_k: Sequence[Hashable], profile: set, group_of: Mapping[Hashable, Hashable],
                   alpha: float = 0.01) -> float | None:
    """KL(p || q~) in nats over the groups of the profile; None without a
    profile item in the catalog or without an item in the top k. Profile items
    missing from the catalog (`group_of`) are left out of p."""
    grouped = [group_of[item] for item in profile if item in group_of]
    if not grouped or not top_k:
        return None
    p = {group: count / len(grouped) for group, count in Counter(grouped).items()}
    q = {group: count / len(top_k) for group, count in Counter(group_of[item] for item in top_k).items()}
    total = 0.0
    for group, share in p.items():
        mixed = (1 - alpha) * q.get(group, 0.0) + alpha * share
        total += share * math.log(share / mixed)
    return total
