{#- The `fraction` quantile of `expression` over a group, interpolated linearly
    between the two nearest values (numpy's default, type 7 of Hyndman and Fan). -#}
{% macro _percentile(expression, fraction) %}
    {{- return(adapter.dispatch('_percentile', 'rankwise')(expression, rankwise._double_literal(fraction))) -}}
{% endmacro %}

{#- SQL's ordered-set aggregate: DuckDB and PostgreSQL.
    https://www.postgresql.org/docs/current/functions-aggregate.html#FUNCTIONS-ORDEREDSET-TABLE -#}
{% macro default___percentile(expression, fraction) -%}
    percentile_cont({{ fraction }}) within group (order by {{ expression }})
{%- endmacro %}

{#- https://spark.apache.org/docs/latest/api/sql/#percentile -#}
{% macro spark___percentile(expression, fraction) -%}
    percentile({{ expression }}, {{ fraction }})
{%- endmacro %}

{#- ClickHouse has no ordered-set aggregates; quantileExactInclusive interpolates
    as type 7 does (a NULL value is skipped, no value gives NULL as for the others
    when the values are Nullable):
    https://clickhouse.com/docs/sql-reference/aggregate-functions/reference/quantileexactinclusive -#}
{% macro clickhouse___percentile(expression, fraction) -%}
    quantileExactInclusive({{ fraction }})({{ expression }})
{%- endmacro %}
