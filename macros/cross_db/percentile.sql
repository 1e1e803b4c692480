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

{#- BigQuery's PERCENTILE_CONT is an analytic function only (OVER, no WITHIN
    GROUP: https://cloud.google.com/bigquery/docs/reference/standard-sql/navigation_functions#percentile_cont),
    so the same interpolation is written out over the sorted values
    (ARRAY_AGG ... ORDER BY, read at 0-based offsets floor(h) and ceil(h),
    h = (n - 1) * fraction): https://cloud.google.com/bigquery/docs/reference/standard-sql/aggregate_functions#array_agg -#}
{% macro bigquery___percentile(expression, fraction) -%}
    {%- set sorted = 'array_agg(' ~ expression ~ ' ignore nulls order by ' ~ expression ~ ')' -%}
    {%- set h = '((count(' ~ expression ~ ') - 1) * ' ~ fraction ~ ')' -%}
    {%- set low = sorted ~ '[safe_offset(cast(floor(' ~ h ~ ') as int64))]' -%}
    {%- set high = sorted ~ '[safe_offset(cast(ceil(' ~ h ~ ') as int64))]' -%}
    ({{ low }} + ({{ h }} - floor({{ h }})) * ({{ high }} - {{ low }}))
{%- endmacro %}

{#- Trino has no exact percentile aggregate (approx_percentile only), so the same
    interpolation over the sorted values, read at 1-based indexes:
    https://trino.io/docs/current/functions/aggregate.html#array_agg,
    https://trino.io/docs/current/functions/array.html#element_at -#}
{% macro trino___percentile(expression, fraction) -%}
    {%- set sorted = 'array_sort(array_agg(' ~ expression ~ ') filter (where ' ~ expression ~ ' is not null))' -%}
    {%- set h = '((count(' ~ expression ~ ') - 1) * ' ~ fraction ~ ')' -%}
    {%- set low = 'element_at(' ~ sorted ~ ', cast(floor(' ~ h ~ ') as bigint) + 1)' -%}
    {%- set high = 'element_at(' ~ sorted ~ ', cast(ceil(' ~ h ~ ') as bigint) + 1)' -%}
    (case when count({{ expression }}) > 0 then {{ low }} + ({{ h }} - floor({{ h }})) * ({{ high }} - {{ low }}) end)
{%- endmacro %}

{#- ClickHouse has no ordered-set aggregates; quantileExactInclusive interpolates
    as type 7 does (a NULL value is skipped, no value gives NULL as for the others
    when the values are Nullable):
    https://clickhouse.com/docs/sql-reference/aggregate-functions/reference/quantileexactinclusive -#}
{% macro clickhouse___percentile(expression, fraction) -%}
    quantileExactInclusive({{ fraction }})({{ expression }})
{%- endmacro %}
