{#- Precision@k = hits@k / k. With `precision_denominator='list_length'` the
    denominator is min(list length, k) (document 003's code; docs/metrics.md, Sources); with no cutoff
    (k = none) it is the list length. `k` is an integer, none, or a column of
    cutoffs (NULL = the whole list). -#}
{% macro precision_at_k(hits, k=none, n_recommended=none, precision_denominator='k') %}
    {%- do rankwise._check_cutoff('precision_at_k', k, column_allowed=true) -%}
    {%- do rankwise._check_choice('precision_at_k', 'precision_denominator', precision_denominator, rankwise._option_registry().precision_denominator.choices) -%}
    {%- if (k is none or precision_denominator == 'list_length') and n_recommended is none -%}
        {{ exceptions.raise_compiler_error("rankwise.precision_at_k: argument `n_recommended` is required when k is none or precision_denominator is 'list_length'.") }}
    {%- endif -%}
    {{- return(adapter.dispatch('precision_at_k', 'rankwise')(hits, k, n_recommended, precision_denominator)) -}}
{% endmacro %}

{% macro default__precision_at_k(hits, k, n_recommended, precision_denominator) -%}
    {%- set denominator = rankwise._cutoff_or(k, n_recommended) if precision_denominator == 'k' else n_recommended -%}
    coalesce({{ rankwise.safe_divide(hits, denominator) }}, 0)
{%- endmacro %}
