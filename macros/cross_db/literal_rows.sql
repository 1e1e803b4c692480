{#- A SELECT of literal rows, one list of SQL values per row, under the column
    names `columns`: one VALUES list rather than a chain of UNION ALL, which
    engines plan in time that grows faster than the number of rows. -#}
{% macro _literal_rows(columns, rows) %}
    {%- set tuples = [] -%}
    {%- for row in rows -%}
        {%- do tuples.append('(' ~ row | join(', ') ~ ')') -%}
    {%- endfor -%}
    {{- return(adapter.dispatch('_literal_rows', 'rankwise')(columns, tuples)) -}}
{% endmacro %}

{#- PostgreSQL and DuckDB: https://www.postgresql.org/docs/current/sql-values.html -#}
{% macro default___literal_rows(columns, tuples) -%}
    select * from (values {{ tuples | join(', ') }}) as rw_rows({{ columns | join(', ') }})
{%- endmacro %}

{#- Spark's inline table: https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-inline-table.html -#}
{% macro spark___literal_rows(columns, tuples) -%}
    select * from values {{ tuples | join(', ') }} as rw_rows({{ columns | join(', ') }})
{%- endmacro %}
