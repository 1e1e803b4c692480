"""The options of an evaluation, declared once.

:func:`rankwise.evaluate`, :func:`rankwise.sql` and :func:`rankwise.check` take
them as ``**options: Unpack[EvaluateOptions]`` (as sqlglot's entry points take
``**opts: Unpack[GeneratorArgs]``), and the command line builds its flags from the
same declaration: the choices from the ``Literal`` types, the flag names from the
option names, the help from :data:`DOCS`. A test holds every choice list equal to
what the macros accept.
"""

from __future__ import annotations

import difflib
import math
import textwrap
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypedDict, TypeVar

from .errors import InvalidArgumentError

Convention = Literal["rankwise", "trec_eval", "ranx", "recommenders", "rectools", "evidently"]
ApDenominator = Literal["relevant", "min_relevant_k", "hits", "k"]
PrecisionDenominator = Literal["k", "list_length"]
Gain = Literal["linear", "exponential", "binary"]
GainItems = Literal["positive", "relevant"]
Idcg = Literal["truth", "k_positions"]
UserSet = Literal["both", "interactions", "relevant"]
Ties = Literal["item_desc", "item_asc", "shared"]
DuplicateInteractions = Literal["error", "max"]
Popularity = Literal["users", "interactions"]
ItemDistance = Literal["cosine", "hamming", "cooccurrence"]
DiversityDenominator = Literal["pairs", "list_length"]
CoverageOf = Literal["catalog", "train_items", "train_item_count"]
GiniItems = Literal["catalog", "shown"]
NoveltyUnseen = Literal["one", "dropped", "zero"]


class EvaluateOptions(TypedDict, total=False):
    """The columns to read and the conventions to follow; every key is optional
    (see :data:`DEFAULTS`), and each is documented in :data:`DOCS`. The
    conventions left out (or None) take the value of ``convention``."""

    user_col: str
    item_col: str
    rank_col: str | None
    score_col: str | None
    relevance_col: str | None
    convention: Convention
    ap_denominator: ApDenominator | None
    precision_denominator: PrecisionDenominator | None
    gain: Gain | None
    gain_items: GainItems | None
    idcg: Idcg | None
    relevance_threshold: float | None
    users: UserSet | Mapping[str, UserSet] | None
    ties: Ties | None
    log_base: float | Literal["e"] | None
    duplicate_interactions: DuplicateInteractions
    novelty_popularity: Popularity | None
    arp_popularity: Popularity | None
    head_share: float | None
    item_distance: ItemDistance | None
    diversity_denominator: DiversityDenominator | None
    item_vector_col: str | None
    item_feature_cols: list[str] | None
    coverage_of: CoverageOf | None
    gini_items: GiniItems | None
    novelty_unseen: NoveltyUnseen | None


DEFAULTS: dict[str, Any] = {
    "user_col": "user_id",
    "item_col": "item_id",
    "rank_col": "rank",
    "score_col": None,
    "relevance_col": None,
    "convention": "rankwise",
    "ap_denominator": None,
    "precision_denominator": None,
    "gain": None,
    "gain_items": None,
    "idcg": None,
    "relevance_threshold": None,
    "users": None,
    "ties": None,
    "log_base": None,
    "duplicate_interactions": "error",
    "novelty_popularity": None,
    "arp_popularity": None,
    "head_share": None,
    "item_distance": None,
    "diversity_denominator": None,
    "item_vector_col": None,
    "item_feature_cols": None,
    "coverage_of": None,
    "gini_items": None,
    "novelty_unseen": None,
}

