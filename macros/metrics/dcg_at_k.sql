{#- DCG@k = sum over ranks i <= k of gain(rel_i) / log2(i + 1): an aggregate over
    the rows of one list. `relevance` is NULL or 0 for an item not in the truth;
    `gain` and `min_relevance` are those of rankwise.relevance_gain.
    Järvelin & Kekäläinen (2002), "Cumulated gain-based evaluation of IR
    techniques", with the discount of every rank as in trec_eval. -#}
{% macro dcg_at_k(rank, relevance, k=none, gain='linear', min_relevance=none) %}
    {%- do rankwise._check_cutoff('dcg_at_k', k) -%}
    {%- do rankwise._check_choice('dcg_at_k', 'gain', gain, rankwise._option_registry().gain.choices) -%}
    {{- return(adapter.dispatch('dcg_at_k', 'rankwise')(rank, relevance, k, gain, min_relevance)) -}}
{% endmacro %}

{% macro default__dcg_at_k(rank, relevance, k, gain, min_relevance) -%}
    sum(case when {{ rankwise._within_cutoff(rank, k) }} then {{ rankwise.dcg_term(rank, relevance, gain, min_relevance) }} else 0 end)
{%- endmacro %}
