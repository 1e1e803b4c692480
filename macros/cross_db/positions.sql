{#- The positions 1..n as a subquery with one column, rw_position: a sum over
    positions without one SQL term per position. -#}
{% macro _positions(n) %}
    {{- return(adapter.dispatch('_positions', 'rankwise')(n)) -}}
{% endmacro %}

{#- PostgreSQL and DuckDB: https://www.postgresql.org/docs/current/functions-srf.html -#}
{% macro default___positions(n) -%}
    (select rw_position from generate_series(1, {{ n }}) as rw_series(rw_position))
{%- endmacro %}

{#- Spark's range table-valued function, end exclusive:
    https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-tvf.html -#}
{% macro spark___positions(n) -%}
    (select id as rw_position from range(1, {{ n }} + 1))
{%- endmacro %}

{#- ClickHouse's numbers(offset, count), UInt64 cast to BIGINT as the others
    give it (generate_series' alias list would not name its column):
    https://clickhouse.com/docs/sql-reference/table-functions/numbers -#}
{% macro clickhouse___positions(n) -%}
    (select cast(number as bigint) as rw_position from numbers(1, {{ n }}))
{%- endmacro %}
