{#- unj@k = (min(k, n) - judged items within the top k) / k: the share of the
    top k that is not judged, the slots past the end of a list shorter than k
    counting as judged (trec_eval 10.0's unj, m_unjudged.c: "if a method
    retrieves 15 docs of which 4 have a qrel value that is not '-1', then
    unj20 is 0.2"). `n_recommended` is the list's length within the cutoff,
    min(k, n); `k` an integer, none for the whole list (k = n), or a column of
    cutoffs (NULL = the whole list). 0 for an empty list. -#}
{% macro unjudged_at_k(n_judged, n_recommended, k=none) %}
    {%- do rankwise._check_cutoff('unjudged_at_k', k, column_allowed=true) -%}
    {{- return(adapter.dispatch('unjudged_at_k', 'rankwise')(n_judged, n_recommended, k)) -}}
{% endmacro %}

{% macro default__unjudged_at_k(n_judged, n_recommended, k) -%}
    coalesce({{ rankwise.safe_divide('(' ~ n_recommended ~ ' - ' ~ n_judged ~ ')', rankwise._cutoff_or(k, n_recommended)) }}, 0)
{%- endmacro %}
