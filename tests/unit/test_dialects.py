"""The macros, rendered for each warehouse's dbt adapter, parse in that warehouse's
SQL dialect.

DuckDB, PostgreSQL, Spark and ClickHouse run the SQL for real (tests/engines/); Snowflake,
BigQuery, Trino, Databricks and Redshift are not run in CI, so their SQL is held
to sqlglot's parser here. The SQL is what dbt compiles there: the macros of
macros/ through adapter.dispatch (``bigquery__``, then the adapter's parents,
then ``default__``). rankwise.sql writes the same for each of its nine dialects
(DIALECT_ADAPTERS: evaluate rendered with the dialect's own adapter; nothing is
transpiled). Beyond parsing, the trees are checked for two traps (a one-argument
log(), whose base differs between engines, and QUALIFY) and for user-supplied
column names quoted the engine's way; and in rankwise.sql's output, the two
constructs each engine spells its own way (the cutoffs as rows, the positions an
ideal DCG sums over) are compared with the engine's documented spelling.

Here, the macros and the checks themselves; the whole queries of evaluate,
compare and rankwise.sql are checked by tests/slow/test_dialects_whole_queries.py,
with these cases and checks (rankwise.sql's text for what each engine lacks, and
its DuckDB query run), and on the five warehouses above walked against each
engine's documented reference by tests/slow/test_warehouse_catalogue.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
import yaml
from sqlglot import exp
from sqlglot.tokens import Token, TokenType

import rankwise
from rankwise._render import renderer
from rankwise.engines import DIALECT_ADAPTERS

REPO_ROOT = Path(__file__).resolve().parents[2]
MACRO_ROOT = REPO_ROOT / "macros"

# dbt adapter type -> sqlglot dialect name.
DIALECTS = {
    "snowflake": "snowflake",
    "bigquery": "bigquery",
    "trino": "trino",
    "databricks": "databricks",
    "redshift": "redshift",
    "duckdb": "duckdb",
    "postgres": "postgres",
    "spark": "spark",
    "clickhouse": "clickhouse",
}
BACKTICK_DIALECTS = ("bigquery", "spark", "databricks")

INTEGRATION_VARS = yaml.safe_load((REPO_ROOT / "integration_tests" / "dbt_project.yml").read_text())["vars"]
ALL_METRICS: list[str] = INTEGRATION_VARS["rankwise_metrics"]
PER_USER_METRICS = [name for name in ALL_METRICS if name != "entropy"]


def _integration_cases() -> dict[str, dict[str, Any]]:
    """The evaluate calls of the integration project, as dbt builds them on
    DuckDB, PostgreSQL, Spark and ClickHouse: each case of rankwise_test_cases (means per
    example_id, as models/actual__cases.sql calls it) and each evaluate call of
    rankwise_parity_cases."""
    cases = {
        case["name"]: {"metrics": case["metrics"], "k": case["k"], "group_by": ["example_id"], **case["options"]}
        for case in INTEGRATION_VARS["rankwise_test_cases"]
    }
    cases |= {
        f"parity__{case['name']}": dict(case["kwargs"])
        for case in INTEGRATION_VARS["rankwise_parity_cases"]
        if case["macro"] == "evaluate"
    }
    return cases


# Beyond the integration project: options and shapes it does not build (several
# group columns, a user-set mapping, duplicate interactions, the conventions), so
# that every SQL path is rendered.
EXTRA_EVALUATE_CASES: dict[str, dict[str, Any]] = {
    "users_mapping": dict(metrics=ALL_METRICS, k=[5], group_by=["model"], relevance_col="relevance",
                          users={"default": "both", "ndcg": "interactions", "map": "relevant"}),
    "duplicate_interactions_max": dict(metrics=ALL_METRICS, k=[5, None], group_by=["model"], relevance_col="relevance",
                                       duplicate_interactions="max"),
    "per_user_every_metric": dict(metrics=PER_USER_METRICS, k=[1, 5, None], group_by=["model", "run"], per_user=True,
                                  relevance_col="relevance", score_col="score", ties="shared", users="interactions"),
    # judged@k reads the lists' lengths within every cutoff, under each judged strategy
    "judged_share": dict(metrics=["judged", "ndcg", "Judged@3"], k=[5, 10], group_by=["model"], relevance_col="relevance"),
    # unjudged is not 0 without a judged item: the means list every list
    "unjudged_share": dict(metrics=["unj_5", "unjudged", "judged@5", "ndcg"], k=[10], group_by=["model"],
                           partition_by=["fold"], relevance_col="relevance"),
    "unjudged_share_relevant_users": dict(metrics=["unjudged@3", "map@3"], users="relevant", score_col="score"),
    "judged_share_whole_list": dict(metrics=["judged", "map"], k=[5, None], relevance_col="relevance", score_col="score"),
    # the presets' measure sets, and capped recall at a cutoff and the whole list
    "measure_sets": dict(metrics=["beir", "msmarco", "R_cap@20", "recall_cap"], k=[5, None], relevance_col="relevance",
                         score_col="score", convention="beir"),
    # the rows dropped before ranking, by rank and by score, with groups and partitions
    "dropped_rows_by_rank": dict(metrics=["judged", "ndcg", "mrr"], k=[3, None], group_by=["model"], partition_by=["fold"],
                                 judged_only=True, ignore_identical_ids=True, duplicate_recommendations="first"),
    "dropped_rows_by_score": dict(metrics=["ndcg", "precision"], k=[5], per_user=True, score_col="score",
                                  relevance_col="relevance", judged_only=True, duplicate_recommendations="first"),
    "per_user_users_relevant": dict(metrics=["precision", "ndcg"], k=[3], per_user=True, users="relevant"),
    **{
        f"convention_{convention}": dict(metrics=ALL_METRICS, k=[5],
                                         group_by=["model"], relevance_col="relevance", score_col="score",
                                         convention=convention)
        for convention in ("trec_eval", "ranx", "recommenders", "rectools", "evidently", "msmarco", "beir")
    },
    "partitions": dict(metrics=ALL_METRICS, k=[5, None], partition_by=["fold"], group_by=["model"],
                       relevance_col="relevance"),
    "partitions_per_user": dict(metrics=PER_USER_METRICS, k=[3, None], partition_by=["fold", "week"], per_user=True,
                                relevance_col="relevance", score_col="score"),
    "convention_rectools_per_user": dict(metrics=PER_USER_METRICS, k=[3], per_user=True,
                                         relevance_col="relevance", convention="rectools"),
    "confidence_90": dict(metrics=ALL_METRICS, k=[5, None], group_by=["model"], relevance_col="relevance",
                          confidence=0.9),
    "no_interval": dict(metrics=ALL_METRICS, k=[5], group_by=["model"], confidence=None),
    "reference_lists": dict(metrics=["rbo", "rbo(p=0.5)", "intersection", "ndcg"], k=[3, 10], partition_by=["fold"],
                            model_col="model", reference="production", without_reference="zero"),
    "reference_lists_per_user": dict(metrics=["rbo", "intersection"], k=[5], per_user=True, model_col="model",
                                     reference=7),
    "propensity": dict(metrics=["recall", "dcg", "idcg", "ndcg"], k=[3, None], group_by=["model"],
                       relevance_col="relevance", propensity_col="propensity", propensity_clip=0.05),
    "propensity_per_user": dict(metrics=["recall", "ndcg"], k=[5], per_user=True, propensity_col="propensity"),
    "exposure_and_popularity": dict(metrics=["exposure_gini", "exposure_disparity", "popularity_lift", "miscalibration",
                                             "ndcg"], k=[3, None], group_by=["model"], items="analytics.items",
                                    train="analytics.train", item_group_col="provider", exposure_model="rbp",
                                    exposure_persistence=0.9),
    "user_groups": dict(metrics=["ndcg", "popularity_lift", "entropy"], k=[3], partition_by=["fold"], group_by=["model"],
                        train="analytics.train", user_group_col="segment", users="both"),
    "single_item_diversity": dict(metrics=["intra_list_diversity"], k=[3], group_by=["model"],
                                  items="analytics.items", item_distance="hamming", item_feature_cols=["genre"],
                                  single_item_diversity="zero"),
    "entropy_bootstrap": dict(metrics=["entropy", "ndcg"], k=[3, 10], partition_by=["fold"], group_by=["model"],
                              bootstrap_resamples=20, seed=4),
    "beyond_accuracy": dict(metrics=["ndcg", "entropy", "coverage", "gini", "personalization", "novelty", "arp",
                                     "long_tail_share"], k=[5, 10], group_by=["model"],
                            items="analytics.items", train="analytics.train"),
    "beyond_accuracy_partitions_per_user": dict(metrics=["precision", "novelty", "arp", "long_tail_share"], k=[3, None],
                                                partition_by=["fold"], per_user=True, train="analytics.train",
                                                novelty_popularity="interactions", arp_popularity="interactions",
                                                head_share=0.5),
    # the three distances; the vector column an array in every dialect
    "diversity_cosine_vectors": dict(metrics=["intra_list_diversity", "serendipity"], k=[3, 10], group_by=["model"],
                                     partition_by=["fold"], items="analytics.items", train="analytics.train",
                                     item_vector_col="embedding"),
    "diversity_hamming_per_user": dict(metrics=["intra_list_diversity"], k=[2, None], per_user=True,
                                       items="analytics.items", item_distance="hamming",
                                       item_feature_cols=["genre", "era"], diversity_denominator="list_length"),
    "diversity_cooccurrence": dict(metrics=["intra_list_diversity", "novelty"], k=[5], partition_by=["fold"],
                                   train="analytics.train", item_distance="cooccurrence", score_col="score",
                                   ties="shared", novelty_unseen="dropped"),
    # Evidently's coverage and Gini, per partition's train items
    "coverage_gini_of_the_train_items": dict(metrics=["coverage", "gini", "novelty"], k=[1, 5], group_by=["model"],
                                             partition_by=["fold"], train="analytics.train",
                                             coverage_of="train_items", gini_items="shown", novelty_unseen="zero"),
}

EVALUATE_CASES = _integration_cases() | EXTRA_EVALUATE_CASES

VALIDATION_CASES: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {
    "recommendation_problems": ("recommendation_problems", ("recs",), {}),
    "recommendation_problems_scores_groups": (
        "recommendation_problems", ("recs",), dict(score_col="score", group_by=["model", "run"])),
    "recommendation_problems_one_group": ("recommendation_problems", ("recs",), dict(group_by="model")),
    "interaction_problems": ("interaction_problems", ("truth",), {}),
    "interaction_problems_relevance": ("interaction_problems", ("truth",), dict(relevance_col="relevance")),
    "evaluation_notes": ("evaluation_notes", ("recs", "truth"), {}),
    "dropped_recommendations": ("dropped_recommendations", ("recs", "truth"), dict(
        judged_only=True, ignore_identical_ids=True, duplicate_recommendations="first", group_by=["model"],
        partition_by=["fold"])),
    "dropped_recommendations_by_score": ("dropped_recommendations", ("recs", "truth"), dict(
        score_col="score", duplicate_recommendations="first", judged_only=True)),
    "evaluation_notes_partitions": ("evaluation_notes", ("recs", "truth"), dict(partition_by=["fold"], group_by="model")),
    "interaction_problems_partitions": ("interaction_problems", ("truth",), dict(partition_by=["fold", "week"])),
    "id_overlap": ("id_overlap", ("recs", "truth"), {}),
    "id_overlap_partitions": ("id_overlap", ("recs", "truth"), dict(partition_by=["fold"])),
    "coverage_warnings": ("coverage_warnings", ("means",), {}),
    "coverage_warnings_every_option": ("coverage_warnings", ("means",), dict(
        group_by=["model", "run"], partition_by=["fold"], users={"default": "both", "ndcg": "interactions"})),
    "exposure_by_item_group": ("exposure_by_item_group", ("recs", "truth", "items"),
                               dict(k=[3, 10], group_by=["model"], partition_by=["fold"], item_group_col="provider",
                                    exposure_model="rbp", exposure_persistence=0.9)),
    "evaluation_notes_every_option": (
        "evaluation_notes", ("recs", "truth"),
        dict(score_col="score", relevance_col="relevance", relevance_threshold=2, k=10, group_by=["model"])),
}

# Every public macro that returns SQL, with arguments as a dbt model would pass
# them; the expressions are placed in a SELECT to be parsed.
EXPRESSION_CASES: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "precision_at_k": ("precision_at_k", ("hits",), dict(k=10)),
    "precision_at_k_list_length": ("precision_at_k", ("hits",), dict(k=10, n_recommended="n_recommended",
                                                                      precision_denominator="list_length")),
    "precision_at_k_no_cutoff": ("precision_at_k", ("hits",), dict(n_recommended="n_recommended")),
    "recall_at_k": ("recall_at_k", ("hits", "n_relevant"), {}),
    "f1_at_k": ("f1_at_k", ("hits", "n_relevant"), dict(k=5)),
    "f1_at_k_list_length": ("f1_at_k", ("hits", "n_relevant"), dict(k=5, n_recommended="n_recommended",
                                                                    precision_denominator="list_length")),
    "hit_rate_at_k": ("hit_rate_at_k", ("hits",), {}),
    "judged_at_k": ("judged_at_k", ("n_judged", "n_recommended"), {}),
    "unjudged_at_k": ("unjudged_at_k", ("n_judged", "n_recommended"), dict(k=10)),
    "unjudged_at_k_no_cutoff": ("unjudged_at_k", ("n_judged", "n_recommended"), {}),
    "recall_cap_at_k": ("recall_cap_at_k", ("hits", "n_relevant"), dict(k=10)),
    "recall_cap_at_k_column": ("recall_cap_at_k", ("hits", "n_relevant"), dict(k="cutoff")),
    **{
        f"average_precision_at_k_{denominator}": (
            "average_precision_at_k", ("precision_sum", "n_relevant"), dict(k=10, hits="hits", ap_denominator=denominator))
        for denominator in ("relevant", "min_relevant_k", "hits", "k")
    },
    "average_precision_no_cutoff": ("average_precision_at_k", ("precision_sum", "n_relevant"), {}),
    "reciprocal_rank_at_k": ("reciprocal_rank_at_k", ("first_relevant_rank",), dict(k=10)),
    "reciprocal_rank_no_cutoff": ("reciprocal_rank_at_k", ("first_relevant_rank",), {}),
    **{
        f"dcg_at_k_{gain}": ("dcg_at_k", ("rank", "relevance"), dict(k=10, gain=gain))
        for gain in ("linear", "exponential", "binary")
    },
    "dcg_at_k_min_relevance": ("dcg_at_k", ("rank", "relevance"), dict(min_relevance=2)),
    "dcg_term": ("dcg_term", ("rank", "relevance"), dict(gain="exponential")),
    **{
        f"idcg_at_k_{gain}": ("idcg_at_k", ("ideal_rank", "relevance"), dict(k=10, gain=gain))
        for gain in ("linear", "exponential", "binary")
    },
    "idcg_at_k_min_relevance": ("idcg_at_k", ("ideal_rank", "relevance"), dict(min_relevance=2)),
    "idcg_of_k_slots": ("idcg_of_k_slots", (10,), {}),
    "ndcg_at_k": ("ndcg_at_k", ("dcg", "idcg"), {}),
    "r_precision": ("r_precision", ("hits_within_n_relevant", "n_relevant"), {}),
    "bpref_term": ("bpref_term", ("nonrelevant_before", "n_relevant", "n_nonrelevant"), {}),
    "rbp_at_k": ("rbp_at_k", ("rank_biased_gain",), dict(p=0.9)),
    "rbp_at_k_normalized": ("rbp_at_k", ("rank_biased_gain",), dict(normalize=True, n_relevant="n_relevant", k=10)),
    "rank_biased_weight": ("rank_biased_weight", ("rank",), dict(p=0.95)),
    "rank_biased_overlap": ("rank_biased_overlap", ("weight_tail", "common", "common_within_short", "short_depth", "long_depth"),
                            dict(p=0.9)),
    "err_at_k": ("err_at_k", ("rank", "stop_probability", "continuation_before"), dict(k=10)),
    "err_at_k_no_cutoff": ("err_at_k", ("rank", "stop_probability", "continuation_before"), {}),
    "err_stop_probability": ("err_stop_probability", ("relevance", "max_relevance"), {}),
    "map_to_full_recall_at_k": ("map_to_full_recall_at_k", ("precision_sum", "ranks"), {}),
    "entropy_at_k": ("entropy_at_k", ("share",), {}),
    "catalog_coverage": ("catalog_coverage", ("n_items_shown", "catalog_size"), {}),
    "gini_index": ("gini_index", ("weighted", "exposures", "n_items_shown", "catalog_size"), {}),
    "personalization_at_k": ("personalization_at_k", ("exposure_pairs", "n_lists", 10), {}),
    "rank_exposure_dcg": ("rank_exposure", ("rank",), {}),
    "rank_exposure_rbp": ("rank_exposure", ("rank",), dict(exposure_model="rbp", persistence=0.9)),
    "item_novelty": ("item_novelty", ("item_users", "train_users"), {}),
    "popularity_lift": ("popularity_lift", ("list_mean", "profile_mean"), {}),
    "calibration_term": ("calibration_term", ("train_share", "list_share", 0.01), {}),
    "item_serendipity": ("item_serendipity", ("rank", "popularity_rank", "catalog_size", "relevant"), {}),
    "cosine_distance": ("cosine_distance", ("dot_product", "first_norm", "second_norm"), {}),
    "hamming_distance": ("hamming_distance", (["a1", "a2"], ["b1", "b2"]), {}),
    "cooccurrence_distance": ("cooccurrence_distance", ("users_of_both", "users_of_first", "users_of_second"), {}),
    "vector_dot_product": ("vector_dot_product", ("a", "b"), {}),
    "vector_length": ("vector_length", ("a",), {}),
    "entropy_at_k_log_base_2": ("entropy_at_k", ("share",), dict(log_base=2)),
    "self_information": ("self_information", ("probability",), {}),
    "self_information_log_base_10": ("self_information", ("probability",), dict(log_base=10)),
    **{
        f"relevance_gain_{gain}": ("relevance_gain", ("relevance",), dict(gain=gain, min_relevance=1))
        for gain in ("linear", "exponential", "binary")
    },
    "rank_discount": ("rank_discount", ("rank",), {}),
    "safe_divide": ("safe_divide", ("a", "b"), {}),
    "null_safe_equals": ("null_safe_equals", ("a", "b"), {}),
    "quote_identifier": ("quote_identifier", ('x"; drop table t; --',), {}),
}
# Public macros that return no SQL expression, and the macros whose output is a
# type, not a value.
NOT_SQL = {"convention_options", "metric_names", "metric_better", "metric_alias", "metric_aliases"}
TYPE_MACROS = {"type_float64"}

# Column names that need quoting, holding every quote and escape character of the
# dialects; each must reach the SQL as one quoted identifier with that name.
ODD_COLUMNS = dict(
    user_col="user id",
    item_col="it's item",
    rank_col='r"ank',
    score_col="sc`ore",
    relevance_col="rel\\evance",
)
ODD_GROUPS = ['x"; drop table t; --', "model name"]


def parsed(sql: str, dialect: str) -> exp.Expression:
    """The syntax tree of one statement in `dialect`, after the checks every
    rendered query must pass: it parses with no error, it is one query, it has no
    one-argument LOG (its base is 10 on some engines, e on others), no QUALIFY
    (PostgreSQL, Redshift, Trino and Spark have none), no ORDER BY of a whole
    UNION (ClickHouse orders its last branch only), and every column of a
    select list named as ClickHouse names it too (_misnamed_columns)."""
    tree = sqlglot.parse_one(sql, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
    problems = whole_query_problems(tree, sql, dialect)
    assert not problems, problems
    return tree


def whole_query_problems(tree: exp.Expression, sql: str, dialect: str,
                         tokens: list[Token] | None = None) -> list[str]:
    """What `parsed` refuses in the tree of `sql` (and its tokens, if they are
    at hand), each problem as a message."""
    # several statements parse into an exp.Block
    if not isinstance(tree, exp.Query):
        return [f"not a single query in {dialect}: {type(tree).__name__}"]
    problems = []
    one_argument_logs = [node.sql(dialect) for node in tree.find_all(exp.Log) if node.args.get("expression") is None]
    if one_argument_logs:
        problems.append(f"one-argument log() in {dialect}: {one_argument_logs}")
    # BigQuery, Spark and Databricks read a one-argument LOG as exp.Ln, so the
    # tokens are checked too (when the text has a log call at all).
    if re.search(r"(?i)\blog\s*\(", sql) and _one_argument_log_calls(tokens or sqlglot.tokenize(sql, read=dialect)):
        problems.append(f"one-argument log() in {dialect}")
    if list(tree.find_all(exp.Qualify)):
        problems.append(f"QUALIFY in {dialect}")
    if [union for union in tree.find_all(exp.Union) if union.args.get("order")]:
        problems.append(f"ORDER BY of a UNION in {dialect}")
    misnamed = _misnamed_columns(tree)
    if misnamed:
        problems.append(f"columns ClickHouse names otherwise in {dialect}: {misnamed}")
    return problems


def _misnamed_columns(tree: exp.Expression) -> list[str]:
    """The select-list items whose name ClickHouse reads otherwise than the
    other engines: a qualified column without an alias (`t.c`), and a qualified
    star in a join of three relations or more, which ClickHouse names `t.c` when
    another relation of such a join has a `c`; and a name that a select gives
    to an expression and also reads, unqualified, elsewhere in its own
    expressions, where ClickHouse reads the alias and the others the input's
    column (a cast of the column named as the column reads alike either way)."""
    misnamed = []
    for select in tree.find_all(exp.Select):
        relations = (1 if select.args.get("from_") else 0) + len(select.args.get("joins") or [])
        aliases = {}
        for item in select.expressions:
            if isinstance(item, exp.Column) and item.table and (not isinstance(item.this, exp.Star) or relations >= 3):
                misnamed.append(item.sql())
            inner = item.this if isinstance(item, exp.Alias) else None
            while isinstance(inner, exp.Cast):
                inner = inner.this
            if isinstance(item, exp.Alias) and not (isinstance(inner, exp.Column) and inner.name == item.alias):
                aliases[item.alias] = item
        for column in _own_columns(select):
            definition = aliases.get(column.name)
            if definition is not None and not column.table and not any(parent is definition for parent in _parents(column)):
                misnamed.append(f"{column.name} (also the alias of {definition.this.sql()})")
    return misnamed


def _own_columns(select: exp.Select) -> list[exp.Column]:
    """The columns a select reads in its own expressions (select list, WHERE,
    GROUP BY, HAVING...), not in its FROM or joins nor in a subquery, nor in its
    ORDER BY, which reads the select's own names on every engine."""
    columns, pending = [], [value for key, value in select.args.items() if key not in ("from_", "joins", "with_", "order")]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, exp.Column):
            columns.append(node)
        elif isinstance(node, exp.Expression) and not isinstance(node, (exp.Query, exp.Subquery)):
            pending.extend(node.args.values())
    return columns


