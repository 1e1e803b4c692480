"""The options of an evaluation, as the macros declare them.

The macros' option registry (``_option_registry`` in
macros/conventions/convention_options.sql) declares each option once: its kind,
choices, default and help. :data:`DEFAULTS` and :data:`DOCS` are read from it;
:class:`EvaluateOptions` restates the choices as ``Literal`` types so that type
checkers see them, and a test holds the two equal. :func:`rankwise.evaluate`,
:func:`rankwise.sql` and :func:`rankwise.check` take the options as
``**options: Unpack[EvaluateOptions]`` (as sqlglot's entry points take
``**opts: Unpack[GeneratorArgs]``), and the command line builds its flags from
the same declaration.
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

Convention = Literal["rankwise", "trec_eval", "ranx", "recommenders", "rectools", "evidently", "msmarco", "beir"]
ApDenominator = Literal["relevant", "min_relevant_k", "hits", "k"]
PrecisionDenominator = Literal["k", "list_length"]
Gain = Literal["linear", "exponential", "binary"]
GainItems = Literal["positive", "relevant"]
Idcg = Literal["truth", "k_positions"]
UserSet = Literal["both", "interactions", "relevant"]
Ties = Literal["item_desc", "item_asc", "shared"]
DuplicateInteractions = Literal["error", "max"]
NegativeRelevance = Literal["error", "pooled"]
DuplicateRecommendations = Literal["error", "first"]
Popularity = Literal["users", "interactions"]
ItemDistance = Literal["cosine", "hamming", "cooccurrence"]
DiversityDenominator = Literal["pairs", "list_length"]
SingleItemDiversity = Literal["no_value", "zero"]
CoverageOf = Literal["catalog", "train_items", "train_item_count"]
GiniItems = Literal["catalog", "shown"]
NoveltyUnseen = Literal["one", "dropped", "zero"]
WithoutReference = Literal["no_value", "zero"]
ExposureModel = Literal["dcg", "rbp"]


class EvaluateOptions(TypedDict, total=False):
    """The columns to read and the conventions to follow; every key is optional
    (see :data:`DEFAULTS`), and each is documented in :data:`DOCS`. The
    conventions left out (or None) take the value of ``convention``."""

    user_col: str
    item_col: str
    rank_col: str | None
    score_col: str | None
    relevance_col: str | None
    propensity_col: str | None
    propensity_clip: float | None
    user_group_col: str | None
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
    duplicate_recommendations: DuplicateRecommendations
    judged_only: bool
    ignore_identical_ids: bool | None
    duplicate_interactions: DuplicateInteractions
    negative_relevance: NegativeRelevance
    novelty_popularity: Popularity | None
    arp_popularity: Popularity | None
    head_share: float | None
    item_distance: ItemDistance | None
    diversity_denominator: DiversityDenominator | None
    single_item_diversity: SingleItemDiversity | None
    item_vector_col: str | None
    item_feature_cols: list[str] | None
    coverage_of: CoverageOf | None
    gini_items: GiniItems | None
    novelty_unseen: NoveltyUnseen | None
    model_col: str | None
    reference: str | int | float | None
    without_reference: WithoutReference | None
    exposure_model: ExposureModel
    exposure_persistence: float
    item_group_col: str | None


def _declared() -> dict[str, dict[str, Any]]:
    """The option registry of the macros (``_option_registry`` in
    macros/conventions/convention_options.sql): kind, default, help."""
    from ._render import renderer

    return {name: dict(option) for name, option in renderer().call("_python_registry", "options", {}).items()}


_DECLARED = _declared()

# Left out (None), an option a convention sets takes the convention's value.
DEFAULTS: dict[str, Any] = {name: None if option.get("preset") else option["default"]
                            for name, option in _DECLARED.items()}

# One sentence or two per option, from the registry: the docstrings of evaluate,
# sql and check and the help of the command line's flags. docs/metrics.md has
# the formulas.
DOCS: dict[str, str] = {name: option["help"] for name, option in _DECLARED.items()}

if list(DOCS) != list(EvaluateOptions.__annotations__):
    raise RuntimeError("rankwise: EvaluateOptions must name the options of the macros' _option_registry, in order")


def options_read_for(metrics: set[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of `options` less those that only other metrics read (the
    macro _options_read_by states the rule)."""
    from ._render import renderer

    return dict(renderer().call("_python_registry", "options_read_by", {"metrics": sorted(metrics), "options": dict(options)}))


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


def options_table() -> str:
    """The options as a Markdown table, from the registry: docs/metrics.md
    holds it between the markers `<!-- options: begin -->` and `<!-- options:
    end -->`, and a test holds the two equal."""
    lines = ["| option | values | default | what it decides |", "|---|---|---|---|"]
    for name, option in _DECLARED.items():
        values = {"boolean": "`True`, `False`", "column": "a column name", "optional_column": "a column name, or None",
                  "optional_columns": "column names, or None", "number": "a finite number",
                  "share": "a number above 0, at most 1", "convention": "a convention (below)",
                  "model": "a value of `model_col` (text or a number), or None",
                  "optional_share": "a number above 0, at most 1, or None"}.get(option["kind"])
        if values is None:
            values = ", ".join(f"`{choice}`" for choice in option["choices"])
            if option["kind"] == "log_base":
                values += " or a number > 0 other than 1"
            if option["kind"] == "user_set":
                values += ", or a mapping from metric names to one"
        default = "the convention's" if option.get("preset") else f"`{option['default']!r}`"
        if option.get("preset"):
            default += f" (trec_eval: `{option['default']!r}`)"
        lines.append(f"| `{name}` | {values} | {default} | {option['help'].replace('|', '/')} |")
    return "\n".join(lines)
