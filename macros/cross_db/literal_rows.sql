{#- A SELECT of literal rows, one list of SQL values per row, under the column
    names `columns`: one VALUES list rather than a chain of UNION ALL, which
    engines plan in time that grows faster than the number of rows. The
    dispatched macros take the rows as lists of SQL values. -#}
{% macro _literal_rows(columns, rows) %}
    {{- return(adapter.dispatch('_literal_rows', 'rankwise')(columns, rows)) -}}
{% endmacro %}

{#- The rows as SQL tuples: '(1, 0), (5, 1)'. -#}
{% macro _value_tuples(rows) %}
    {%- set tuples = [] -%}
    {%- for row in rows -%}
        {%- do tuples.append('(' ~ row | join(', ') ~ ')') -%}
    {%- endfor -%}
    {{- return(tuples | join(', ')) -}}
{% endmacro %}

{#- PostgreSQL and DuckDB: https://www.postgresql.org/docs/current/sql-values.html -#}
{% macro default___literal_rows(columns, rows) -%}
    select * from (values {{ rankwise._value_tuples(rows) }}) as rw_rows({{ columns | join(', ') }})
{%- endmacro %}

{#- Spark's inline table: https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-inline-table.html -#}
{% macro spark___literal_rows(columns, rows) -%}
    select * from values {{ rankwise._value_tuples(rows) }} as rw_rows({{ columns | join(', ') }})
{%- endmacro %}

{#- GoogleSQL has no VALUES table constructor: literal rows are an array of
    structs unnested in FROM, each struct naming its fields:
    https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#unnest_operator -#}
{% macro bigquery___literal_rows(columns, rows) -%}
    {%- set structs = [] -%}
    {%- for row in rows -%}
        {%- do structs.append('struct(' ~ rankwise._named_values(columns, row) ~ ')') -%}
    {%- endfor -%}
    select * from unnest([{{ structs | join(', ') }}])
{%- endmacro %}

{#- Redshift documents VALUES for INSERT only, not in FROM: literal rows are a
    UNION ALL of one-row SELECTs, each naming its columns:
    https://docs.aws.amazon.com/redshift/latest/dg/r_UNION.html -#}
{% macro redshift___literal_rows(columns, rows) -%}
    {%- set selects = [] -%}
    {%- for row in rows -%}
        {%- do selects.append('select ' ~ rankwise._named_values(columns, row)) -%}
    {%- endfor -%}
    {{ selects | join(' union all ') }}
{%- endmacro %}

{#- 'value as column' for each value of a row. -#}
{% macro _named_values(columns, row) %}
    {%- set named = [] -%}
    {%- for value in row -%}
        {%- do named.append(value ~ ' as ' ~ columns[loop.index0]) -%}
    {%- endfor -%}
    {{- return(named | join(', ')) -}}
{% endmacro %}