def _parents(node: exp.Expression) -> list[exp.Expression]:
    parents = []
    while node.parent is not None:
        node = node.parent
        parents.append(node)
    return parents


def _calls(tokens: list[Token], name: str) -> list[list[tuple[int, Token]]]:
    """The tokens inside each `name(...)` call, each with its parenthesis depth
    (1 = the call's own arguments)."""
    calls = []
    for position, token in enumerate(tokens[:-1]):
        if token.text.upper() != name or tokens[position + 1].token_type != TokenType.L_PAREN:
            continue
        depth, inside = 0, []
        for inner in tokens[position + 1:]:
            depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(inner.token_type, 0)
            if depth == 0:
                break
            inside.append((depth, inner))
        calls.append(inside[1:])  # without the opening parenthesis
    return calls


def _one_argument_log_calls(tokens: list[Token]) -> int:
    return sum(not any(depth == 1 and token.token_type == TokenType.COMMA for depth, token in call)
               for call in _calls(tokens, "LOG"))


def _plain(name: str) -> bool:
    """A name written unquoted: lower-case letters, digits and underscores, not
    starting with a digit, and no reserved word of DuckDB (tests/unit/test_sql.py
    checks the macros' full list against DuckDB's and sqlglot's)."""
    reserved = {word for (word,) in duckdb.sql(
        "select keyword_name from duckdb_keywords() where keyword_category = 'reserved'").fetchall()}
    return re.fullmatch(r"[a-z_][a-z0-9_]*", name) is not None and name not in reserved


