"""An independent reference implementation of rankwise's metrics, written from the
definitions in docs/metrics.md as plain loops over Python lists, with no SQL and
no shared code. It produces the expected values of the integration tests.

A list is the items of one (group, user) ordered by rank; positions are the ranks
as given (a gap is an empty position). `truth` maps item -> relevance.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Options:
    ap_denominator: str = "relevant"
    precision_denominator: str = "k"
    gain: str = "linear"
    gain_items: str = "positive"
    idcg: str = "truth"
    relevance_threshold: float = 1
    users: str = "interactions"
    ties: str = "item_desc"
    log_base: float | None = None
    judged_only: bool = False
    ignore_identical_ids: bool = False


def ranked(rows: list[tuple[str, float]], by_score: bool, ties: str) -> list[tuple[int, str]]:
    """(rank, item) pairs. With scores: score descending, ties by item id
    descending (trec_eval) or ascending; or, with ties='shared', every item of
    a tie at positions p..q gets rank floor((p + q) / 2)."""
    if not by_score:
        return sorted((int(rank), item) for item, rank in rows)
    if ties == "shared":
        scores = [score for _, score in rows]
        shared = []
        for item, score in rows:
            first = 1 + sum(1 for other in scores if other > score)
            last = first + scores.count(score) - 1
            shared.append(((first + last) // 2, item))
        return sorted(shared)
    by_item = sorted(rows, key=lambda row: row[0], reverse=(ties == "item_desc"))
    ordered = sorted(by_item, key=lambda row: row[1], reverse=True)  # stable, so ties keep the item order
    return [(position, item) for position, (item, _) in enumerate(ordered, start=1)]


def _relevant(truth: dict[str, float], item: str, options: Options) -> bool:
    return truth.get(item, 0.0) >= options.relevance_threshold


def _gain(relevance: float, options: Options) -> float:
    """Items with rel > 0 earn a gain; with gain_items='relevant', only rel >= threshold."""
    if relevance <= 0 or (options.gain_items == "relevant" and relevance < options.relevance_threshold):
        return 0.0
    return {"linear": relevance, "exponential": 2.0**relevance - 1.0, "binary": 1.0}[options.gain]


def _within(rank: int, k: int | None) -> bool:
    return k is None or rank <= k


def n_relevant(truth: dict[str, float], options: Options) -> int:
    """R: relevant items in the user's whole truth."""
    return sum(1 for relevance in truth.values() if relevance >= options.relevance_threshold)


def hits(ranking, truth, k, options) -> int:
    return sum(1 for rank, item in ranking if _within(rank, k) and _relevant(truth, item, options))


def n_recommended(ranking, k) -> int:
    return sum(1 for rank, _ in ranking if _within(rank, k))


def precision(ranking, truth, k, options) -> float:
    if k is not None and options.precision_denominator == "k":
        return hits(ranking, truth, k, options) / k
    listed = n_recommended(ranking, k)
    return hits(ranking, truth, k, options) / listed if listed else 0.0


def recall(ranking, truth, k, options) -> float:
    relevant = n_relevant(truth, options)
    return hits(ranking, truth, k, options) / relevant if relevant else 0.0


def recall_cap(ranking, truth, k, options) -> float:
    """BEIR's R_cap: the hits over min(R, k); the whole list: recall."""
    relevant = n_relevant(truth, options)
    capped = relevant if k is None else min(relevant, k)
    return hits(ranking, truth, k, options) / capped if capped else 0.0


def judged(ranking, truth, k, options) -> float:
    """ir_measures' Judged@k: the items of the top k found in the truth,
    whatever their relevance, over the items within k."""
    listed = n_recommended(ranking, k)
    found = sum(1 for rank, item in ranking if _within(rank, k) and item in truth)
    return found / listed if listed else 0.0


def unjudged(ranking, truth, k, options) -> float:
    """trec_eval's unj: the items of the top k not in the truth, over k (the
    list's length for the whole list)."""
    listed = n_recommended(ranking, k)
    missing = sum(1 for rank, item in ranking if _within(rank, k) and item not in truth)
    denominator = listed if k is None else k
    return missing / denominator if denominator else 0.0


def kept(ranking: list[tuple[int, str]], user: str, truth: dict[str, float] | None,
         options: Options) -> list[tuple[int, str]]:
    """The list under judged_only (its items in the user's truth only) and
    ignore_identical_ids (no item named as its user), each item's rank less the
    items dropped before it."""
    result, dropped = [], 0
    for rank, item in sorted(ranking):
        if (options.judged_only and item not in (truth or {})) or (options.ignore_identical_ids and item == user):
            dropped += 1
            continue
        result.append((rank - dropped, item))
    return result


