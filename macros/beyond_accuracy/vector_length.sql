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

{#- https://cloud.google.com/bigquery/docs/reference/standard-sql/array_functions#array_length -#}
{% macro bigquery__vector_length(vector) -%}
    array_length({{ vector }})
{%- endmacro %}

{#- https://trino.io/docs/current/functions/array.html#cardinality -#}
{% macro trino__vector_length(vector) -%}
    cardinality({{ vector }})
{%- endmacro %}

{#- https://docs.snowflake.com/en/sql-reference/functions/array_size -#}
{% macro snowflake__vector_length(vector) -%}
    array_size({{ vector }})
{%- endmacro %}

{#- https://clickhouse.com/docs/sql-reference/functions/array-functions#length -#}
{% macro clickhouse__vector_length(vector) -%}
    length({{ vector }})
{%- endmacro %}