def quoted(name: str, dialect: str) -> str:
    """`name` as the engine's identifier, written here independently of the
    macros: a plain name as it is; any other quoted, with backticks on BigQuery
    (with a string literal's backslash escapes), on Spark and Databricks (a
    backtick doubled), double quotes elsewhere (on ClickHouse with a backslash
    doubled too, as it reads a string literal's escapes there)."""
    if _plain(name):
        return name
    if dialect == "bigquery":
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"
    if dialect in BACKTICK_DIALECTS:
        return "`" + name.replace("`", "``") + "`"
    if dialect == "clickhouse":
        return '"' + name.replace("\\", "\\\\").replace('"', '""') + '"'
    return '"' + name.replace('"', '""') + '"'


def assert_column(tree: exp.Expression, sql: str, dialect: str, name: str) -> None:
    """`name` is in the SQL as the engine's quoted identifier, which sqlglot reads
    as a quoted column (not a string literal) of that exact name."""
    problem = column_problem(tree, sql, dialect, name)
    assert problem is None, problem


def column_problem(tree: exp.Expression, sql: str, dialect: str, name: str) -> str | None:
    """What assert_column refuses, as a message; None when `name` passes."""
    if quoted(name, dialect) not in sql:
        return f"{name!r} is not quoted as {quoted(name, dialect)} in {dialect}"
    columns = [column for column in tree.find_all(exp.Column) if column.name == name]
    if not columns:
        return f"no column named {name!r} in the {dialect} tree"
    if not all(column.this.quoted != _plain(name) for column in columns):
        return f"{name!r} quoted wrongly in {dialect}"
    return None