def f1(ranking, truth, k, options) -> float:
    p, r = precision(ranking, truth, k, options), recall(ranking, truth, k, options)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def hit_rate(ranking, truth, k, options) -> float:
    return 1.0 if hits(ranking, truth, k, options) > 0 else 0.0


def average_precision(ranking, truth, k, options) -> float:
    """Sum of P@i over relevant ranks i <= k, over R, min(R, k), the hits or k.
    P@i counts the relevant items listed up to and including this one, so that
    when items share a rank (ties='shared') the j-th relevant item of the tie
    counts the hits before the tie plus j, as a running sum over the rows does
    (Evidently's cumulative sum); with distinct ranks this is hits@i / i."""
    total, found = 0.0, 0
    for rank, item in sorted(ranking):
        if _within(rank, k) and _relevant(truth, item, options):
            found += 1
            total += found / rank
    relevant = n_relevant(truth, options)
    denominator = {
        "relevant": relevant,
        "min_relevant_k": relevant if k is None else min(relevant, k),
        "hits": hits(ranking, truth, k, options),
        "k": k,
    }[options.ap_denominator]
    return total / denominator if denominator else 0.0


def reciprocal_rank(ranking, truth, k, options) -> float:
    for rank, item in sorted(ranking):
        if _relevant(truth, item, options):
            return 1.0 / rank if _within(rank, k) else 0.0
    return 0.0


def dcg(ranking, truth, k, options) -> float:
    return sum(
        _gain(truth.get(item, 0.0), options) / math.log2(rank + 1) for rank, item in ranking if _within(rank, k)
    )


def idcg(truth, k, options) -> float:
    if options.idcg == "k_positions":  # every one of the k slots relevant, gain 1
        return sum(1 / math.log2(rank + 1) for rank in range(1, k + 1))
    ideal = sorted(truth.values(), reverse=True)
    return sum(_gain(relevance, options) / math.log2(rank + 1) for rank, relevance in enumerate(ideal, start=1) if _within(rank, k))


def ndcg(ranking, truth, k, options) -> float:
    ideal = idcg(truth, k, options)
    return dcg(ranking, truth, k, options) / ideal if ideal else 0.0


def r_precision(ranking, truth, k, options) -> float:
    """Precision at rank R; with a cutoff, at rank min(R, k)."""
    relevant = n_relevant(truth, options)
    depth = relevant if k is None else min(relevant, k)
    return hits(ranking, truth, depth, options) / depth if depth else 0.0


def map_to_full_recall(ranking, truth, k, options) -> float:
    """Document 001's "mAP": the mean of P@i over the listed ranks i <= k up to
    the rank at which recall reaches 1 (the whole list if it never does)."""
    relevant = n_relevant(truth, options)
    if relevant == 0:
        return 0.0
    values, found = [], 0
    for rank, item in sorted(ranking):
        if found >= relevant:
            break
        found += _relevant(truth, item, options)
        if _within(rank, k):
            values.append(found / rank)
    return sum(values) / len(values) if values else 0.0


def rbp(ranking, truth, k, options, p=0.8, gain="binary", normalize=False, max_relevance=1.0) -> float:
    """Rank-biased precision (Moffat & Zobel 2008): (1 - p) times the sum over
    the relevant ranks i <= k of r_i p^(i-1), r_i 1 (binary) or the item's
    relevance over the largest relevance of the interactions (graded); with
    normalize, over 1 - p^min(R, k), k the list's length for the whole list."""
    total = 0.0
    for rank, item in ranking:
        if _within(rank, k) and _relevant(truth, item, options):
            if gain == "binary":
                weight = 1.0
            else:
                weight = max(truth[item], 0.0) / max_relevance if max_relevance > 0 else 0.0
            total += weight * p ** (rank - 1)
    value = (1 - p) * total
    if not normalize:
        return value
    depth = min(n_relevant(truth, options), k if k is not None else len(ranking))
    best = 1 - p**depth
    return value / best if best else 0.0


def err(ranking, truth, k, options, max_relevance=1.0) -> float:
    """Expected reciprocal rank (Chapelle et al. 2009), by a direct loop: the
    sum over ranks r <= k of R_r / r times the product over the items ranked
    before r of (1 - R_i), R = (2^g - 1) / 2^g_max for g > 0, else 0. Items
    sharing a rank see the same items before them."""
    def stop(item):
        relevance = truth.get(item, 0.0)
        return (2.0**relevance - 1.0) / 2.0**max_relevance if relevance > 0 and max_relevance > 0 else 0.0

    value = 0.0
    for rank, item in ranking:
        if not _within(rank, k):
            continue
        reaching = 1.0
        for other_rank, other in ranking:
            if other_rank < rank:
                reaching *= 1.0 - stop(other)
        value += stop(item) * reaching / rank
    return value


