{#- Floating point division that yields NULL, not an error or infinity, when the
    denominator is zero (1/0 is an error on PostgreSQL, inf on DuckDB, NULL on Spark),
    and never integer division (PostgreSQL truncates int / int). -#}
{% macro safe_divide(numerator, denominator) %}
    {{- return(adapter.dispatch('safe_divide', 'rankwise')(numerator, denominator)) -}}
{% endmacro %}

{% macro default__safe_divide(numerator, denominator) -%}
    (cast(({{ numerator }}) as {{ rankwise.type_float64() }}) / nullif(({{ denominator }}), 0))
{%- endmacro %}