def _render(adapter_type: str, macro: str, *args: Any, **kwargs: Any) -> str:
    return renderer(adapter_type).call(macro, *args, **kwargs)


def _public_macros() -> set[str]:
    return {macro["name"] for macro in yaml.safe_load((MACRO_ROOT / "schema.yml").read_text())["macros"]
            if not macro["name"].startswith("test_")}


@pytest.mark.parametrize("adapter_type", DIALECTS)
@pytest.mark.parametrize("case", VALIDATION_CASES)
def test_validation_macros_parse_in_each_dialect(adapter_type: str, case: str) -> None:
    macro, tables, kwargs = VALIDATION_CASES[case]
    sql = _render(adapter_type, macro, *tables, **kwargs)
    tree = parsed(sql, DIALECTS[adapter_type])
    assert set(tables) <= {table.name for table in tree.find_all(exp.Table)}


@pytest.mark.parametrize("adapter_type", DIALECTS)
@pytest.mark.parametrize("case", EXPRESSION_CASES)
def test_every_metric_macro_parses_in_each_dialect(adapter_type: str, case: str) -> None:
    macro, args, kwargs = EXPRESSION_CASES[case]
    expression = _render(adapter_type, macro, *args, **kwargs).strip()
    parsed(f"select {expression} as value from rw_lists", DIALECTS[adapter_type])


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_type_macros_parse_in_each_dialect(adapter_type: str) -> None:
    for macro in TYPE_MACROS:
        type_name = _render(adapter_type, macro).strip()
        tree = parsed(f"select cast(x as {type_name}) as value from t", DIALECTS[adapter_type])
        assert tree.find(exp.Cast).to.is_type(exp.DataType.Type.DOUBLE), f"{macro} on {adapter_type}: {type_name}"