# The parameters a metric string may give, with their defaults, as
# docs/metrics.md declares them; every per-user metric but err also takes
# `rel`, its own relevance threshold (applied to NDCG's gains too).
PARAMETERS = {
    "rbp": {"p": 0.8, "gain": "binary", "normalize": False},
}
GRADED = {"err"}


def parse_metric(text: str) -> tuple[str, dict, float | None]:
    """'rbp(p=0.95, rel=2)' as ('rbp', {'p': 0.95, 'gain': 'binary',
    'normalize': False}, 2.0): the name, the value of every parameter of its
    own, and its relevance threshold (None: the call's)."""
    name, _, rest = text.partition("(")
    values = dict(PARAMETERS.get(name, {}))
    threshold = None
    for pair in filter(None, (part.strip() for part in rest.rstrip(")").split(","))):
        key, _, given = (piece.strip() for piece in pair.partition("="))
        if key == "rel":
            threshold = float(given)
            continue
        default = values[key]
        if isinstance(default, bool):
            values[key] = given == "true"
        elif isinstance(default, float):
            values[key] = float(given)
        else:
            values[key] = given
    return name, values, threshold


USER_METRICS = {
    "precision": precision,
    "recall": recall,
    "recall_cap": recall_cap,
    "f1": f1,
    "hit_rate": hit_rate,
    "map": average_precision,
    "mrr": reciprocal_rank,
    "dcg": dcg,
    "idcg": lambda ranking, truth, k, options: idcg(truth, k, options),
    "ndcg": ndcg,
    "r_precision": r_precision,
    "map_to_full_recall": map_to_full_recall,
    "rbp": rbp,
    "err": err,
    "judged": judged,
    "unjudged": unjudged,
}
# the metrics that read the largest relevance of the interactions
READS_MAX_RELEVANCE = {"rbp", "err"}
# the whole list when asked without @k, whatever the cutoffs
CUTOFF_FREE = {"r_precision"}


def entropy(rankings: list[list[tuple[int, str]]], k: int | None, options: Options) -> float:
    """Shannon entropy of how often each item fills a top-k slot of the lists."""
    counts = Counter(item for ranking in rankings for rank, item in ranking if _within(rank, k))
    total = sum(counts.values())
    value = -sum((n / total) * math.log(n / total) for n in counts.values()) if total else 0.0
    return value / math.log(options.log_base) if options.log_base else value


def evaluate(
    lists: dict[tuple[str, str], list[tuple[int, str]]],
    truths: dict[str, dict[str, float]],
    metrics: list[str],
    cutoffs: list[int | None],
    options: Options,
) -> tuple[list[tuple], list[tuple]]:
    """Means per group and per-user values, as rankwise.evaluate defines them.

    `lists` maps (group, user) to the ranked list. Returns (means, per_user):
    means rows are (group, metric, k, value, n_users); per-user rows are
    (group, user, metric, k, value)."""
    groups = sorted({group for group, _ in lists})
    means, per_user = [], []
    max_relevance = max((relevance for truth in truths.values() for relevance in truth.values()), default=0.0)
    call_options = options
    for group in groups:
        group_lists = {user: ranking for (g, user), ranking in lists.items() if g == group}
        # a list the options empty is a list no more
        group_lists = {user: kept(ranking, user, truths.get(user), options) for user, ranking in group_lists.items()}
        group_lists = {user: ranking for user, ranking in group_lists.items() if ranking}
        for asked_with_cutoff in metrics:
            # 'r_precision@3': a cutoff of its own, in place of `cutoffs`
            asked, _, own_cutoff = asked_with_cutoff.partition("@")
            metric, parameters, threshold = parse_metric(asked)
            options = call_options if threshold is None else replace(call_options, relevance_threshold=threshold,
                                                                        gain_items="relevant")
            if options.users == "interactions":
                users = {user: group_lists.get(user, []) for user in truths}
            else:
                users = {user: ranking for user, ranking in group_lists.items() if user in truths}
                if options.users == "relevant":
                    users = {user: r for user, r in users.items() if n_relevant(truths[user], options) > 0}
            if metric in READS_MAX_RELEVANCE:
                parameters["max_relevance"] = max_relevance
            for k in [int(own_cutoff)] if own_cutoff else [None] if metric in CUTOFF_FREE else cutoffs:
                if metric == "entropy":
                    means.append((group, metric, k, entropy(list(group_lists.values()), k, options), len(group_lists)))
                    continue
                values = []
                for user, ranking in sorted(users.items()):
                    value = USER_METRICS[metric](ranking, truths[user], k, options, **parameters)
                    per_user.append((group, user, metric, k, value))
                    values.append(value)
                if values:
                    means.append((group, metric, k, sum(values) / len(values), len(values)))
    return means, per_user
