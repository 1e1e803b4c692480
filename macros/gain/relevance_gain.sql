{#- The gain of one judged item in DCG: `linear` (rel; trec_eval, document 004 of docs/metrics.md's Sources),
    `exponential` (2^rel - 1, Burges et al. 2005) or `binary` (1; Microsoft
    Recommenders' default, RecTools). Which items earn a gain at all: those with
    relevance > 0 when `min_relevance` is none (trec_eval: its -l threshold does
    not touch NDCG), else those with relevance >= min_relevance (ranx's rel_lvl,
    Evidently's min_rel_score). -#}
{% macro relevance_gain(relevance, gain='linear', min_relevance=none) %}
    {%- do rankwise._check_choice('relevance_gain', 'gain', gain, rankwise._option_registry().gain.choices) -%}
    {%- if min_relevance is not none -%}
        {%- do rankwise._number_literal('relevance_gain', 'min_relevance', min_relevance) -%}
    {%- endif -%}
    {{- return(adapter.dispatch('relevance_gain', 'rankwise')(relevance, gain, min_relevance)) -}}
{% endmacro %}

{% macro default__relevance_gain(relevance, gain, min_relevance) -%}
    {%- set earns_gain = '(' ~ relevance ~ ') > 0' if min_relevance is none else '(' ~ relevance ~ ') >= ' ~ min_relevance -%}
    {%- if gain == 'linear' -%}
    (case when {{ earns_gain }} then cast(({{ relevance }}) as {{ rankwise.type_float64() }}) else 0 end)
    {%- elif gain == 'exponential' -%}
    (case when {{ earns_gain }} then power(cast(2 as {{ rankwise.type_float64() }}), ({{ relevance }})) - 1 else 0 end)
    {%- else -%}
    (case when {{ earns_gain }} then 1 else 0 end)
    {%- endif -%}
{%- endmacro %}
