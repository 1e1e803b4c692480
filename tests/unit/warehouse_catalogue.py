"""What each warehouse's own SQL reference documents, for the SQL rankwise sends it.

For Snowflake, BigQuery, Redshift, Trino and Databricks, the functions, types,
clauses, operators and table constructors (what may stand in FROM) of the
engine's documentation that rankwise's SQL uses, each with the page that
documents it. tests/slow/test_warehouse_catalogue.py walks the syntax tree of
every query dbt would compile there and fails on anything not listed here:
sqlglot parses far more than an engine accepts (a VALUES list in FROM in
BigQuery's dialect, generate_series in Trino's), so parsing alone checks little.

An entry is what the engine's reference says, not what sqlglot accepts: add one
only with the page that documents it, and only if it is documented for the use
the SQL makes of it (generate_series is documented on Redshift, but as a
leader-node function that fails on a user's table, so it is not listed).
Names are lower case, as tests/unit/test_warehouse_catalogue.py's walk writes
them (`construct_names`).

Kinds:
- function: a call by name (aggregate, window and scalar functions, CAST);
- table: what stands in FROM or JOIN instead of a table (VALUES, UNNEST, a
  table function);
- type: a type named in a CAST, as written and as sqlglot writes it back in
  the dialect (both must be documented);
- clause: a clause or keyword construct (JOIN kinds, window frames, WITHIN
  GROUP, FILTER, COLLATE, lambdas);
- operator: an operator (arithmetic, comparison, logical, subscript).
"""

from __future__ import annotations

Kind = str
Catalogue = dict[tuple[Kind, str], str]


def _pages(*pages: tuple[str, Kind, str]) -> Catalogue:
    """(url, kind, names separated by ';') per page -> {(kind, name): url}."""
    catalogue: Catalogue = {}
    for url, kind, names in pages:
        for name in names.split(";"):
            name = name.strip()
            assert name and (kind, name) not in catalogue, f"{kind} {name!r} listed twice"
            catalogue[(kind, name)] = url
    return catalogue


# GoogleSQL for BigQuery.
_BQ = "https://cloud.google.com/bigquery/docs/reference/standard-sql/"
BIGQUERY = _pages(
    (_BQ + "query-syntax", "clause",
     "select; with; from; where; group by; having; order by; subquery; distinct; inner join; left join; cross join;"
     " full join; join; union all; union distinct"),
    (_BQ + "query-syntax#unnest_operator", "table", "unnest"),
    (_BQ + "query-syntax#unnest_operator", "clause", "with offset"),
    (_BQ + "subqueries", "clause", "exists"),
    (_BQ + "operators", "operator",
     "+; -; *; /; ||; =; <>; <; <=; >; >=; and; or; not; is; in; between; like; is not distinct from;"
     " is distinct from; array subscript"),
    (_BQ + "conditional_expressions", "function", "case; coalesce; nullif; if; ifnull"),
    (_BQ + "mathematical_functions", "function",
     "abs; exp; ln; log; power; pow; sqrt; greatest; least; floor; ceil; mod; sign; round; ieee_divide"),
    (_BQ + "aggregate_functions", "function", "avg; count; max; min; sum; array_agg; any_value; count_if"),
    (_BQ + "aggregate_functions#array_agg", "clause", "ignore nulls"),
    (_BQ + "statistical_aggregate_functions", "function", "var_pop; stddev_pop; var_samp; stddev_samp"),
    (_BQ + "numbering_functions", "function", "row_number; rank; dense_rank"),
    (_BQ + "window-function-calls", "clause", "over; window frame rows; window frame range"),
    (_BQ + "conversion_functions", "function", "cast; safe_cast"),
    (_BQ + "array_functions", "function", "generate_array; array_length"),
    (_BQ + "data-types#constructing_an_array", "operator", "array literal"),
    (_BQ + "data-types#constructing_a_struct", "function", "struct"),
    (_BQ + "data-types", "type", "float64; int64; string; bool; array<float64>; array<int64>"),
    (_BQ + "data-types#integer_types", "type", "bigint; integer; int"),
)

