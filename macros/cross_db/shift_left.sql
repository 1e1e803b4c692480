{#- `value` shifted left by `bits`, a BIGINT. -#}
{% macro _shift_left(value, bits) %}
    {{- return(adapter.dispatch('_shift_left', 'rankwise')(value, bits)) -}}
{% endmacro %}

{#- DuckDB, PostgreSQL and Spark:
    https://duckdb.org/docs/stable/sql/functions/bitwise,
    https://www.postgresql.org/docs/current/functions-math.html#FUNCTIONS-MATH-BIT-TABLE,
    https://spark.apache.org/docs/latest/api/sql/index.html -#}
{% macro default___shift_left(value, bits) %}
    {{- return(value ~ ' << ' ~ bits) -}}
{% endmacro %}

{#- Databricks dispatches to spark__ after its own; its reference lists
    shiftleft, not the << operator:
    https://docs.databricks.com/en/sql/language-manual/functions/shiftleft.html -#}
{% macro databricks___shift_left(value, bits) %}
    {{- return('shiftleft(' ~ value ~ ', ' ~ bits ~ ')') -}}
{% endmacro %}