def test_every_public_macro_is_rendered_here() -> None:
    covered = {macro for macro, _, _ in EXPRESSION_CASES.values()} | {macro for macro, _, _ in VALIDATION_CASES.values()}
    covered |= {"evaluate", "compare"} | TYPE_MACROS | NOT_SQL
    assert _public_macros() <= covered, f"not parsed in any dialect: {sorted(_public_macros() - covered)}"


def test_every_argument_of_evaluate_is_rendered_here() -> None:
    """A new option of evaluate reaches the dialects through a case (best: a case
    of the integration project, which every engine then builds)."""
    documented = next(macro for macro in yaml.safe_load((MACRO_ROOT / "schema.yml").read_text())["macros"]
                      if macro["name"] == "evaluate")
    # validate writes no SQL of the query: it says whether dbt runs the checks first
    arguments = {argument["name"] for argument in documented["arguments"]} - {"recommendations", "interactions", "validate"}
    rendered = {name for case in EVALUATE_CASES.values() for name in case} | set(ODD_COLUMNS)
    assert arguments - rendered == set()


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_column_names_are_quoted_for_the_dialect_in_the_validation_macros(adapter_type: str) -> None:
    """Each name is quoted as an identifier where it is read, and written intact as
    the string literal of the report's column_name (backslash escapes included)."""
    dialect = DIALECTS[adapter_type]
    user, item = ODD_COLUMNS["user_col"], ODD_COLUMNS["item_col"]
    score, relevance = ODD_COLUMNS["score_col"], ODD_COLUMNS["relevance_col"]
    rank = ODD_COLUMNS["rank_col"]
    # (SQL, names read as columns, names reported as column_name)
    rendered = [
        (_render(adapter_type, "recommendation_problems", "recs", user_col=user, item_col=item, rank_col=rank,
                 group_by=ODD_GROUPS), [user, item, rank, *ODD_GROUPS], {user, item, rank}),
        (_render(adapter_type, "recommendation_problems", "recs", user_col=user, item_col=item, score_col=score),
         [user, item, score], {user, item, score}),
        (_render(adapter_type, "interaction_problems", "truth", user_col=user, item_col=item, relevance_col=relevance),
         [user, item, relevance], {user, item, relevance}),
        (_render(adapter_type, "evaluation_notes", "recs", "truth", user_col=user, item_col=item, score_col=score,
                 relevance_col=relevance, k=5, group_by=ODD_GROUPS), [user, score, relevance, *ODD_GROUPS], {user, score}),
    ]
    for sql, columns, reported in rendered:
        tree = parsed(sql, dialect)
        for name in columns:
            assert_column(tree, sql, dialect, name)
        literals = {literal.this for literal in tree.find_all(exp.Literal) if literal.is_string}
        assert reported <= literals, f"column_name literals in {dialect}: {sorted(reported - literals)} not intact"