# Snowflake.
_SF = "https://docs.snowflake.com/en/sql-reference/"
SNOWFLAKE = _pages(
    (_SF + "sql/select", "clause", "select; distinct"),
    (_SF + "constructs/with", "clause", "with"),
    (_SF + "constructs/from", "clause", "from; subquery"),
    (_SF + "constructs/where", "clause", "where"),
    (_SF + "constructs/group-by", "clause", "group by"),
    (_SF + "constructs/having", "clause", "having"),
    (_SF + "constructs/order-by", "clause", "order by"),
    (_SF + "constructs/join", "clause", "inner join; left join; cross join; full join; join"),
    (_SF + "operators-query", "clause", "union all; union"),
    (_SF + "operators-subquery", "clause", "exists"),
    (_SF + "constructs/values", "table", "values"),
    (_SF + "functions-table", "table", "table"),
    (_SF + "functions/generator", "table", "generator"),
    (_SF + "functions/seq1", "function", "seq4; seq8"),
    (_SF + "operators-arithmetic", "operator", "+; -; *; /; %"),
    (_SF + "operators-comparison", "operator", "=; <>; <; <=; >; >="),
    (_SF + "operators-logical", "operator", "and; or; not"),
    (_SF + "functions/is-distinct-from", "operator", "is not distinct from; is distinct from"),
    (_SF + "functions/is-null", "operator", "is"),
    (_SF + "functions/in", "operator", "in"),
    (_SF + "functions/between", "operator", "between"),
    (_SF + "functions/concat", "operator", "||"),
    (_SF + "data-types-semistructured#accessing-elements-of-an-array-by-index-or-by-slice", "operator",
     "array subscript"),
    (_SF + "functions/case", "function", "case"),
    (_SF + "functions/coalesce", "function", "coalesce"),
    (_SF + "functions/nullif", "function", "nullif"),
    (_SF + "functions/iff", "function", "iff"),
    (_SF + "functions/abs", "function", "abs"),
    (_SF + "functions/exp", "function", "exp"),
    (_SF + "functions/ln", "function", "ln"),
    (_SF + "functions/log", "function", "log"),
    (_SF + "functions/pow", "function", "power; pow"),
    (_SF + "functions/sqrt", "function", "sqrt"),
    (_SF + "functions/greatest", "function", "greatest"),
    (_SF + "functions/least", "function", "least"),
    (_SF + "functions/floor", "function", "floor"),
    (_SF + "functions/ceil", "function", "ceil"),
    (_SF + "functions/mod", "function", "mod"),
    (_SF + "functions/avg", "function", "avg"),
    (_SF + "functions/count", "function", "count"),
    (_SF + "functions/max", "function", "max"),
    (_SF + "functions/min", "function", "min"),
    (_SF + "functions/sum", "function", "sum"),
    (_SF + "functions/var_pop", "function", "var_pop"),
    (_SF + "functions/row_number", "function", "row_number"),
    (_SF + "functions/rank", "function", "rank"),
    (_SF + "functions/dense_rank", "function", "dense_rank"),
    (_SF + "functions/percentile_cont", "function", "percentile_cont"),
    (_SF + "functions/percentile_cont", "clause", "within group"),
    (_SF + "functions/cast", "function", "cast"),
    (_SF + "functions/array_size", "function", "array_size"),
    (_SF + "functions/array_generate_range", "function", "array_generate_range"),
    (_SF + "functions/transform", "function", "transform"),
    (_SF + "functions/reduce", "function", "reduce"),
    (_SF + "functions/reduce", "clause", "lambda"),
    (_SF + "functions-window-syntax", "clause", "over; window frame rows; window frame range"),
    (_SF + "data-types-numeric", "type", "double; bigint; int; integer; float"),
    (_SF + "data-types-text", "type", "varchar; string; text"),
)

