{#- An array of the columns' values as 64-bit floats, in each engine's syntax. -#}
{% macro array_of_doubles(columns) %}
    {{- return(adapter.dispatch('array_of_doubles', 'rankwise_integration_tests')(columns)) -}}
{% endmacro %}

{% macro default__array_of_doubles(columns) -%}
    list_value({% for column in columns %}cast({{ column }} as double){{ ', ' if not loop.last }}{% endfor %})
{%- endmacro %}

{% macro postgres__array_of_doubles(columns) -%}
    array[{% for column in columns %}cast({{ column }} as double precision){{ ', ' if not loop.last }}{% endfor %}]
{%- endmacro %}

{% macro spark__array_of_doubles(columns) -%}
    array({% for column in columns %}cast({{ column }} as double){{ ', ' if not loop.last }}{% endfor %})
{%- endmacro %}

{% macro clickhouse__array_of_doubles(columns) -%}
    array({% for column in columns %}cast({{ column }} as Float64){{ ', ' if not loop.last }}{% endfor %})
{%- endmacro %}