# The types each engine has, as the casts may name them.
DEFAULT_TYPES = {"double", "varchar", "bigint", "integer"}
ENGINE_TYPES = {
    "bigquery": {"float64", "string", "bigint", "integer"},
    "postgres": {"double precision", "varchar", "bigint", "integer"},
    "redshift": {"double precision", "varchar", "bigint", "integer"},
    "spark": {"double", "string", "bigint", "integer"},
    "databricks": {"double", "string", "bigint", "integer"},
    "clickhouse": {"double", "string", "bigint", "integer"},
}


# rankwise.sql's text in each dialect, checked by tests/slow/test_dialects_whole_queries.py
# for the SQL an engine cannot run, named (its query is evaluate's, whose rendering
# those tests parse): the cases, and DuckDB's own functions.

SQL_CASES = ["golden__default", "per_user_every_metric", "convention_rectools", "golden__log_base_2"]
# DuckDB's own functions and keywords (its dispatch overrides), which no other
# engine has under these names
DUCKDB_ONLY = re.compile(r"\b(list|list_transform|list_sum|list_slice|bit_count|bitstring_agg)\s*\(|\blambda\b|\bmaterialized\b")


def _normalised(sql: str) -> str:
    """Lower case, one space for any run of white space, none inside parentheses."""
    return re.sub(r"\s*\)", ")", re.sub(r"\(\s*", "(", re.sub(r"\s+", " ", sql.lower())))


