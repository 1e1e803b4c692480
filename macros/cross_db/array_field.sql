{#- The array of one field of an array of structs (the engines of
    _engine_has_array_lambdas): each element's `field`, by a lambda. -#}
{% macro _array_field(array, field) %}
    {{- return(adapter.dispatch('_array_field', 'rankwise')(array, field)) -}}
{% endmacro %}

{% macro default___array_field(array, field) %}
    {{- return('transform(' ~ array ~ ', rw_element -> rw_element.' ~ field ~ ')') -}}
{% endmacro %}

{#- Spark reads a field of an array of structs as the array of that field
    (GetArrayStructFields) without the lambda, which it evaluates per element
    outside its generated code; run on Spark in the suite
    (tests/engines/test_spark_user_arrays.py). -#}
{% macro spark___array_field(array, field) %}
    {{- return('(' ~ array ~ ').' ~ field) -}}
{% endmacro %}

{#- Databricks dispatches to spark__ after its own: its reference documents the
    dot sign on a STRUCT or a MAP, not on an array
    (https://docs.databricks.com/sql/language-manual/functions/dotsign.html),
    so it keeps the lambda. -#}
{% macro databricks___array_field(array, field) %}
    {{- return(rankwise.default___array_field(array, field)) -}}
{% endmacro %}
