{#- A 64-bit floating point type. dbt.type_float() is 32-bit on DuckDB and Spark,
    which loses the 1e-9 precision rankwise promises. -#}
{% macro type_float64() %}
    {{- return(adapter.dispatch('type_float64', 'rankwise')()) -}}
{% endmacro %}

{% macro default__type_float64() -%}
    double
{%- endmacro %}

{#- PostgreSQL has no `double`: https://www.postgresql.org/docs/current/datatype-numeric.html -#}
{% macro postgres__type_float64() -%}
    double precision
{%- endmacro %}

{#- BigQuery has no `double`; its 64-bit float is FLOAT64:
    https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#floating_point_types -#}
{% macro bigquery__type_float64() -%}
    float64
{%- endmacro %}
