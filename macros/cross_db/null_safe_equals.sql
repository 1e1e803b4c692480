{#- Equality that treats two NULLs as equal, for joining on grouping columns that
    may be NULL. -#}
{% macro null_safe_equals(left, right) %}
    {{- return(adapter.dispatch('null_safe_equals', 'rankwise')(left, right)) -}}
{% endmacro %}

{% macro default__null_safe_equals(left, right) -%}
    (({{ left }}) is not distinct from ({{ right }}))
{%- endmacro %}
