"""Every query dbt would compile on Snowflake, BigQuery, Redshift, Trino and
Databricks, held to that engine's documented reference: rendered with the
adapter's own dispatch (renderer('<adapter>'), as dbt compiles it, not
transpiled), parsed in the engine's dialect, and walked node by node; any
function, type, clause, operator or table constructor outside the engine's
catalogue (tests/unit/warehouse_catalogue.py) fails. The queries: evaluate for
the cases of tests/unit/test_dialects.py and for every value of every option
(the means, whose SQL holds the per-user values; the per-user output is
rendered by the cases of test_dialects), compare, and the checks. The same
parse carries, on these warehouses, the checks that
tests/slow/test_dialects_whole_queries.py holds every query of evaluate and
compare to on the other engines (its call_problems).

An option's value changes a few lines of evaluate's query, so the values are
walked in a few calls that set many options at once (OPTION_CALLS), not one
call each: test_the_option_calls_render_every_line_of_every_option_value holds
them to every line that each value renders on its own."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from sqlglot import exp

from rankwise import _options, metric_names
from tests.slow.test_dialects_whole_queries import COMPARE_CASES, call_problems
from tests.unit.test_dialects import EVALUATE_CASES, VALIDATION_CASES, _render
from tests.unit.test_warehouse_catalogue import WAREHOUSES, construct_names, parse, undocumented
from tests.unit.warehouse_catalogue import CATALOGUES, KNOWN_GAPS, KNOWN_RULE_GAPS

EVERY_METRIC = [*metric_names("user"), *metric_names("list"), *metric_names("group")]
PER_USER = [*metric_names("user"), *metric_names("list")]

# Every metric with the inputs each reads; an option's value is set over this.
BASE = dict(metrics=EVERY_METRIC, k=[3, 10], group_by=["model"], partition_by=["fold"], relevance_col="relevance",
            model_col="model", reference="production",
            items="analytics.items", train="analytics.train", item_distance="hamming", item_feature_cols=["genre"],
            item_group_col="genre")
# What a value needs besides itself.
NEEDS: dict[tuple[str, Any], dict[str, Any]] = {
    ("item_distance", "cosine"): dict(item_vector_col="embedding", item_feature_cols=None),
    ("item_distance", "cooccurrence"): dict(item_feature_cols=None),
    ("idcg", "k_positions"): dict(gain="binary"),
    ("ties", "shared"): dict(score_col="score"),
    ("ties", "item_asc"): dict(score_col="score"),
    ("ties", "item_desc"): dict(score_col="score"),
}


def _option_call(**values: Any) -> dict[str, Any]:
    """BASE with `values` and what they need."""
    case = {**BASE, **values}
    for option, value in values.items():
        for name, needed in NEEDS.get((option, value), {}).items():
            assert values.get(name, needed) == needed, f"{option}={value} needs {name}={needed}"
            case[name] = needed
    return {key: value for key, value in case.items() if value is not None}


def _option_value_cases() -> dict[str, dict[str, Any]]:
    """Each value of each option on its own."""
    cases = {}
    for option, annotation in _options.option_types().items():
        for value in _options.choices(annotation):
            cases[f"{option}={value}"] = _option_call(**{option: value})
    cases["log_base=2"] = _option_call(log_base=2)
    # the bootstrap interval of entropy, the one group metric that has one
    cases["bootstrap"] = {**BASE, "metrics": [*PER_USER, "entropy"], "bootstrap_resamples": 20, "seed": 3}
    return cases


OPTION_VALUE_CASES = _option_value_cases()


# The calls of evaluate that render every line of every value's own call
# (OPTION_VALUE_CASES): each convention's preset, as a peer library sets it;
# the other values in five calls, two values apart where one rewrites lines of
# the other (the gain options the DCG term; users=relevant AP's value and the
# users every mean counts, which the AP and precision denominators write too;
# novelty_popularity and novelty_unseen novelty's term); and the bootstrap. The
# rankwise convention is BASE, whose lines these render too.
OPTION_CALLS: dict[str, dict[str, Any]] = {
    **{name: case for name, case in OPTION_VALUE_CASES.items()
       if name.startswith("convention=") and name != "convention=rankwise"},
    **{", ".join(f"{option}={value}" for option, value in values.items()): _option_call(**values) for values in (
        dict(gain="exponential", ap_denominator="min_relevant_k", precision_denominator="list_length", users="both",
             ties="item_desc", duplicate_interactions="max", novelty_popularity="interactions",
             item_distance="cosine", coverage_of="train_items", log_base=2),
        dict(gain="binary", ap_denominator="hits", ties="item_asc", arp_popularity="interactions",
             item_distance="cooccurrence", coverage_of="train_item_count", diversity_denominator="list_length",
             gini_items="shown", novelty_unseen="dropped"),
        dict(gain_items="relevant", ap_denominator="k", ties="shared", novelty_unseen="zero", negative_relevance="pooled"),
        dict(idcg="k_positions", users="relevant", exposure_model="rbp"),
        # the denominators' own lines, wrapped as they wrap alone, and the duplicates kept first
        dict(ap_denominator="min_relevant_k", precision_denominator="list_length", duplicate_recommendations="first"),
    )},
    "bootstrap": OPTION_VALUE_CASES["bootstrap"],
    # the inverse-propensity weights, on the metrics that have a weighted form
    "propensity": dict(metrics=["recall", "dcg", "idcg", "ndcg"], k=[3, 10], group_by=["model"], partition_by=["fold"],
                       relevance_col="relevance", propensity_col="propensity", propensity_clip=0.1),
}


def _calls() -> dict[str, tuple[str, tuple[str, ...], dict[str, Any]]]:
    """Every query: name -> (macro, tables, arguments)."""
    calls: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {}
    tables = ("analytics.recs", "analytics.truth")
    for name, case in {**EVALUATE_CASES, **OPTION_CALLS}.items():
        calls[f"evaluate {name}"] = ("evaluate", tables, case)
    for name, case in COMPARE_CASES.items():
        calls[f"compare {name}"] = ("compare", tables, case)
    for name, (macro, inputs, kwargs) in VALIDATION_CASES.items():
        calls[f"{macro} {name}"] = (macro, inputs, kwargs)
    # the checks of the optional inputs (items' vectors and features, train),
    # as the package's models (macros/package_models) run them
    calls["_catalog_problems cosine"] = ("_catalog_problems", ("recs", "items", "item_id"),
                                         dict(vector_col="embedding", cosine=True))
    calls["_catalog_problems hamming"] = ("_catalog_problems", ("recs", "items", "item_id"),
                                          dict(feature_cols=["genre", "era"], cosine=True))
    calls["_catalog_problems item groups"] = ("_catalog_problems", ("recs", "items", "item_id"),
                                              dict(group_col="provider", interactions="interactions",
                                                   relevance_col="relevance", relevance_threshold=1))
    calls["_train_problems"] = ("_train_problems", ("train", "user_id", "item_id"), {})
    return calls


def _queries(adapter_type: str) -> dict[str, str]:
    """The SQL of every query for the adapter."""
    return {name: _render(adapter_type, macro, *inputs, **arguments)
            for name, (macro, inputs, arguments) in _calls().items()}


class Walk(NamedTuple):
    """What the tests read of one query's tree."""

    constructs: dict[tuple[str, str], int]
    # per SELECT, see _sort_orders_per_select; Redshift's rule, so on Redshift only
    sort_orders: list[int] | None
    # what test_dialects_whole_queries.call_problems refuses in the query
    problems: list[str]


