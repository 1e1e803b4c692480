"""The walk that holds rankwise's SQL to each warehouse's documented reference
(tests/unit/warehouse_catalogue.py), and the proof that it fails: on a VALUES
list in FROM for BigQuery and Redshift, on generate_series for BigQuery,
Redshift, Snowflake and Trino, as the default macros write them. The walk over
every query of evaluate, compare and the checks is
tests/slow/test_warehouse_catalogue.py."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import Token, TokenType

from rankwise._render import renderer
from tests.unit.warehouse_catalogue import CATALOGUES, KNOWN_GAPS

# dbt adapter type -> sqlglot dialect
WAREHOUSES = {name: name for name in CATALOGUES}

# Nodes that are no construct of their own: names, literals, aliases, grouping
# parentheses, and the parts of a construct counted at its head (a CTE of WITH,
# an ORDER BY item, a WHEN of CASE, a frame's bounds).
_PARTS = (
    exp.Identifier, exp.Column, exp.Literal, exp.Alias, exp.TableAlias, exp.Paren, exp.Star, exp.Null,
    exp.Boolean, exp.Tuple, exp.Schema, exp.CTE, exp.Ordered, exp.Var, exp.DataTypeParam, exp.Dot,
    exp.PropertyEQ, exp.Kwarg, exp.Slice,
)

_OPERATORS: dict[type[exp.Expression], str] = {
    exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%", exp.DPipe: "||", exp.Neg: "-",
    exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=",
    exp.And: "and", exp.Or: "or", exp.Not: "not", exp.Is: "is", exp.In: "in", exp.Between: "between",
    exp.Like: "like", exp.NullSafeEQ: "is not distinct from", exp.NullSafeNEQ: "is distinct from",
    exp.Bracket: "array subscript", exp.Array: "array literal",
    exp.BitwiseLeftShift: "<<", exp.BitwiseAnd: "&", exp.BitwiseOr: "|", exp.BitwiseXor: "^",
}

_CLAUSES: dict[type[exp.Expression], str] = {
    exp.Select: "select", exp.With: "with", exp.From: "from", exp.Where: "where", exp.Group: "group by",
    exp.Having: "having", exp.Order: "order by", exp.Subquery: "subquery", exp.Distinct: "distinct",
    exp.Window: "over", exp.WithinGroup: "within group", exp.Filter: "filter", exp.IgnoreNulls: "ignore nulls",
    exp.RespectNulls: "respect nulls", exp.Exists: "exists", exp.Collate: "collate", exp.Lambda: "lambda",
    exp.Qualify: "qualify", exp.Limit: "limit", exp.Distribute: "distribute by", exp.Case: "case", exp.Cast: "cast", exp.TryCast: "try_cast",
}

_TABLES: dict[type[exp.Expression], str] = {
    exp.Values: "values", exp.Unnest: "unnest", exp.Lateral: "lateral", exp.TableFromRows: "table",
}

# Nodes sqlglot makes for a call written by name but does not mark with the
# name's position (it parses them by a rule of their own): the name is theirs.
_NAMED_WITHOUT_POSITION: dict[type[exp.Expression], str] = {
    exp.Floor: "floor", exp.Ceil: "ceil", exp.Quantile: "percentile", exp.Transform: "transform",
}


def _written_name(node: exp.Expression, sql: str) -> str | None:
    """The name a call was written with in `sql` (sqlglot marks the name token of
    a call it parsed by name), or None for a node that is no such call."""
    start, end = node.meta.get("start"), node.meta.get("end")
    if start is None or end is None:
        return None
    name = sql[start:end + 1]
    return name.lower() if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else None


def _in_table_position(node: exp.Expression) -> bool:
    return isinstance(node.parent, (exp.From, exp.Join, exp.Table, exp.Lateral, exp.TableFromRows))


def construct(node: exp.Expression, sql: str, dialect: str) -> tuple[str, str] | None:
    """(kind, name) of one node of the tree, as the catalogue lists it; None for
    a part of another construct. A node of no known kind is ('node', its class),
    which no catalogue lists: a construct the walk does not know fails."""
    if isinstance(node, _PARTS):
        return None
    if isinstance(node, exp.If) and isinstance(node.parent, exp.Case):
        return None  # a WHEN branch
    if isinstance(node, exp.Hint):
        return None  # counted at each hint it holds
    if isinstance(node.parent, exp.Hint):
        # a hint (/*+ COALESCE(1) */) by its name, which the references list apart from the function of that name
        return ("clause", (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower() + " hint")
    if isinstance(node, exp.Table):
        # a table by name, or a table function (counted at the function)
        return None if isinstance(node.this, (exp.Identifier, exp.Func)) else ("node", "Table of " + type(node.this).__name__)
    if isinstance(node, exp.DataType):
        return None if isinstance(node.parent, exp.DataType) else ("type", node.sql(dialect).lower())
    if isinstance(node, exp.WindowSpec):
        return ("clause", f"window frame {(node.args.get('kind') or '').lower()}")
    if isinstance(node, exp.Join):
        side, kind = (node.args.get("side") or "").lower(), (node.args.get("kind") or "").lower()
        return ("clause", " ".join(part for part in (side, kind, "join") if part))
    if isinstance(node, exp.Union):
        return ("clause", "union" if node.args.get("distinct") else "union all")
    if isinstance(node, exp.Unnest) and node.args.get("offset"):
        return ("table", "unnest")  # WITH OFFSET is counted as its own clause below
    for classes, kind in ((_TABLES, "table"),):
        if type(node) in classes:
            return (kind, classes[type(node)])
    name = _written_name(node, sql)
    if name is not None and (isinstance(node, (exp.Func, exp.Binary)) or type(node) in _OPERATORS):
        return ("table" if _in_table_position(node) else "function", name)
    if type(node) in _CLAUSES:
        return ("clause" if type(node) not in (exp.Case, exp.Cast, exp.TryCast) else "function", _CLAUSES[type(node)])
    if type(node) in _OPERATORS:
        return ("operator", _OPERATORS[type(node)])
    if type(node) in _NAMED_WITHOUT_POSITION:
        return ("function", _NAMED_WITHOUT_POSITION[type(node)])
    return ("node", type(node).__name__)


class Parsed(NamedTuple):
    """A query as the walk reads it: its tokens (the casts' types as written)
    and its tree, the one made from the other."""

    tokens: list[Token]
    tree: exp.Expression


def parse(sql: str, dialect: str) -> Parsed:
    """`sql` tokenized once and parsed from those tokens, as sqlglot.parse_one
    does (several statements make a Block)."""
    engine = Dialect.get_or_raise(dialect)
    tokens = engine.tokenize(sql)
    statements = engine.parser(error_level=sqlglot.ErrorLevel.RAISE).parse(tokens, sql)
    if not statements or statements[0] is None:
        raise sqlglot.ParseError(f"No expression was parsed from '{sql}'")
    return Parsed(tokens, exp.Block(expressions=statements) if len(statements) > 1 else statements[0])


def written_cast_types(tokens: list[Token]) -> list[str]:
    """The type of every CAST(... AS type) as written in the SQL: sqlglot writes a
    type back under its own name for the dialect (Redshift's TEXT as
    VARCHAR(MAX), where Redshift makes it VARCHAR(256)), so the tree alone
    would hide what the engine reads."""
    types = []
    for position, token in enumerate(tokens[:-1]):
        if token.text.upper() != "CAST" or tokens[position + 1].token_type != TokenType.L_PAREN:
            continue
        depth, after_as, words = 0, False, []
        for inner in tokens[position + 1:]:
            depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(inner.token_type, 0)
            if depth == 0:
                break
            if after_as:
                words.append(inner.text)
            elif depth == 1 and inner.token_type == TokenType.ALIAS:
                after_as = True
        types.append(re.sub(r"\s*([()<>,\[\]])\s*", r"\1", " ".join(words).lower()))
    return types


def construct_names(sql: str, dialect: str, parsed: Parsed | None = None) -> dict[tuple[str, str], int]:
    """Every construct of one query (parsed in `dialect`, unless `parsed` is
    its parse), node by node, with the number of times it occurs; the types of
    its casts both as sqlglot reads them and as written."""
    tokens, tree = parsed or parse(sql, dialect)
    found: dict[tuple[str, str], int] = {}
    for name in written_cast_types(tokens):
        found[("type", name)] = found.get(("type", name), 0) + 1
    for node in tree.walk():
        key = construct(node, sql, dialect)
        if key is not None:
            found[key] = found.get(key, 0) + 1
        if isinstance(node, exp.Unnest) and node.args.get("offset"):
            found[("clause", "with offset")] = found.get(("clause", "with offset"), 0) + 1
    return found


def undocumented(constructs: Iterable[tuple[str, str]], adapter_type: str) -> set[tuple[str, str]]:
    """The constructs that the warehouse's reference does not document (nor
    lists as a known gap)."""
    allowed = set(CATALOGUES[adapter_type]) | set(KNOWN_GAPS.get(adapter_type, {}))
    return set(constructs) - allowed


def outside_catalogue(sql: str, adapter_type: str) -> set[tuple[str, str]]:
    """The constructs of `sql` that the warehouse's reference does not document
    (nor lists as a known gap)."""
    return undocumented(construct_names(sql, WAREHOUSES[adapter_type]), adapter_type)


def test_every_catalogue_entry_cites_the_vendors_reference() -> None:
    hosts = {
        "bigquery": "https://cloud.google.com/bigquery/docs/reference/standard-sql/",
        "snowflake": "https://docs.snowflake.com/en/sql-reference/",
        "redshift": "https://docs.aws.amazon.com/redshift/latest/dg/",
        "trino": "https://trino.io/docs/current/",
        "databricks": "https://docs.databricks.com/en/sql/language-manual/",
    }
    for engine, catalogue in CATALOGUES.items():
        assert catalogue, engine
        for (kind, name), url in {**catalogue, **KNOWN_GAPS.get(engine, {})}.items():
            assert kind in ("function", "table", "type", "clause", "operator"), (engine, kind, name)
            assert name == name.lower().strip(), (engine, name)
            assert url.startswith(hosts[engine]), (engine, name, url)


# The default macros, as dbt would render them where no override exists: what
# the engines' references do not document.

def _default_sql(macro: str, *args: object) -> str:
    return renderer("default").call(macro, *args)


DEFAULT_LITERAL_ROWS = "select rw_k from (" + _default_sql("_literal_rows", ["rw_k", "rw_is_default"],
                                                            [[10, 0], [5, 1]]) + ") as rw_cutoffs"
DEFAULT_POSITIONS = "select rw_position from " + _default_sql("_positions", 10) + " as rw_slots"


@pytest.mark.parametrize("adapter_type", ["bigquery", "redshift"])
def test_the_walk_refuses_a_values_list_in_from(adapter_type: str) -> None:
    assert ("table", "values") in outside_catalogue(DEFAULT_LITERAL_ROWS, adapter_type)


@pytest.mark.parametrize("adapter_type", ["snowflake", "trino", "databricks"])
def test_the_walk_takes_a_values_list_in_from_where_it_is_documented(adapter_type: str) -> None:
    sql = DEFAULT_LITERAL_ROWS if adapter_type != "databricks" else (
        "select rw_k from (" + renderer("spark").call("_literal_rows", ["rw_k"], [[10], [5]]) + ") as rw_cutoffs")
    assert outside_catalogue(sql, adapter_type) == set()


@pytest.mark.parametrize("adapter_type", ["bigquery", "redshift", "snowflake", "trino"])
def test_the_walk_refuses_generate_series(adapter_type: str) -> None:
    assert ("table", "generate_series") in outside_catalogue(DEFAULT_POSITIONS, adapter_type)


@pytest.mark.parametrize("adapter_type", list(CATALOGUES))
def test_the_walk_refuses_what_no_reference_documents(adapter_type: str) -> None:
    """A function of another engine, a construct the walk has no name for, a type
    none of these has."""
    dialect = WAREHOUSES[adapter_type]
    assert ("function", "list_dot_product") in outside_catalogue("select list_dot_product(a, b) as v from t", adapter_type)
    assert ("function", "isfinite") in outside_catalogue("select isfinite(a) as v from t", adapter_type)
    pivot = {key for key in outside_catalogue("select * from t pivot (sum(a) for b in (1, 2))", adapter_type)}
    assert pivot, f"a PIVOT passed the walk in {dialect}"


def test_the_walk_names_the_constructs_it_meets() -> None:
    sql = ("with a as (select x, row_number() over (partition by g order by x rows between unbounded preceding"
           " and current row) as r from t) select coalesce(sum(x), 0) % 3 as v from a left join b on a.x = b.x"
           " where a.x is not null group by a.g having count(*) > 1 union all select cast(1 as bigint) from c")
    found = construct_names(sql, "trino")
    expected = {("clause", name) for name in ("with", "select", "from", "where", "group by", "having", "over",
                                              "window frame rows", "left join", "union all")}
    expected |= {("function", name) for name in ("row_number", "coalesce", "sum", "count", "cast")}
    expected |= {("operator", name) for name in ("%", "=", "is", "not", ">")} | {("type", "bigint")}
    assert expected <= set(found), sorted(expected - set(found))


def test_the_walk_names_a_hint_apart_from_the_function_of_its_name() -> None:
    """Databricks documents the COALESCE hint on its page of hints; the
    function coalesce() says nothing of it, and the hint is no function."""
    found = construct_names("select /*+ COALESCE(1) */ * from t order by a", "databricks")
    assert ("clause", "coalesce hint") in found and ("function", "coalesce") not in found
    assert not outside_catalogue("select /*+ COALESCE(1) */ * from t order by a", "databricks")
    assert ("clause", "repartition hint") in outside_catalogue("select /*+ REPARTITION(4) */ * from t", "databricks")


def test_the_walk_reads_cast_types_as_written() -> None:
    """Redshift turns TEXT into VARCHAR(256); sqlglot writes it back as
    VARCHAR(MAX), the walk sees the TEXT."""
    found = construct_names("select cast(a as text) as v, cast(b as varchar(65535)) as w from t", "redshift")
    assert {("type", "text"), ("type", "varchar(65535)")} <= set(found)
    assert ("type", "text") in outside_catalogue("select cast(a as text) as v from t", "redshift")


@pytest.mark.parametrize(("dialect", "positions"), [("bigquery", "generate_array(1, 5)"), ("trino", "sequence(1, 5)"),
                                                    ("snowflake", "generator(rowcount => 5)"), ("redshift", "rw_digit")])
def test_rankwise_sql_writes_each_warehouses_own_sql(dialect: str, positions: str) -> None:
    """rankwise.sql renders with the adapter's overrides, as dbt compiles there,
    rather than transpiling another engine's SQL."""
    import rankwise

    sql = rankwise.sql("recs", "truth", ["ndcg@5"], dialect=dialect, idcg="k_positions", gain="binary")
    assert positions in sql and "generate_series" not in sql
    assert outside_catalogue(sql, dialect) == set()
