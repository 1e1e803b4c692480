{#- Average precision@k = (1 / D) * sum of P@i over the ranks i <= k that hold a
    relevant item. The denominator D is the convention that differs between tools:
      relevant        R, the relevant items in the user's whole truth (trec_eval, ranx)
      min_relevant_k  min(R, k) (Microsoft Recommenders map_at_k, Spark)
      hits            relevant items retrieved in the top k (document 002 of docs/metrics.md's Sources, torchmetrics)
      k               the cutoff itself (RecTools MAP with divide_by_k=True)
    `precision_sum` is the sum of P@i at the relevant ranks i <= k; 0 when D is 0.
    `k` is an integer, none, or a column of cutoffs (NULL = the whole list). -#}
{% macro average_precision_at_k(precision_sum, n_relevant, k=none, hits=none, ap_denominator='relevant') %}
    {%- do rankwise._check_cutoff('average_precision_at_k', k, column_allowed=true) -%}
    {%- do rankwise._check_choice('average_precision_at_k', 'ap_denominator', ap_denominator, rankwise._option_registry().ap_denominator.choices) -%}
    {%- if ap_denominator == 'k' and k is none -%}
        {{ exceptions.raise_compiler_error("rankwise.average_precision_at_k: ap_denominator 'k' needs a cutoff `k`.") }}
    {%- endif -%}
    {%- if ap_denominator == 'hits' and hits is none -%}
        {{ exceptions.raise_compiler_error("rankwise.average_precision_at_k: argument `hits` is required when ap_denominator is 'hits'.") }}
    {%- endif -%}
    {{- return(adapter.dispatch('average_precision_at_k', 'rankwise')(precision_sum, n_relevant, k, hits, ap_denominator)) -}}
{% endmacro %}

{% macro default__average_precision_at_k(precision_sum, n_relevant, k, hits, ap_denominator) -%}
    {%- if ap_denominator == 'hits' -%}
        {%- set denominator = hits -%}
    {%- elif ap_denominator == 'k' -%}
        {#- a NULL cutoff has no k to divide by: NULL, then 0 -#}
        {%- set denominator = k -%}
    {%- elif ap_denominator == 'min_relevant_k' and k is not none -%}
        {%- set denominator = 'least(' ~ n_relevant ~ ', ' ~ rankwise._cutoff_or(k, n_relevant) ~ ')' -%}
    {%- else -%}
        {%- set denominator = n_relevant -%}
    {%- endif -%}
    coalesce({{ rankwise.safe_divide(precision_sum, denominator) }}, 0)
{%- endmacro %}