# Amazon Redshift.
_RS = "https://docs.aws.amazon.com/redshift/latest/dg/"
REDSHIFT = _pages(
    (_RS + "r_SELECT_synopsis.html", "clause", "select; distinct"),
    (_RS + "r_WITH_clause.html", "clause", "with"),
    (_RS + "r_FROM_clause30.html", "clause", "from; subquery; inner join; left join; cross join; full join; join"),
    (_RS + "r_WHERE_clause.html", "clause", "where"),
    (_RS + "r_GROUP_BY_clause.html", "clause", "group by"),
    (_RS + "r_HAVING_clause.html", "clause", "having"),
    (_RS + "r_ORDER_BY_clause.html", "clause", "order by"),
    (_RS + "r_UNION.html", "clause", "union all; union"),
    (_RS + "r_exists_condition.html", "clause", "exists"),
    (_RS + "r_OPERATOR_SYMBOLS.html", "operator", "+; -; *; /; %"),
    (_RS + "r_concat_op.html", "operator", "||"),
    (_RS + "r_comparison_condition.html", "operator", "=; <>; <; <=; >; >="),
    (_RS + "r_logical_condition.html", "operator", "and; or; not"),
    (_RS + "r_null_condition.html", "operator", "is"),
    (_RS + "r_in_condition.html", "operator", "in"),
    (_RS + "r_range_condition.html", "operator", "between"),
    (_RS + "r_CASE_function.html", "function", "case"),
    (_RS + "r_NVL_function.html", "function", "coalesce"),
    (_RS + "r_NULLIF_function.html", "function", "nullif"),
    (_RS + "r_ABS.html", "function", "abs"),
    (_RS + "r_EXP.html", "function", "exp"),
    (_RS + "r_LN.html", "function", "ln"),
    (_RS + "r_POWER.html", "function", "power; pow"),
    (_RS + "r_SQRT.html", "function", "sqrt"),
    (_RS + "r_GREATEST_LEAST.html", "function", "greatest; least"),
    (_RS + "r_FLOOR.html", "function", "floor"),
    (_RS + "r_CEILING_FLOOR.html", "function", "ceil; ceiling"),
    (_RS + "r_MOD.html", "function", "mod"),
    (_RS + "r_AVG.html", "function", "avg"),
    (_RS + "r_COUNT.html", "function", "count"),
    (_RS + "r_MAX.html", "function", "max"),
    (_RS + "r_MIN.html", "function", "min"),
    (_RS + "r_SUM.html", "function", "sum"),
    (_RS + "r_VARIANCE_functions.html", "function", "var_pop"),
    (_RS + "r_WF_ROW_NUMBER.html", "function", "row_number"),
    (_RS + "r_WF_RANK.html", "function", "rank"),
    (_RS + "r_WF_DENSE_RANK.html", "function", "dense_rank"),
    (_RS + "r_PERCENTILE_CONT.html", "function", "percentile_cont"),
    (_RS + "r_PERCENTILE_CONT.html", "clause", "within group"),
    (_RS + "r_CAST_function.html", "function", "cast"),
    # ROWS frames only: the synopsis has no RANGE frame.
    (_RS + "r_Window_function_synopsis.html", "clause", "over; window frame rows"),
    (_RS + "c_Supported_data_types.html", "type",
     "double precision; float8; bigint; int8; integer; int; varchar; varchar(65535)"),
)

