{#- IDCG@k, the DCG of the ideal list: the user's whole truth set (not only the
    recommended items) sorted by relevance, cut at k. An aggregate over the truth
    rows of one user, given each row's `ideal_rank` (its position by relevance
    descending). -#}
{% macro idcg_at_k(ideal_rank, relevance, k=none, gain='linear', min_relevance=none) %}
    {%- do rankwise._check_cutoff('idcg_at_k', k) -%}
    {%- do rankwise._check_choice('idcg_at_k', 'gain', gain, rankwise._option_registry().gain.choices) -%}
    {{- return(adapter.dispatch('idcg_at_k', 'rankwise')(ideal_rank, relevance, k, gain, min_relevance)) -}}
{% endmacro %}

{% macro default__idcg_at_k(ideal_rank, relevance, k, gain, min_relevance) -%}
    {{ rankwise.dcg_at_k(ideal_rank, relevance, k, gain, min_relevance) }}
{%- endmacro %}
