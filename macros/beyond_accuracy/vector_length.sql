{#- The number of elements of an array; each engine names it its own way. -#}
{% macro vector_length(vector) %}
    {{- return(adapter.dispatch('vector_length', 'rankwise')(vector)) -}}
{% endmacro %}

{% macro default__vector_length(vector) -%}
    len({{ vector }})
{%- endmacro %}

{% macro postgres__vector_length(vector) -%}
    cardinality({{ vector }})
{%- endmacro %}

{% macro spark__vector_length(vector) -%}
    size({{ vector }})
{%- endmacro %}

{#- https://clickhouse.com/docs/sql-reference/functions/array-functions#length -#}
{% macro clickhouse__vector_length(vector) -%}
    length({{ vector }})
{%- endmacro %}
