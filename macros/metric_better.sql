{#- Which way a metric is better, as the metric registry says: 'higher',
    'lower', or none for a metric with no better side (the list-level ones,
    which rankwise.compare ranks nowhere, and idcg). A report or a dashboard
    marks the best value of a metric by it. -#}
{% macro metric_better(name) %}
    {{- return(adapter.dispatch('metric_better', 'rankwise')(name)) -}}
{% endmacro %}

{% macro default__metric_better(name) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- if name not in registry -%}
        {{ exceptions.raise_compiler_error("rankwise.metric_better: argument `name` must be a metric name without parameters or @k, one of " ~ (registry.keys() | join(', ')) ~ "; got " ~ rankwise._describe(name) ~ ".") }}
    {%- endif -%}
    {{ return(registry[name].get('better')) }}
{% endmacro %}
