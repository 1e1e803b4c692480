{#- An expression that makes the query fail with `message` when it is evaluated:
    evaluate with fail_on_problems=true puts it behind a CASE over the input checks. -#}
{% macro _raise_error(message) %}
    {{- return(adapter.dispatch('_raise_error', 'rankwise')(message)) -}}
{% endmacro %}

{% macro default___raise_error(message) %}
    {{- exceptions.raise_compiler_error("rankwise.evaluate: fail_on_problems=true needs an engine that can raise an error from a query (DuckDB's error()); on this adapter, test the inputs with the generic tests rankwise.valid_recommendations and rankwise.valid_interactions instead.") -}}
{% endmacro %}

{#- https://duckdb.org/docs/stable/sql/functions/utility#errormessage -#}
{% macro duckdb___raise_error(message) %}
    {{- return('error(' ~ rankwise._string_literal(message) ~ ')') -}}
{% endmacro %}