def _sort_orders_per_select(tree: exp.Expression, dialect: str) -> list[int]:
    """For each SELECT, the number of distinct ORDER BY of its WITHIN GROUP
    aggregates."""
    orders: dict[int, set[str]] = {}
    for node in tree.find_all(exp.WithinGroup):
        orders.setdefault(id(node.parent_select), set()).add(node.expression.sql(dialect))
    return [len(orders.get(id(select), ())) for select in tree.find_all(exp.Select)]


class Walks:
    """Every query of an adapter, rendered and walked once for all the tests
    that read it: parsing is nearly all of this file's time, and calls may
    render the same text."""

    def __init__(self) -> None:
        self._queries: dict[str, dict[str, str]] = {}
        self._walks: dict[str, dict[str, Walk]] = {}

    def queries(self, adapter_type: str) -> dict[str, str]:
        if adapter_type not in self._queries:
            self._queries[adapter_type] = _queries(adapter_type)
        return self._queries[adapter_type]

    def __call__(self, adapter_type: str) -> dict[str, Walk]:
        if adapter_type not in self._walks:
            dialect = WAREHOUSES[adapter_type]
            queries = self.queries(adapter_type)
            names_by_text: dict[str, list[str]] = {}
            for name, sql in queries.items():
                names_by_text.setdefault(sql, []).append(name)
            calls = _calls()
            walks = {}
            for sql, names in names_by_text.items():
                parsed = parse(sql, dialect)
                constructs = construct_names(sql, dialect, parsed)
                sort_orders = _sort_orders_per_select(parsed.tree, dialect) if adapter_type == "redshift" else None
                for name in names:
                    problems = call_problems(parsed.tree, sql, dialect, *calls[name], parsed.tokens)
                    walks[name] = Walk(constructs, sort_orders, problems)
            self._walks[adapter_type] = {name: walks[name] for name in queries}
        return self._walks[adapter_type]


