{#- R-precision = precision at rank R, with R the number of relevant items in the
    user's truth (trec_eval `Rprec`); it takes no cutoff. 0 when R is 0. -#}
{% macro r_precision(hits_within_n_relevant, n_relevant) %}
    {{- return(adapter.dispatch('r_precision', 'rankwise')(hits_within_n_relevant, n_relevant)) -}}
{% endmacro %}

{% macro default__r_precision(hits_within_n_relevant, n_relevant) -%}
    coalesce({{ rankwise.safe_divide(hits_within_n_relevant, n_relevant) }}, 0)
{%- endmacro %}
