{#- The per-list components the metric formulas read. One aggregate each; the
    cutoff is a condition inside the aggregate, so every k shares one pass. Each
    component reads one source (see _component_source). -#}

{#- Components that do not depend on k. -#}
{% macro _is_cutoff_free(component) %}
    {{ return(component in ['first_relevant_rank', 'hits_within_n_relevant']) }}
{% endmacro %}

{#- Where a component is aggregated from:
      list_rows   every recommended row (list lengths)
      judged      only the recommended rows found in the interactions, a small
                  share of the rows in practice, which keeps the running count
                  of hits (a window) cheap
      all_running every recommended row with the running count of hits: only
                  map_to_full_recall, which averages P@i over non-relevant ranks too
      truth       the interactions of a user (IDCG), see evaluate -#}
{% macro _component_source(component) %}
    {%- if component == 'n_recommended' -%}
        {{ return('list_rows') }}
    {%- elif component in ['precision_sum_to_full_recall', 'ranks_to_full_recall'] -%}
        {{ return('all_running') }}
    {%- elif component == 'idcg' -%}
        {{ return('truth') }}
    {%- else -%}
        {{ return('judged') }}
    {%- endif -%}
{% endmacro %}

{% macro _component_column(component, k) %}
    {%- if rankwise._is_cutoff_free(component) -%}
        {{ return('rw_' ~ component) }}
    {%- else -%}
        {{ return('rw_' ~ component ~ '__' ~ (k if k is not none else 'all')) }}
    {%- endif -%}
{% endmacro %}

{#- The select-list entries (each led by a comma) of `components` at every
    cutoff, for a GROUP BY over one list's rows. -#}
{% macro _component_aggregates(components, spec) %}
    {%- set entries = [] -%}
    {%- for component in components -%}
        {%- for cutoff in ([none] if rankwise._is_cutoff_free(component) else spec.cutoffs) -%}
            {%- do entries.append(',\n        ' ~ rankwise._list_component(component, cutoff, spec) ~ ' as ' ~ rankwise._component_column(component, cutoff)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(entries | join('')) }}
{% endmacro %}

{#- SQL of one component over the judged rows of a list (idcg is a truth-side
    component: see evaluate). -#}
{% macro _list_component(component, k, spec) %}
    {%- set within = rankwise._within_cutoff('rw_rank', k) -%}
    {%- if component == 'hits' -%}
        {{ return('count(case when ' ~ within ~ ' and rw_is_relevant = 1 then 1 end)') }}
    {%- elif component == 'n_recommended' -%}
        {{ return('count(case when ' ~ within ~ ' then 1 end)') }}
    {%- elif component == 'precision_sum' -%}
        {{ return(rankwise._precision_sum(k)) }}
    {%- elif component == 'first_relevant_rank' -%}
        {{ return(rankwise._first_relevant_rank()) }}
    {%- elif component == 'dcg' -%}
        {{ return(rankwise.dcg_at_k('rw_rank', 'rw_relevance', k, spec.gain, spec.min_gain_relevance)) }}
    {%- elif component == 'hits_within_n_relevant' -%}
        {{ return(rankwise._hits_within_n_relevant()) }}
    {%- elif component == 'precision_sum_to_full_recall' -%}
        {{ return(rankwise._precision_sum_to_full_recall(k)) }}
    {%- elif component == 'ranks_to_full_recall' -%}
        {{ return(rankwise._ranks_to_full_recall(k)) }}
    {%- else -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error, unknown list component '" ~ component ~ "'.") }}
    {%- endif -%}
{% endmacro %}

{#- The formula of one metric at one cutoff, over the component columns of a user. -#}
{% macro _metric_expression(entry, spec) %}
    {%- set name = entry.name -%}
    {%- set k = entry.k -%}
    {%- set hits = rankwise._component_column('hits', k) -%}
    {%- set n_recommended = rankwise._component_column('n_recommended', k) -%}
    {%- if name == 'precision' -%}
        {{ return(rankwise.precision_at_k(hits, k, n_recommended, spec.precision_denominator)) }}
    {%- elif name == 'recall' -%}
        {{ return(rankwise.recall_at_k(hits, 'rw_n_relevant')) }}
    {%- elif name == 'f1' -%}
        {{ return(rankwise.f1_at_k(hits, 'rw_n_relevant', k, n_recommended, spec.precision_denominator)) }}
    {%- elif name == 'hit_rate' -%}
        {{ return(rankwise.hit_rate_at_k(hits)) }}
    {%- elif name == 'map' -%}
        {{ return(rankwise.average_precision_at_k(rankwise._component_column('precision_sum', k), 'rw_n_relevant', k, hits, spec.ap_denominator)) }}
    {%- elif name == 'mrr' -%}
        {{ return(rankwise.reciprocal_rank_at_k(rankwise._component_column('first_relevant_rank', k), k)) }}
    {%- elif name == 'dcg' -%}
        {{ return(rankwise._component_column('dcg', k)) }}
    {%- elif name == 'idcg' -%}
        {{ return(rankwise._component_column('idcg', k)) }}
    {%- elif name == 'ndcg' -%}
        {{ return(rankwise.ndcg_at_k(rankwise._component_column('dcg', k), rankwise._component_column('idcg', k))) }}
    {%- elif name == 'r_precision' -%}
        {{ return(rankwise.r_precision(rankwise._component_column('hits_within_n_relevant', k), 'rw_n_relevant')) }}
    {%- elif name == 'map_to_full_recall' -%}
        {{ return(rankwise.map_to_full_recall_at_k(rankwise._component_column('precision_sum_to_full_recall', k), rankwise._component_column('ranks_to_full_recall', k))) }}
    {%- else -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error, no formula for metric '" ~ name ~ "'.") }}
    {%- endif -%}
{% endmacro %}
