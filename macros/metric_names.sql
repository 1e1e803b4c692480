{#- The metric names rankwise.evaluate accepts, each optionally followed by @k. -#}
{% macro metric_names() %}
    {{- return(adapter.dispatch('metric_names', 'rankwise')()) -}}
{% endmacro %}

{% macro default__metric_names() %}
    {{ return(rankwise._metric_registry().keys() | list) }}
{% endmacro %}