# Trino.
_TR = "https://trino.io/docs/current/"
TRINO = _pages(
    (_TR + "sql/select.html", "clause",
     "select; with; from; where; group by; having; order by; subquery; distinct; inner join; left join; cross join;"
     " full join; join; union all; union; exists"),
    (_TR + "sql/select.html#unnest", "table", "unnest"),
    (_TR + "sql/values.html", "table", "values"),
    (_TR + "functions/math.html", "operator", "+; -; *; /; %"),
    (_TR + "functions/math.html", "function", "abs; exp; ln; log; power; pow; sqrt; floor; ceil; ceiling; mod"),
    (_TR + "functions/comparison.html", "operator",
     "=; <>; <; <=; >; >=; is; in; between; is not distinct from; is distinct from"),
    (_TR + "functions/comparison.html", "function", "greatest; least"),
    (_TR + "functions/logical.html", "operator", "and; or; not"),
    (_TR + "functions/string.html", "operator", "||"),
    (_TR + "functions/conditional.html", "function", "case; coalesce; nullif; if"),
    (_TR + "functions/aggregate.html", "function", "avg; count; max; min; sum; var_pop; array_agg"),
    (_TR + "functions/aggregate.html#filtering-during-aggregation", "clause", "filter"),
    (_TR + "functions/window.html", "function", "row_number; rank; dense_rank"),
    (_TR + "functions/window.html", "clause", "over; window frame rows; window frame range"),
    (_TR + "functions/conversion.html", "function", "cast"),
    (_TR + "functions/array.html", "function",
     "sequence; cardinality; zip_with; reduce; element_at; array_sort; contains"),
    (_TR + "functions/array.html#subscript-operator", "operator", "array subscript"),
    (_TR + "functions/lambda.html", "clause", "lambda"),
    (_TR + "language/types.html", "type", "double; bigint; integer; varchar; array(double); array(bigint)"),
)

# Databricks SQL (the spark__ overrides, through databricks -> spark).
_DB = "https://docs.databricks.com/en/sql/language-manual/"
DATABRICKS = _pages(
    (_DB + "sql-ref-syntax-qry-select.html", "clause", "select; distinct; from; subquery"),
    (_DB + "sql-ref-syntax-qry-select-cte.html", "clause", "with"),
    (_DB + "sql-ref-syntax-qry-select-where.html", "clause", "where"),
    (_DB + "sql-ref-syntax-qry-select-groupby.html", "clause", "group by"),
    (_DB + "sql-ref-syntax-qry-select-having.html", "clause", "having"),
    (_DB + "sql-ref-syntax-qry-select-orderby.html", "clause", "order by"),
    (_DB + "sql-ref-syntax-qry-select-hints.html", "clause", "coalesce hint"),
    (_DB + "sql-ref-syntax-qry-select-distributeby.html", "clause", "distribute by"),
    (_DB + "sql-ref-syntax-qry-select-join.html", "clause", "inner join; left join; cross join; full join; join"),
    (_DB + "sql-ref-syntax-qry-select-setops.html", "clause", "union all; union"),
    (_DB + "functions/exists.html", "clause", "exists"),
    (_DB + "sql-ref-syntax-qry-select-inline-table.html", "table", "values"),
    # deprecated, still documented: _each_cutoff says why rankwise keeps it
    (_DB + "sql-ref-syntax-qry-select-lateral-view.html", "table", "lateral"),
    (_DB + "functions/inline.html", "table", "inline"),
    (_DB + "functions/range.html", "table", "range"),
    (_DB + "sql-ref-functions-builtin.html#arithmetic-operators", "operator", "+; -; *; /; %"),
    (_DB + "functions/pipepipesign.html", "operator", "||"),
    (_DB + "sql-ref-functions-builtin.html#comparison-operators", "operator",
     "=; <>; <; <=; >; >=; is; in; between; is not distinct from; is distinct from; <=>"),
    (_DB + "sql-ref-functions-builtin.html#boolean-operators", "operator", "and; or; not"),
    (_DB + "functions/bracketsign.html", "operator", "array subscript"),
    (_DB + "functions/case.html", "function", "case"),
    (_DB + "functions/coalesce.html", "function", "coalesce"),
    (_DB + "functions/nullif.html", "function", "nullif"),
    (_DB + "functions/if.html", "function", "if"),
    (_DB + "functions/abs.html", "function", "abs"),
    (_DB + "functions/bit_or.html", "function", "bit_or"),
    (_DB + "functions/bit_count.html", "function", "bit_count"),
    (_DB + "functions/shiftleft.html", "function", "shiftleft"),
    (_DB + "functions/exp.html", "function", "exp"),
    (_DB + "functions/ln.html", "function", "ln"),
    (_DB + "functions/log.html", "function", "log"),
    (_DB + "functions/power.html", "function", "power; pow"),
    (_DB + "functions/sqrt.html", "function", "sqrt"),
    (_DB + "functions/greatest.html", "function", "greatest"),
    (_DB + "functions/least.html", "function", "least"),
    (_DB + "functions/floor.html", "function", "floor"),
    (_DB + "functions/mod.html", "function", "mod"),
    (_DB + "functions/avg.html", "function", "avg"),
    (_DB + "functions/count.html", "function", "count"),
    (_DB + "functions/collect_set.html", "function", "collect_set"),
    (_DB + "functions/max.html", "function", "max"),
    (_DB + "functions/min.html", "function", "min"),
    (_DB + "functions/sum.html", "function", "sum"),
    (_DB + "functions/var_pop.html", "function", "var_pop"),
    (_DB + "functions/row_number.html", "function", "row_number"),
    (_DB + "functions/rank.html", "function", "rank"),
    (_DB + "functions/dense_rank.html", "function", "dense_rank"),
    (_DB + "functions/percentile.html", "function", "percentile"),
    (_DB + "functions/cast.html", "function", "cast"),
    (_DB + "functions/size.html", "function", "size"),
    (_DB + "functions/zip_with.html", "function", "zip_with"),
    (_DB + "functions/transform.html", "function", "transform"),
    (_DB + "functions/array.html", "function", "array"),
    (_DB + "functions/aggregate.html", "function", "aggregate"),
    (_DB + "functions/collect_list.html", "function", "collect_list"),
    (_DB + "functions/collect_list.html", "clause", "filter"),
    (_DB + "functions/struct.html", "function", "struct"),
    (_DB + "functions/named_struct.html", "function", "named_struct"),
    (_DB + "functions/filter.html", "function", "filter"),
    (_DB + "functions/array_contains.html", "function", "array_contains"),
    (_DB + "functions/array_position.html", "function", "array_position"),
    (_DB + "functions/element_at.html", "function", "element_at"),
    (_DB + "functions/sort_array.html", "function", "sort_array"),
    (_DB + "functions/array_distinct.html", "function", "array_distinct"),
    (_DB + "functions/array_min.html", "function", "array_min"),
    (_DB + "sql-ref-lambda-functions.html", "clause", "lambda"),
    (_DB + "sql-ref-syntax-qry-select-window.html", "clause", "over; window frame rows; window frame range"),
    (_DB + "sql-ref-datatypes.html", "type", "double; bigint; int; integer; string; array<double>"),
)

