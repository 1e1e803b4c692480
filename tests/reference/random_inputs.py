"""The random input seeds of integration_tests/: two models' lists for a few dozen
users, drawn with a fixed seed so that every engine and every run sees the same
rows. They hold what the hand-made seeds hold one at a time: tied scores, rank
gaps, lists shorter than every cutoff, users without a list, users without
interactions, users whose interactions are all below the threshold, graded and
fractional relevance, and an item popularity skewed enough for entropy to
differ between models.

`make_expected.py` writes them (and then the expected values) with
`write_seeds()`.
"""

from __future__ import annotations

import random
from pathlib import Path

SEED = 20261122
RECOMMENDATIONS = "input__random__recommendations"
INTERACTIONS = "input__random__interactions"
MODELS = ("model_a", "model_b")
N_USERS = 30
ITEMS = [f"i{number:02d}" for number in range(1, 19)]
RELEVANCE_LEVELS = (0.0, 0.5, 1.0, 1.0, 2.0, 2.0, 3.0)


def _rows() -> tuple[list[list[str]], list[list[str]]]:
    rng = random.Random(SEED)
    popularity = [1.0 / position for position in range(1, len(ITEMS) + 1)]
    users = [f"u{number:02d}" for number in range(1, N_USERS + 1)]
    recommendations = []
    for model in MODELS:
        for user in users:
            if rng.random() < 0.1:  # no list from this model
                continue
            length = rng.randint(1, 9)
            items: list[str] = []
            while len(items) < length:
                item = rng.choices(ITEMS, weights=popularity)[0]
                if item not in items:
                    items.append(item)
            step_sometimes = rng.random() < 0.2  # ranks with gaps
            rank = 0
            for item in items:
                rank += rng.choice((1, 2)) if step_sometimes else 1
                # one decimal: ties are common
                score = round(rng.random(), 1)
                recommendations.append([model, user, item, str(rank), repr(score)])
    interactions = []
    for user in users:
        if rng.random() < 0.1:  # no interactions at all
            continue
        judged = rng.sample(ITEMS, rng.randint(1, 7))
        below_threshold_only = rng.random() < 0.1
        for item in sorted(judged):
            level = rng.choice((0.0, 0.5)) if below_threshold_only else rng.choice(RELEVANCE_LEVELS)
            interactions.append([user, item, repr(level)])
    # users seen only in interactions
    for number in range(N_USERS + 1, N_USERS + 4):
        interactions.append([f"u{number:02d}", rng.choice(ITEMS), "1.0"])
    return recommendations, interactions


def render_seeds() -> dict[str, str]:
    """Seed name -> CSV text."""
    recommendations, interactions = _rows()
    tables = {
        RECOMMENDATIONS: (["example_id", "user_id", "item_id", "rank", "score"], recommendations),
        INTERACTIONS: (["user_id", "item_id", "relevance"], interactions),
    }
    rendered = {}
    for name, (header, rows) in tables.items():
        lines = [",".join(header), *(",".join(row) for row in rows)]
        rendered[name] = "\n".join(lines) + "\n"
    return rendered


def write_seeds(seed_folder: Path) -> None:
    for name, text in render_seeds().items():
        (seed_folder / f"{name}.csv").write_text(text)

