{#- A value as text that sorts in the same order on every engine: byte order of
    its UTF-8 text. DuckDB and Spark compare strings by bytes; PostgreSQL by the
    database's collation unless told "C". Numbers sort as their text ('10' before
    '9'): an order, the same everywhere, not the numeric one. -#}
{% macro _in_byte_order(expression) %}
    {{- return(adapter.dispatch('_in_byte_order', 'rankwise')(expression)) -}}
{% endmacro %}

{% macro default___in_byte_order(expression) -%}
    cast({{ expression }} as {{ dbt.type_string() }})
{%- endmacro %}

{#- https://www.postgresql.org/docs/current/collation.html -#}
{% macro postgres___in_byte_order(expression) -%}
    (cast({{ expression }} as text) collate "C")
{%- endmacro %}
