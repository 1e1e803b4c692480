{#- One term of DCG: the gain of the item at `rank` times the rank's discount.
    dcg_at_k sums it over a list's rows; an engine with arrays can sum it over a
    list of relevances in rank order (the top_k_gains strategy of IDCG). -#}
{% macro dcg_term(rank, relevance, gain='linear', min_relevance=none) %}
    {{- return(adapter.dispatch('dcg_term', 'rankwise')(rank, relevance, gain, min_relevance)) -}}
{% endmacro %}

{% macro default__dcg_term(rank, relevance, gain, min_relevance) -%}
    ({{ rankwise.relevance_gain(relevance, gain, min_relevance) }} * {{ rankwise.rank_discount(rank) }})
{%- endmacro %}
