{#- Judged@k = judged items within the top k / min(k, n): the share of the
    list's top k found in the judgments, whatever their relevance (ir_measures'
    Judged@k, after OpenNIR; MacAvaney et al. 2022, docs/metrics.md, Sources).
    `n_recommended` is the list's length within the cutoff, min(k, n); 0 for
    an empty list. -#}
{% macro judged_at_k(n_judged, n_recommended) %}
    {{- return(adapter.dispatch('judged_at_k', 'rankwise')(n_judged, n_recommended)) -}}
{% endmacro %}

{% macro default__judged_at_k(n_judged, n_recommended) -%}
    coalesce({{ rankwise.safe_divide(n_judged, n_recommended) }}, 0)
{%- endmacro %}
