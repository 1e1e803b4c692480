{#- Hit rate@k (trec_eval `success_k`): 1 when at least one relevant item is in the
    top k, else 0. -#}
{% macro hit_rate_at_k(hits) %}
    {{- return(adapter.dispatch('hit_rate_at_k', 'rankwise')(hits)) -}}
{% endmacro %}

{% macro default__hit_rate_at_k(hits) -%}
    (case when ({{ hits }}) > 0 then cast(1 as {{ rankwise.type_float64() }}) else 0 end)
{%- endmacro %}
