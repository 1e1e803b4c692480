{#- The population variance of `expression` over a group's rows (the intervals'
    spread). -#}
{% macro _var_pop(expression) %}
    {{- return(adapter.dispatch('_var_pop', 'rankwise')(expression)) -}}
{% endmacro %}

{% macro default___var_pop(expression) -%}
    var_pop({{ expression }})
{%- endmacro %}

{#- ClickHouse's var_pop (varPop) sums squares, which loses the digits of a
    variance that is small beside the mean (values all near 1 come out 1e-18
    instead of 0); varPopStable is its numerically stable form:
    https://clickhouse.com/docs/sql-reference/aggregate-functions/reference/varpopstable -#}
{% macro clickhouse___var_pop(expression) -%}
    varPopStable({{ expression }})
{%- endmacro %}
