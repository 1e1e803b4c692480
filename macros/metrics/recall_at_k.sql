{#- Recall@k = hits@k / R, with R the number of relevant items in the user's whole
    truth set. 0 for a user with no relevant item. -#}
{% macro recall_at_k(hits, n_relevant) %}
    {{- return(adapter.dispatch('recall_at_k', 'rankwise')(hits, n_relevant)) -}}
{% endmacro %}

{% macro default__recall_at_k(hits, n_relevant) -%}
    coalesce({{ rankwise.safe_divide(hits, n_relevant) }}, 0)
{%- endmacro %}
