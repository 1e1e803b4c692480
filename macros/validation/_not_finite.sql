{#- True for NaN and the infinities, false for a finite number, null for null.
    x - x is 0 for every finite number and NaN otherwise, and NaN <> 0 holds both
    on IEEE engines and on those that order NaN above every number (PostgreSQL,
    Spark); an integer column needs no cast and cannot overflow. -#}
{% macro _not_finite(expression) %}
    {{- return(adapter.dispatch('_not_finite', 'rankwise')(expression)) -}}
{% endmacro %}

{% macro default___not_finite(expression) %}
    {{- return('((' ~ expression ~ ') - (' ~ expression ~ ') <> 0)') -}}
{% endmacro %}

{#- DuckDB has isfinite(), cheaper than the subtraction on a whole column:
    https://duckdb.org/docs/stable/sql/functions/numeric#isfinitex -#}
{% macro duckdb___not_finite(expression) %}
    {{- return('(not isfinite(' ~ expression ~ '))') -}}
{% endmacro %}
