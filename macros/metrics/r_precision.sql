{#- R-precision = precision at rank R, with R the number of relevant items in the
    user's truth (trec_eval `Rprec`), which equals recall at rank R. 0 when R is 0.
    With a cutoff k, R is capped at k: precision at rank min(R, k), the hits
    within the top min(R, k) over min(R, k) (the definition of Recommenders'
    r_precision_at_k docstring: precision@k when R >= k, R-precision when R <= k).
    `hits_within_n_relevant` counts the relevant items at ranks <= min(R, k).
    `k` is an integer, none (the whole list), or a column of cutoffs (NULL = the
    whole list). -#}
{% macro r_precision(hits_within_n_relevant, n_relevant, k=none) %}
    {%- do rankwise._check_cutoff('r_precision', k, column_allowed=true) -%}
    {{- return(adapter.dispatch('r_precision', 'rankwise')(hits_within_n_relevant, n_relevant, k)) -}}
{% endmacro %}

{% macro default__r_precision(hits_within_n_relevant, n_relevant, k) -%}
    {%- set denominator = n_relevant if k is none else 'least(' ~ n_relevant ~ ', ' ~ rankwise._cutoff_or(k, n_relevant) ~ ')' -%}
    coalesce({{ rankwise.safe_divide(hits_within_n_relevant, denominator) }}, 0)
{%- endmacro %}