CATALOGUES: dict[str, Catalogue] = {
    "bigquery": BIGQUERY,
    "snowflake": SNOWFLAKE,
    "redshift": REDSHIFT,
    "trino": TRINO,
    "databricks": DATABRICKS,
}

# What the reference documents against a construct the SQL uses, and that no
# override here removes yet: each with the page that says so. The walk fails on
# any construct outside the catalogue that is not listed here, and on a listed
# one it no longer finds (so that the list stays true).
KNOWN_GAPS: dict[str, dict[tuple[Kind, str], str]] = {
    # Item vectors (item_vector_col) on Redshift take postgres__vector_dot_product
    # and postgres__vector_length (unnest of two arrays, cardinality), through
    # redshift -> postgres: Redshift supports no PostgreSQL array function, and
    # its SUPER arrays have no element-wise product to write instead.
    "redshift": {
        ("table", "unnest"): _RS + "c_unsupported-postgresql-functions.html",
        ("function", "cardinality"): _RS + "c_unsupported-postgresql-functions.html",
    },
}

# Rules of a reference beyond its list of names, that the SQL still breaks:
# engine -> rule -> (page, what breaks it). tests/slow/test_warehouse_catalogue.py
# finds the queries that break each and holds them to this description.
KNOWN_RULE_GAPS: dict[str, dict[str, tuple[str, str]]] = {
    "redshift": {
        "the sort-based aggregates of one SELECT (PERCENTILE_CONT, MEDIAN, LISTAGG) share one ORDER BY": (
            _RS + "r_PERCENTILE_CONT.html",
            "the bootstrap intervals: one PERCENTILE_CONT pair per metric, each ordered by its own column",
        ),
    },
}
