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

{#- GoogleSQL has no generate_series: an array of the positions, unnested:
    https://cloud.google.com/bigquery/docs/reference/standard-sql/array_functions#generate_array -#}
{% macro bigquery___positions(n) -%}
    (select rw_position from unnest(generate_array(1, {{ n }})) as rw_position)
{%- endmacro %}

{#- Trino's sequence() is an array, unnested in FROM:
    https://trino.io/docs/current/functions/array.html#sequence -#}
{% macro trino___positions(n) -%}
    (select rw_position from unnest(sequence(1, {{ n }})) as rw_series(rw_position))
{%- endmacro %}

{#- Snowflake's GENERATOR makes n rows; SEQ4 may leave gaps, so the positions
    are numbered by ROW_NUMBER, as its reference advises:
    https://docs.snowflake.com/en/sql-reference/functions/generator,
    https://docs.snowflake.com/en/sql-reference/functions/seq1 -#}
{% macro snowflake___positions(n) -%}
    (select row_number() over (order by seq4()) as rw_position from table(generator(rowcount => {{ n }})))
{%- endmacro %}

{#- Redshift runs generate_series on its leader node only, which fails beside a
    user's table (https://docs.aws.amazon.com/redshift/latest/dg/c_unsupported-postgresql-functions.html):
    the positions are the numbers of d decimal digits, each digit a UNION ALL of
    ten one-row SELECTs, cross joined and kept up to n. -#}
{% macro redshift___positions(n) -%}
    {%- set n = n | int -%}
    {%- set digits = rankwise._decimal_digits() -%}
    {%- set places = (n - 1) | string | length if n > 1 else 1 -%}
    {%- set terms = [] -%}
    {%- set joins = [] -%}
    {%- for place in range(places) -%}
        {%- do terms.append('rw_digit_' ~ place ~ '.rw_digit * ' ~ 10 ** place) -%}
        {%- do joins.append('(' ~ digits ~ ') as rw_digit_' ~ place) -%}
    {%- endfor -%}
    (select rw_position from (select {{ terms | join(' + ') }} + 1 as rw_position from {{ joins | join(' cross join ') }}) as rw_numbers where rw_position <= {{ n }})
{%- endmacro %}

{% macro _decimal_digits() %}
    {%- set selects = [] -%}
    {%- for digit in range(10) -%}
        {%- do selects.append('select ' ~ digit ~ ' as rw_digit') -%}
    {%- endfor -%}
    {{- return(selects | join(' union all ')) -}}
{% endmacro %}

{#- ClickHouse's numbers(offset, count), UInt64 cast to BIGINT as the others
    give it (generate_series' alias list would not name its column):
    https://clickhouse.com/docs/sql-reference/table-functions/numbers -#}
{% macro clickhouse___positions(n) -%}
    (select cast(number as bigint) as rw_position from numbers(1, {{ n }}))
{%- endmacro %}
