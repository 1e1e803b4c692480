"""Random evaluation cases for the cross-checks against reference implementations."""

from __future__ import annotations

import unicodedata
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
        """rankwise refuses an empty table (an EmptyInputError) and tables that
        share no user or no item id (a NoOverlapError)."""
        if self.recommendations.empty or self.interactions.empty:
            return False
        return all(set(self.recommendations[column]) & set(self.interactions[column]) for column in ("user_id", "item_id"))

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


# --- Beyond accuracy (tests/crosscheck/test_beyond_accuracy.py) ------------------

BEYOND_USERS = [f"u{number}" for number in range(12)]
BEYOND_ITEMS = [f"i{number}" for number in range(15)]
@dataclass
class BeyondCase:
    recommendations: pd.DataFrame  # user_id, item_id, rank
    train: pd.DataFrame  # user_id, item_id, with repeated rows
    items: pd.DataFrame  # item_id: every recommended item and some others; genre, era; f1, f2, f3
    interactions: pd.DataFrame  # user_id, item_id: the test interactions, every one relevant


@st.composite
def beyond_cases(draw: st.DrawFn) -> BeyondCase:
    """1..10 lists of 1..10 distinct items ranked 1..n; a train table of 1..40
    rows over the same users and items and others, a pair may repeat (a
    re-watch), so that users and interactions count differently; a catalog of
    the recommended items and up to 5 more."""
    rows = []
    for user in draw(st.lists(st.sampled_from(BEYOND_USERS), min_size=1, max_size=10, unique=True)):
        listed = draw(st.lists(st.sampled_from(BEYOND_ITEMS), min_size=1, max_size=10, unique=True))
        rows += [(user, item, rank) for rank, item in enumerate(listed, start=1)]
    recommendations = pd.DataFrame(rows, columns=["user_id", "item_id", "rank"])
    train_rows = draw(st.lists(st.tuples(st.sampled_from(BEYOND_USERS + ["t1", "t2"]), st.sampled_from(BEYOND_ITEMS)),
                               min_size=1, max_size=40))
    train = pd.DataFrame(train_rows, columns=["user_id", "item_id"])
    extra = draw(st.lists(st.sampled_from(BEYOND_ITEMS + ["c1", "c2", "c3"]), max_size=5))
    catalog = sorted(set(recommendations["item_id"]) | set(extra))
    n = len(catalog)
    # features: two categorical ones (Hamming), and three nonzero numbers (a cosine's vector)
    coordinates = st.sampled_from([-1.0, -0.5, 0.5, 1.0, 2.0])
    items = pd.DataFrame({
        "item_id": catalog,
        "genre": draw(st.lists(st.sampled_from(["drama", "news", "comedy"]), min_size=n, max_size=n)),
        "era": draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)),
        **{name: draw(st.lists(coordinates, min_size=n, max_size=n)) for name in ("f1", "f2", "f3")},
    })
    shown = list(zip(recommendations["user_id"], recommendations["item_id"]))
    relevant = draw(st.lists(st.sampled_from(shown), unique=True, min_size=1, max_size=len(shown)))
    others = draw(st.lists(st.tuples(st.sampled_from(sorted(set(recommendations["user_id"]))), st.sampled_from(BEYOND_ITEMS)),
                           max_size=5))
    interactions = pd.DataFrame(sorted(set(relevant) | set(others)), columns=["user_id", "item_id"])
    return BeyondCase(recommendations, train, items, interactions)


# --- Fuzzing (tests/crosscheck/test_fuzz_pytrec_eval.py) -------------------------
#
# Ids that an implementation which trims, folds case, normalises Unicode, goes
# through a float, pastes ids into SQL or a C string, or reads 'NULL' as null
# would merge or lose. Pairs that must stay apart are listed side by side.
HOSTILE_TEXT_IDS = [
    "", " ", "  ", "\t", "\n", " a", "a ", "\u00a0", "\u200b", "\ufeff",
    "B", "b", "SS", "ss", "\u00df", "\u0130", "i", "I", "\u0131", "\u01c5",
    "e\u0301", "\u00e9", "\u212b", "\u00c5",  # combining vs precomposed; Angstrom sign vs A-ring
    # Hebrew, Arabic, RTL override and mark
    "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "\u202eevil\u202c", "\u200fx",
    "\U0001f600", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f1eb\U0001f1f7",  # emoji, ZWJ family, flag
    "'", "''", '"', '""', "\\", "\\\\", "\\n", "a'b", 'a"b', "O'Brien", "%", "_", "*", "?",
    "'; drop table interactions; --", '"); select 1; --', "SELECT", "select", "NULL", "null", "None", "NaN",
    "true", "0", "00", "1", "01", "1.0", "1e3", "-0", "2020-01-01", "[", "Song [Live]", "roadmap", "MAP",
    "struct", "union", "a,b", "a;b", "a|b", "#",
]
INT64_EXTREMES = [
    -(2**63), -(2**63) + 1, -(2**31) - 1, -(2**31), -1, 0, 1, 2**31 - 1, 2**31,
    2**53, 2**53 + 1,  # distinct as int64, one number as float64
    2**63 - 2, 2**63 - 1,
]
# Finite doubles at the edges: beyond float32's range (inf there), subnormal
# (0 in float32), signed zeros, and neighbours that only float64 tells apart.
EXTREME_SCORES = [
    1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308, 1e301,
    3.4028234663852886e38, 3.4028235677973366e38,  # float32's largest, and just past it
    5e-324, -5e-324, 1e-320, 2.2250738585072014e-308, 1e-45, 0.0, -0.0,
    0.3, 0.30000001, 0.30000002, 1.0, 1.0000000000000002, 0.9999999999999999,
]