# The two constructs each engine spells its own way, in each dialect's rankwise.sql
# of ndcg@5 and precision@10 with idcg='k_positions' (as _normalised writes it):
# the cutoffs as rows of literals, and the positions 1..10 that the ideal DCG of k
# slots sums over, each as the engine's reference documents it (the catalogue of
# tests/slow holds every query to the references).
CONSTRUCTS: dict[str, tuple[str, str]] = {
    "duckdb": ("from (values (5, 5, 0), (10, 10, 0)) as rw_rows(rw_k, rw_limit, rw_is_default)",
               "(select rw_position from generate_series(1, 10) as rw_series(rw_position))"),
    "postgres": ("from (values (5, 5, 0), (10, 10, 0)) as rw_rows(rw_k, rw_limit, rw_is_default)",
                 "(select rw_position from generate_series(1, 10) as rw_series(rw_position))"),
    # Spark's inline table, and its range table function (end exclusive)
    "spark": ("from values (5, 5, 0), (10, 10, 0) as rw_rows(rw_k, rw_limit, rw_is_default)",
              "(select id as rw_position from range(1, 10 + 1))"),
    "databricks": ("from values (5, 5, 0), (10, 10, 0) as rw_rows(rw_k, rw_limit, rw_is_default)",
                   "(select id as rw_position from range(1, 10 + 1))"),
    # Redshift has no VALUES list in FROM (a UNION ALL of one-row SELECTs), and
    # runs generate_series on its leader node only (the positions are the
    # numbers of decimal digits, cross joined)
    "redshift": ("from (select 5 as rw_k, 5 as rw_limit, 0 as rw_is_default union all select 10 as rw_k, 10 as rw_limit, 0 as rw_is_default)",
                 "(select rw_position from (select rw_digit_0.rw_digit * 1 + 1 as rw_position from (select 0 as rw_digit "
                 + " ".join(f"union all select {digit} as rw_digit" for digit in range(1, 10))
                 + ") as rw_digit_0) as rw_numbers where rw_position <= 10)"),
    # Snowflake's GENERATOR rows numbered by ROW_NUMBER
    "snowflake": ("from (values (5, 5, 0), (10, 10, 0)) as rw_rows(rw_k, rw_limit, rw_is_default)",
                  "(select row_number() over (order by seq4()) as rw_position from table(generator(rowcount => 10)))"),
    # BigQuery unnests an array of structs, and an array of the positions
    "bigquery": ("from unnest([struct(5 as rw_k, 5 as rw_limit, 0 as rw_is_default), struct(10 as rw_k, 10 as rw_limit, 0 as rw_is_default)])",
                 "(select rw_position from unnest(generate_array(1, 10)) as rw_position)"),
    # Trino unnests sequence(), naming its column
    "trino": ("from (values (5, 5, 0), (10, 10, 0)) as rw_rows(rw_k, rw_limit, rw_is_default)",
              "(select rw_position from unnest(sequence(1, 10)) as rw_series(rw_position))"),
    # ClickHouse's numbers(offset, count) table function: its generate_series
    # ignores the column alias
    "clickhouse": ("from (values (5, 5, 0), (10, 10, 0)) as rw_rows(rw_k, rw_limit, rw_is_default)",
                   "(select cast(number as bigint) as rw_position from numbers(1, 10))"),
}


