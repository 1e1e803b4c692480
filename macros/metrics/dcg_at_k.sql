{#- DCG@k = sum over ranks i <= k of gain(rel_i) / log2(i + 1): an aggregate over
    the rows of one list. `relevance` is NULL or 0 for an item not in the truth. -#}
{% macro dcg_at_k(rank, relevance, k=none, gain='linear') %}
    {%- do rankwise._check_cutoff('dcg_at_k', k) -%}
    {%- do rankwise._check_choice('dcg_at_k', 'gain', gain, ['linear', 'exponential']) -%}
    {{- return(adapter.dispatch('dcg_at_k', 'rankwise')(rank, relevance, k, gain)) -}}
{% endmacro %}

{% macro default__dcg_at_k(rank, relevance, k, gain) -%}
    sum(case when {{ rankwise._within_cutoff(rank, k) }} and ({{ relevance }}) > 0 then {{ rankwise.relevance_gain(relevance, gain) }} * {{ rankwise.rank_discount(rank) }} else 0 end)
{%- endmacro %}
