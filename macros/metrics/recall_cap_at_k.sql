{#- Capped recall, R_cap@k = hits / min(R, k): recall whose denominator a list
    of k items can reach (BEIR's R_cap, `beir/retrieval/custom_metrics.py`;
    Thakur et al. 2021, docs/metrics.md, Sources). With no cutoff (k = none,
    or NULL in a cutoff column) it is recall, hits / R. 0 when R = 0 (where
    BEIR divides by zero). -#}
{% macro recall_cap_at_k(hits, n_relevant, k=none) %}
    {%- do rankwise._check_cutoff('recall_cap_at_k', k, column_allowed=true) -%}
    {{- return(adapter.dispatch('recall_cap_at_k', 'rankwise')(hits, n_relevant, k)) -}}
{% endmacro %}

{% macro default__recall_cap_at_k(hits, n_relevant, k) -%}
    {%- set cutoff = rankwise._cutoff_or(k, n_relevant) -%}
    coalesce({{ rankwise.safe_divide(hits, 'case when ' ~ cutoff ~ ' < ' ~ n_relevant ~ ' then ' ~ cutoff ~ ' else ' ~ n_relevant ~ ' end') }}, 0)
{%- endmacro %}