def _variants(text: str) -> list[str]:
    """Spellings of an id that a normalising, case-folding or trimming
    implementation would take for the same id."""
    return [text, text.upper(), text.lower(), text.swapcase(), unicodedata.normalize("NFD", text),
            unicodedata.normalize("NFC", text), f" {text}", f"{text} "]


def text_ids() -> st.SearchStrategy[str]:
    short = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=6)
    # 1,000+ characters, built from a repeated unit so the draw stays small;
    # two long ids often differ only in their last characters.
    long = st.builds(lambda unit, n, tail: unit * n + tail,
                     st.sampled_from(["x", "\u00e9", "\U0001f600", " ", "'"]), st.integers(1000, 2500), short)
    return st.one_of(st.sampled_from(HOSTILE_TEXT_IDS), short, long)


def int_ids() -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(INT64_EXTREMES), st.integers(-(2**63), 2**63 - 1))


def scores() -> st.SearchStrategy[float]:
    return st.one_of(
        st.sampled_from([0.0, 0.25, 0.5, 1.0]),  # ties
        st.sampled_from(EXTREME_SCORES),
        st.floats(allow_nan=False, allow_infinity=False),
    )


@st.composite
def id_pools(draw: st.DrawFn, ids: st.SearchStrategy, min_size: int, max_size: int) -> list:
    """Distinct ids; for text, some drawn with their variants (case, Unicode
    normal form, a space), which must stay distinct ids."""
    # The size is drawn uniformly rather than left to st.lists, whose sizes
    # are mostly small, so that one case holds dozens of independent users.
    # Duplicates are dropped rather than redrawn: a long unique list exhausts
    # the extremes, and hypothesis then gives up on the example.
    size = draw(st.integers(min_size, max_size))
    pool = list(dict.fromkeys(draw(st.lists(ids, min_size=size, max_size=size))))
    if pool and isinstance(pool[0], str):
        for base in draw(st.lists(st.sampled_from(pool), max_size=3, unique=True)):
            pool += draw(st.lists(st.sampled_from(_variants(base)), max_size=3))
        pool = list(dict.fromkeys(pool))[:max_size + 6]
    return pool


@dataclass
class FuzzCase:
    """Rows as Python tuples, so that each input type can be built from them with
    its own column types. Every user is an independent example: its list and its
    truth are drawn on their own."""

    recommendations: list[tuple]  # (user, item, score)
    interactions: list[tuple]  # (user, item, relevance)
    user_ids: str  # "text" or "int"
    item_ids: str


@st.composite
def fuzz_cases(draw: st.DrawFn, max_users: int = 60, max_items: int = 30, max_list: int = 20) -> FuzzCase:
    """Up to `max_users` users, each with a list and a graded truth (0..4), a list
    only, or a truth only; some truths have no relevant item. Ids are text or
    int64, scores tie often and reach the extremes of the doubles. At least one
    user has both, so neither table is empty."""
    user_kind, item_kind = draw(st.sampled_from(["text", "int"])), draw(st.sampled_from(["text", "int"]))
    kinds = {"text": text_ids(), "int": int_ids()}
    users = draw(id_pools(kinds[user_kind], 1, max_users))
    items = draw(id_pools(kinds[item_kind], 1, max_items))
    recommendations, interactions = [], []
    roles = draw(st.lists(st.sampled_from(["both", "both", "both", "list only", "truth only"]),
                          min_size=len(users), max_size=len(users)))
    roles[0] = "both"
    for user, role in zip(users, roles):
        listed = []
        if role != "truth only":
            length = draw(st.integers(1, min(max_list, len(items))))
            listed = draw(st.permutations(items))[:length]
            recommendations += [(user, item, draw(scores())) for item in listed]
        if role != "list only":
            # Some judged items from the list, so that lists have hits.
            judged = draw(st.lists(st.sampled_from(listed), max_size=5, unique=True)) if listed else []
            judged += draw(st.lists(st.sampled_from(items), min_size=0 if judged else 1, max_size=8))
            top = draw(st.sampled_from([0, 4, 4]))  # 0: a truth without any relevant item
            interactions += [(user, item, draw(st.integers(0, top))) for item in dict.fromkeys(judged)]
    return FuzzCase(recommendations, interactions, user_kind, item_kind)
