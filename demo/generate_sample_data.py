"""Writes the demo's sample data into seeds/: 3,000 users, a catalogue of 2,000
items with Zipf-like popularity and a genre per neighbourhood (items.csv), graded interactions (relevance 1..3)
held out for testing, the earlier interactions the models were trained on
(train.csv), and the top-20 lists of two models. Deterministic (fixed seeds),
standard library only.

- `popularity` recommends the most popular items the user has not seen: nearly
  the same list for everyone.
- `personalized` finds some of the user's own items, mixed with popular ones and
  noise: more accurate, and far more diverse.
"""

from __future__ import annotations

import csv
import itertools
import random
from pathlib import Path

SEED = 20261122
N_USERS = 3_000
N_ITEMS = 2_000
LIST_LENGTH = 20
SEEDS = Path(__file__).resolve().parent / "seeds"


def main(seeds: Path = SEEDS) -> None:
    """Writes the four seed files into `seeds` (the tests write them elsewhere)."""
    generator = random.Random(SEED)
    items = [f"item_{i:04d}" for i in range(N_ITEMS)]
    popularity = [1.0 / (rank + 1) ** 0.9 for rank in range(N_ITEMS)]
    cumulative = list(itertools.accumulate(popularity))

    interactions, recommendations, tastes = [], [], []
    for user_number in range(N_USERS):
        user = f"user_{user_number:05d}"
        # a taste: a random neighbourhood of the catalogue, plus popular items
        n_interactions = generator.choice([0] * 3 + [1, 2, 3, 4] + list(range(5, 16)))
        taste_centre = generator.randrange(N_ITEMS)
        tastes.append((user, taste_centre))
        truth: dict[str, int] = {}
        while len(truth) < n_interactions:
            if generator.random() < 0.6:
                item = items[(taste_centre + int(generator.gauss(0, 40))) % N_ITEMS]
            else:
                item = generator.choices(items, cum_weights=cumulative)[0]
            truth.setdefault(item, generator.choices([1, 2, 3], weights=[5, 3, 2])[0])
        interactions += [(user, item, relevance) for item, relevance in truth.items()]

        seen = set(generator.sample(sorted(truth), k=len(truth) // 4))  # already consumed
        popular = [item for item in items if item not in seen][:LIST_LENGTH]
        recommendations += _list("popularity", user, popular)

        personal: list[str] = []
        candidates = [item for item in truth if item not in seen]
        generator.shuffle(candidates)
        while len(personal) < LIST_LENGTH:
            draw = generator.random()
            if candidates and draw < 0.15:
                item = candidates.pop()
            elif draw < 0.6:
                item = items[(taste_centre + int(generator.gauss(0, 60))) % N_ITEMS]
            else:
                item = generator.choices(items, cum_weights=cumulative)[0]
            if item not in personal and item not in seen:
                personal.append(item)
        recommendations += _list("personalized", user, personal)

    train = _train(tastes, items, cumulative)
    seeds.mkdir(parents=True, exist_ok=True)
    _write(seeds / "recommendations.csv", ["model", "user_id", "item_id", "rank", "score"], recommendations)
    _write(seeds / "interactions.csv", ["user_id", "item_id", "relevance"], interactions)
    _write(seeds / "train.csv", ["user_id", "item_id"], train)
    # a genre per neighbourhood of 100 items: what a taste draws from
    _write(seeds / "items.csv", ["item_id", "genre"],
           [(item, f"genre_{number // 100:02d}") for number, item in enumerate(items)])
    print(f"wrote {len(recommendations)} recommendations, {len(interactions)} interactions, {len(train)} train "
          f"interactions and a catalogue of {len(items)} items to {seeds}")


def _train(tastes: list[tuple[str, int]], items: list[str], cumulative: list[float]) -> list[tuple]:
    """Each user's earlier interactions, from the same taste and popularity as
    the held-out ones; drawn by a generator of their own, so that the lists and
    the held-out interactions stay those of the first generator."""
    generator = random.Random(SEED + 1)
    rows = []
    for user, taste_centre in tastes:
        history: set[str] = set()
        for _ in range(generator.randrange(2, 30)):
            if generator.random() < 0.5:
                history.add(items[(taste_centre + int(generator.gauss(0, 40))) % N_ITEMS])
            else:
                history.add(generator.choices(items, cum_weights=cumulative)[0])
        rows += [(user, item) for item in sorted(history)]
    return rows


def _list(model: str, user: str, items: list[str]) -> list[tuple]:
    return [(model, user, item, rank, round(1.0 - rank / 100, 2)) for rank, item in enumerate(items, start=1)]


def _write(path: Path, header: list[str], rows: list[tuple]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


if __name__ == "__main__":
    main()
