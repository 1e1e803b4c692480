"""The random input seeds of integration_tests/: two models' lists for a few dozen
users, drawn with a fixed seed so that every engine and every run sees the same
rows. They hold what the hand-made seeds hold one at a time: tied scores, rank
gaps, lists shorter than every cutoff, users without a list, users without
interactions, users whose interactions are all below the threshold, graded and
fractional relevance, and an item popularity skewed enough for entropy to
differ between models.

Their relevance has fractional grades, which trec_eval's qrels cannot hold: the
seeds `input__trec__*` are a smaller run and qrels of whole grades (0 to 3),
drawn the same way, for the cases whose expected values trec_eval computes
(trec_eval_reference.py): tied scores, retrieved documents never judged,
judgments of retrieved and unretrieved documents, a query judged non-relevant
only, a query judged but retrieved by neither model and one retrieved but
never judged.

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
TREC_SEED = 20260150
TREC_RECOMMENDATIONS = "input__trec__recommendations"
TREC_INTERACTIONS = "input__trec__interactions"
TREC_QUERIES = [f"q{number:02d}" for number in range(1, 13)]
# unpadded: 'd10' sorts before 'd9', so that trec_eval's tie-break (docno
# descending) is by text, not by number
TREC_DOCS = [f"d{number}" for number in range(1, 31)]
TREC_LEVELS = (0, 0, 1, 1, 2, 3)


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


def _trec_rows() -> tuple[list[list[str]], list[list[str]]]:
    """A run of two models (example_id) over twelve queries and their qrels:
    the last query is judged but retrieved by neither model, the one before it
    retrieved but never judged, the one before that judged non-relevant only."""
    rng = random.Random(TREC_SEED)
    judged_only, run_only, nonrelevant_only = TREC_QUERIES[-1], TREC_QUERIES[-2], TREC_QUERIES[-3]
    recommendations = []
    retrieved: dict[str, set[str]] = {query: set() for query in TREC_QUERIES}
    for model in MODELS:
        for query in TREC_QUERIES:
            if query == judged_only or rng.random() < 0.15:  # no list from this model
                continue
            for doc in rng.sample(TREC_DOCS, rng.randint(1, 14)):
                retrieved[query].add(doc)
                # quarters: ties are common
                recommendations.append([model, query, doc, repr(rng.randint(0, 8) / 4)])
    interactions = []
    for query in TREC_QUERIES:
        if query == run_only:
            continue
        pool = sorted(retrieved[query])
        # a share of the retrieved documents judged (the others unjudged), and
        # some documents neither model retrieved
        judged = {doc for doc in pool if rng.random() < 0.6}
        judged |= set(rng.sample([doc for doc in TREC_DOCS if doc not in retrieved[query]], rng.randint(1, 4)))
        for doc in sorted(judged):
            level = 0 if query == nonrelevant_only else rng.choice(TREC_LEVELS)
            interactions.append([query, doc, str(level)])
    return recommendations, interactions


def render_seeds() -> dict[str, str]:
    """Seed name -> CSV text."""
    recommendations, interactions = _rows()
    trec_recommendations, trec_interactions = _trec_rows()
    tables = {
        RECOMMENDATIONS: (["example_id", "user_id", "item_id", "rank", "score"], recommendations),
        INTERACTIONS: (["user_id", "item_id", "relevance"], interactions),
        TREC_RECOMMENDATIONS: (["example_id", "user_id", "item_id", "score"], trec_recommendations),
        TREC_INTERACTIONS: (["user_id", "item_id", "relevance"], trec_interactions),
    }
    rendered = {}
    for name, (header, rows) in tables.items():
        lines = [",".join(header), *(",".join(row) for row in rows)]
        rendered[name] = "\n".join(lines) + "\n"
    return rendered


def write_seeds(seed_folder: Path) -> None:
    for name, text in render_seeds().items():
        (seed_folder / f"{name}.csv").write_text(text)

