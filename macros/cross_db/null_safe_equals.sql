{#- Equality that treats two NULLs as equal, for joining on grouping columns that
    may be NULL. -#}
{% macro null_safe_equals(left, right) %}
    {{- return(adapter.dispatch('null_safe_equals', 'rankwise')(left, right)) -}}
{% endmacro %}

{% macro default__null_safe_equals(left, right) -%}
    (({{ left }}) is not distinct from ({{ right }}))
{%- endmacro %}

{#- Redshift's SQL reference documents no IS [NOT] DISTINCT FROM predicate, so its
    joins on grouping columns spell the NULL case out (as dbt.equals does). -#}
{% macro redshift__null_safe_equals(left, right) -%}
    ((({{ left }}) = ({{ right }})) or (({{ left }}) is null and ({{ right }}) is null))
{%- endmacro %}
