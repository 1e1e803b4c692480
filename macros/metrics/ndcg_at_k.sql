{#- NDCG@k = DCG@k / IDCG@k; 0 when IDCG is 0 (no item with relevance > 0). -#}
{% macro ndcg_at_k(dcg, idcg) %}
    {{- return(adapter.dispatch('ndcg_at_k', 'rankwise')(dcg, idcg)) -}}
{% endmacro %}

{% macro default__ndcg_at_k(dcg, idcg) -%}
    coalesce({{ rankwise.safe_divide(dcg, idcg) }}, 0)
{%- endmacro %}