# One sentence or two per option: the docstrings of evaluate, sql and check and the
# help of the command line's flags. docs/metrics.md has the formulas.
DOCS: dict[str, str] = {
    "user_col": "The user id column of both inputs.",
    "item_col": "The item id column of both inputs.",
    "rank_col": "The rank column of the recommendations (1 = best), read when score_col is not given (None "
                "with score_col).",
    "score_col": "A score column of the recommendations (higher = better); ranks are then derived, ties "
                 "broken as `ties` says.",
    "relevance_col": "The relevance column of the interactions; without it every interaction has relevance 1.",
    "convention": "The library whose numbers to reproduce; it sets every convention below that is not given "
                  "(docs/metrics.md, \"Presets\").",
    "ap_denominator": "What average precision divides by: the relevant items R, min(R, k), the hits, or k.",
    "precision_denominator": "What precision divides by: k, or the list length when shorter than k.",
    "gain": "The gain of a relevant item in DCG: its relevance, 2^relevance - 1, or 1.",
    "gain_items": "Which items earn a DCG gain: every item of positive relevance, or only the relevant ones "
                  "(relevance >= relevance_threshold).",
    "idcg": "The ideal DCG: of the user's truth, or of k relevant positions (RecTools; needs gain='binary').",
    "relevance_threshold": "An item is relevant when its relevance is at least this finite number.",
    "users": "Which users a mean covers: those in both tables, every user of the interactions (a missing "
             "list scores 0), or those with a relevant item; or a mapping from metric names to these sets.",
    "ties": "How tied scores are ordered: by item id descending (trec_eval) or ascending, or sharing one rank.",
    "log_base": "The base of entropy's logarithm: 'e' (nats) or a finite number > 0 other than 1.",
    "duplicate_interactions": "A (user, item) listed twice in the interactions: an error, or keep its highest "
                              "relevance ('max').",
    "novelty_popularity": "An item's popularity in novelty: the share of train users who interacted with it "
                          "(RecTools), or its share of the train interactions.",
    "arp_popularity": "An item's popularity in arp: the share of train users who interacted with it, or its "
                      "share of the train interactions (RecTools' AvgRecPopularity(normalize=True)).",
    "head_share": "long_tail_share's head: the most popular train items that together hold this share of the "
                  "train interactions (above 0, at most 1).",
    "item_distance": "intra_list_diversity's distance of two items: 1 - the cosine of their vectors (item_vector_col "
                     "or item_feature_cols), the number of item_feature_cols they differ in ('hamming', RecTools), or "
                     "1 - their train users in common / sqrt of the product of their train users ('cooccurrence', "
                     "Recommenders).",
    "diversity_denominator": "What intra_list_diversity divides the sum of a list's pairwise distances by: its pairs, "
                             "or its items ('list_length', Evidently).",
    "item_vector_col": "A column of the catalog (items) holding each item's vector, an array of numbers, for "
                       "item_distance='cosine'.",
    "item_feature_cols": "Columns of the catalog (items) holding each item's features: for item_distance='hamming', "
                         "or numeric ones forming the vector of 'cosine'.",
    "coverage_of": "coverage: the share of the catalog shown, the share of the train items shown ('train_items', "
                   "Evidently), or the items shown over the train items ('train_item_count', Recommenders).",
    "gini_items": "gini over the catalog, the items never shown counting 0, or over the items shown within k "
                  "only, divided by n - 1 ('shown', Evidently).",
    "novelty_unseen": "novelty of an item nobody interacted with in train: as one user ('one', RecTools), left out "
                      "of the list's mean ('dropped', Evidently), or 0 ('zero', Recommenders).",
}

if DOCS.keys() != EvaluateOptions.__annotations__.keys() or DEFAULTS.keys() != DOCS.keys():
    raise RuntimeError("rankwise: EvaluateOptions, DEFAULTS and DOCS must name the same options")


def option_types() -> dict[str, Any]:
    """Each option's type, resolved (the annotations are strings here)."""
    return typing.get_type_hints(EvaluateOptions)


def choices(annotation: Any) -> tuple[Any, ...]:
    """The values of the ``Literal`` arms of a type: ``Gain | None`` gives
    ('linear', 'exponential', 'binary')."""
    if typing.get_origin(annotation) is Literal:
        return typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(value for arm in typing.get_args(annotation) for value in choices(arm))
    return ()


def plain(value: Any) -> Any:
    """numpy scalars (and arrays) as the Python numbers, strings and lists they
    hold; lists, tuples and mappings element by element. The macros then see
    one kind of number: Jinja's `is integer` is false for numpy.int64."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(element) for element in value]
    if isinstance(value, Mapping):
        return {plain(key): plain(element) for key, element in value.items()}
    return value


def resolve(caller: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of ``options`` checked by name, as plain Python values, with
    the defaults of those not given. The values themselves are checked by the
    macros, which say what each accepts."""
    for name in options:
        if name not in DEFAULTS:
            close = difflib.get_close_matches(name, list(DEFAULTS), n=1)
            suggestion = f" Did you mean `{close[0]}`?" if close else ""
            raise InvalidArgumentError(
                f"rankwise.{caller}: unknown argument `{name}`.{suggestion} Its options: {', '.join(DEFAULTS)}.")
    resolved = {name: plain(options.get(name, default)) for name, default in DEFAULTS.items()}
    # rank_col=None says "rank by score_col": the rank column is not read then.
    if resolved["rank_col"] is None and resolved["score_col"] is not None:
        resolved["rank_col"] = DEFAULTS["rank_col"]
    log_base = resolved["log_base"]
    # The macro's natural log is log_base='e'.
    if isinstance(log_base, float) and log_base == math.e:
        resolved["log_base"] = "e"
    return resolved


_Function = TypeVar("_Function", bound=Callable[..., Any])


def documented(function: _Function) -> _Function:
    """Lists every option, with its doc, under the ``**options:`` line of the
    function's docstring, so that help() shows them one by one."""
    lines = (function.__doc__ or "").splitlines()
    for position, line in enumerate(lines):
        if line.lstrip().startswith("**options:"):
            margin = len(line) - len(line.lstrip())
            end = position + 1  # past the line's own continuation lines
            while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > margin:
                end += 1
            indent = " " * (margin + 4)
            entries = []
            for name, doc in DOCS.items():
                default = "" if DEFAULTS[name] is None else f" Default: {DEFAULTS[name]!r}."
                entries += textwrap.wrap(f"{name}: {doc}{default}", width=88, initial_indent=indent,
                                         subsequent_indent=indent + "    ")
            lines[end:end] = entries
            function.__doc__ = "\n".join(lines)
            return function
    raise RuntimeError(f"rankwise: the docstring of {function.__name__} has no **options: line")
