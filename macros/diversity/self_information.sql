{#- The information of an outcome of probability p: -log(p), in nats by default
    (document 001 of docs/metrics.md's Sources), or in the given base. -#}
{% macro self_information(probability, log_base=none) %}
    {%- do rankwise._check_log_base('self_information', log_base) -%}
    {{- return(adapter.dispatch('self_information', 'rankwise')(probability, log_base)) -}}
{% endmacro %}

{% macro default__self_information(probability, log_base) -%}
    {%- if log_base is none -%}
    (-ln({{ probability }}))
    {%- else -%}
    (-ln({{ probability }}) / ln(cast({{ log_base }} as {{ rankwise.type_float64() }})))
    {%- endif -%}
{%- endmacro %}