@pytest.fixture(scope="module")
def walks() -> Walks:
    return Walks()


def test_every_option_value_is_rendered() -> None:
    values = {(option, value) for option, annotation in _options.option_types().items()
              for value in _options.choices(annotation)}
    rendered = {(option, case[option]) for case in OPTION_VALUE_CASES.values() for option in case
                if isinstance(case[option], str)}
    assert values <= rendered


@pytest.mark.parametrize("adapter_type", list(CATALOGUES))
def test_the_option_calls_render_every_line_of_every_option_value(adapter_type: str, walks: Walks) -> None:
    """What makes OPTION_CALLS walk all that the option values render: two
    values in one call that write the same line (or one that keeps another's
    lines from being rendered) would leave a line unwalked."""
    queries = walks.queries(adapter_type)
    walked = {line for name in OPTION_CALLS for line in queries[f"evaluate {name}"].splitlines()}
    unwalked = {}
    for name, case in OPTION_VALUE_CASES.items():
        lines = set(_render(adapter_type, "evaluate", "analytics.recs", "analytics.truth", **case).splitlines())
        if lines - walked:
            unwalked[name] = sorted(lines - walked)[:3]
    assert unwalked == {}, f"{adapter_type}: lines of these values' own calls that no call of OPTION_CALLS renders"


@pytest.mark.parametrize("adapter_type", list(CATALOGUES))
def test_every_query_parses_as_one_query_each_engine_reads_alike(adapter_type: str, walks: Walks) -> None:
    problems = {name: walk.problems for name, walk in walks(adapter_type).items() if walk.problems}
    assert problems == {}, f"{adapter_type}: {problems}"


@pytest.mark.parametrize("adapter_type", list(CATALOGUES))
def test_the_sql_uses_only_what_the_warehouse_documents(adapter_type: str, walks: Walks) -> None:
    outside: dict[tuple[str, str], list[str]] = {}
    found: set[tuple[str, str]] = set()
    for name, walk in walks(adapter_type).items():
        found |= set(walk.constructs)
        for construct in undocumented(walk.constructs, adapter_type):
            outside.setdefault(construct, []).append(name)
    report = {f"{kind} {name}": f"{len(queries)} queries, e.g. {queries[0]}" for (kind, name), queries in outside.items()}
    assert report == {}, f"{adapter_type}: not in its documented reference"
    stale = set(KNOWN_GAPS.get(adapter_type, {})) - found
    assert stale == set(), f"{adapter_type}: known gaps no longer met (remove them from KNOWN_GAPS): {sorted(stale)}"


def test_redshift_sort_based_aggregates_share_one_order_by_except_the_known_gap(walks: Walks) -> None:
    """Redshift refuses a statement whose PERCENTILE_CONT (MEDIAN, LISTAGG) calls
    are ordered by different values. The bootstrap intervals (entropy's in
    evaluate, compare's) order each metric's pair by its own column: a known gap
    (KNOWN_RULE_GAPS), held here to exactly those queries."""
    breaking = {name for name, walk in walks("redshift").items() if max(walk.sort_orders or [], default=0) > 1}
    assert breaking, "no query breaks the rule any more: remove it from KNOWN_RULE_GAPS"
    assert len(KNOWN_RULE_GAPS["redshift"]) == 1
    bootstrap = {name for name, (_, _, arguments) in _calls().items()
                 if arguments.get("bootstrap_resamples") or "bootstrap" in (arguments.get("tests") or [])}
    assert breaking <= bootstrap, f"queries other than the bootstrap's break the rule: {sorted(breaking - bootstrap)}"