@pytest.mark.parametrize("dialect", list(DIALECT_ADAPTERS))
def test_rankwise_sql_spells_rows_and_positions_as_its_engine_does(dialect: str) -> None:
    sql = _normalised(rankwise.sql("analytics.recs", "analytics.truth", ["ndcg@5", "precision@10"], dialect=dialect,
                                   gain="binary", idcg="k_positions"))
    rows, positions = CONSTRUCTS[dialect]
    assert rows in sql
    assert f"inner join {positions} as slot" in sql


# The checks can fail: each breaks one of them on purpose.

BROKEN_SQL = {
    "unclosed parenthesis": "select cast((a as double from t",
    "missing select list": "select from t where",
    "dangling operator": "select a + from t",
}


@pytest.mark.parametrize("adapter_type", DIALECTS)
@pytest.mark.parametrize("broken", BROKEN_SQL)
def test_invalid_sql_fails_the_check(adapter_type: str, broken: str) -> None:
    with pytest.raises(sqlglot.errors.ParseError):
        parsed(BROKEN_SQL[broken], DIALECTS[adapter_type])


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_a_broken_rendering_fails_the_check(adapter_type: str) -> None:
    sql = _render(adapter_type, "evaluate", "recs", "truth", **EVALUATE_CASES["parity__evaluate_per_user"])
    parsed(sql, DIALECTS[adapter_type])
    with pytest.raises(sqlglot.errors.ParseError):
        parsed(sql.replace("select", "select (", 1), DIALECTS[adapter_type])


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_the_trap_checks_fail_on_their_traps(adapter_type: str) -> None:
    dialect = DIALECTS[adapter_type]
    parsed("select log(2, x) as v from t", dialect)  # two arguments: explicit base, allowed
    with pytest.raises(AssertionError, match="one-argument log"):
        parsed("select log(x) as v from t", dialect)
    with pytest.raises(AssertionError, match="one-argument log"):
        parsed("select 1 - log((x + 1) * 2) as v from t", dialect)
    with pytest.raises(AssertionError, match="not a single query"):
        parsed("select 1 as v from t; drop table t", dialect)
    parsed("select * from (select a from t union all select a from u) as w order by a", dialect)
    if dialect != "clickhouse":  # where the ORDER BY belongs to the last select
        with pytest.raises(AssertionError, match="ORDER BY of a UNION"):
            parsed("select a from t union all select a from u order by a", dialect)
    # sqlglot reads QUALIFY in every dialect here but Trino, where it is an error
    with pytest.raises((AssertionError, sqlglot.errors.ParseError)):
        parsed("select a from t qualify row_number() over (order by a) = 1", dialect)
    # named as ClickHouse names them: each qualified column aliased, a qualified
    # star only in a join of two, no alias read as an input column
    join_of_three = "from t inner join u on t.k = u.k inner join w on w.k = t.k"
    parsed(f"select t.k as k, u.x as x, cast(t.y as bigint) as y, y + 1 as z {join_of_three}", dialect)
    parsed("select t.*, u.x as x from t inner join u on t.k = u.k", dialect)
    for trap in (f"select t.k, u.x as x {join_of_three}", f"select t.*, u.x as x {join_of_three}",
                 "select sum(x) as x, count(x) as n from t", "select x + 1 as x from t where x > 0"):
        with pytest.raises(AssertionError, match="ClickHouse names otherwise"):
            parsed(trap, dialect)


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_the_quoting_check_fails_on_the_other_quotes(adapter_type: str) -> None:
    dialect = DIALECTS[adapter_type]
    right = quoted("user id", dialect)
    wrong = '"user id"' if right.startswith("`") else "`user id`"
    assert_column(parsed(f"select {right} from t", dialect), f"select {right} from t", dialect, "user id")
    with pytest.raises((AssertionError, sqlglot.errors.ParseError, sqlglot.errors.TokenError)):
        sql = f"select {wrong} from t"
        assert_column(parsed(sql, dialect), sql, dialect, "user id")
