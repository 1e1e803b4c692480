{#- The per-list components the metric formulas read, as data. An entry says:
      source      where it is aggregated from:
                    list_rows    every recommended row (list lengths)
                    judged       only the recommended rows found in the
                                 interactions, which keeps the running count of
                                 hits (a window) small
                    all_running  every recommended row with the running count of
                                 hits: only map_to_full_recall, which averages P@i
                                 over non-relevant ranks too
                    truth        the interactions of a user (IDCG)
      cutoff_free whether it is one value per list rather than one per cutoff
      aggregate   the macro writing its aggregate over one list's rows at a
                  cutoff: aggregate(k, spec); none for truth components
      without_list  its value for a list with no judged row ('0', or 'null' for
                  the rank of the first relevant item) -#}
{% macro _component_registry() %}
    {{ return({
        'n_recommended':                {'source': 'list_rows',   'cutoff_free': false, 'aggregate': '_aggregate_n_recommended', 'without_list': '0'},
        'hits':                         {'source': 'judged',      'cutoff_free': false, 'aggregate': '_aggregate_hits', 'without_list': '0'},
        'precision_sum':                {'source': 'judged',      'cutoff_free': false, 'aggregate': '_aggregate_precision_sum', 'without_list': '0'},
        'first_relevant_rank':          {'source': 'judged',      'cutoff_free': true,  'aggregate': '_aggregate_first_relevant_rank', 'without_list': 'null'},
        'dcg':                          {'source': 'judged',      'cutoff_free': false, 'aggregate': '_aggregate_dcg', 'without_list': '0'},
        'hits_within_n_relevant':       {'source': 'judged',      'cutoff_free': true,  'aggregate': '_aggregate_hits_within_n_relevant', 'without_list': '0'},
        'precision_sum_to_full_recall': {'source': 'all_running', 'cutoff_free': false, 'aggregate': '_aggregate_precision_sum_to_full_recall', 'without_list': '0'},
        'ranks_to_full_recall':         {'source': 'all_running', 'cutoff_free': false, 'aggregate': '_aggregate_ranks_to_full_recall', 'without_list': '0'},
        'idcg':                         {'source': 'truth',       'cutoff_free': false, 'aggregate': none, 'without_list': none},
    }) }}
{% endmacro %}

{% macro _component_column(component, k) %}
    {%- if rankwise._component_registry()[component].cutoff_free -%}
        {{ return('rw_' ~ component) }}
    {%- else -%}
        {{ return('rw_' ~ component ~ '__' ~ (k if k is not none else 'all')) }}
    {%- endif -%}
{% endmacro %}

{#- The cutoffs a component is computed at: the one value of a cutoff-free one,
    else every cutoff the plan asks for. -#}
{% macro _component_cutoffs(component, spec) %}
    {{ return([none] if rankwise._component_registry()[component].cutoff_free else spec.cutoffs) }}
{% endmacro %}

{#- The select-list entries (each led by a comma) of `components` at every
    cutoff, for a GROUP BY over one list's rows. -#}
{% macro _component_aggregates(components, spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set entries = [] -%}
    {%- for component in components -%}
        {%- for cutoff in rankwise._component_cutoffs(component, spec) -%}
            {%- do entries.append(',\n        ' ~ rankwise[registry[component].aggregate](cutoff, spec) ~ ' as ' ~ rankwise._component_column(component, cutoff)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(entries | join('')) }}
{% endmacro %}

{#- The aggregates, over rows carrying rw_rank, rw_relevance, rw_is_relevant and,
    where the source has them, rw_hits_so_far and rw_n_relevant. -#}

{% macro _aggregate_n_recommended(k, spec) %}
    {{ return('count(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' then 1 end)') }}
{% endmacro %}

{% macro _aggregate_hits(k, spec) %}
    {{ return('count(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and rw_is_relevant = 1 then 1 end)') }}
{% endmacro %}

{#- Sum over the relevant ranks within the cutoff of P@rank, read off the running
    count of hits, so that every cutoff shares one window. -#}
{% macro _aggregate_precision_sum(k, spec) %}
    {{ return('sum(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and rw_is_relevant = 1 then '
        ~ rankwise.safe_divide('rw_hits_so_far', 'rw_rank') ~ ' else 0 end)') }}
{% endmacro %}

{#- NULL when the list holds no relevant item. -#}
{% macro _aggregate_first_relevant_rank(k, spec) %}
    {{ return('min(case when rw_is_relevant = 1 then rw_rank end)') }}
{% endmacro %}

{% macro _aggregate_dcg(k, spec) %}
    {{ return(rankwise.dcg_at_k('rw_rank', 'rw_relevance', k, spec.gain, spec.min_gain_relevance)) }}
{% endmacro %}

{#- Relevant items at ranks <= R, R carried on every row. -#}
{% macro _aggregate_hits_within_n_relevant(k, spec) %}
    {{ return('count(case when rw_rank <= rw_n_relevant and rw_is_relevant = 1 then 1 end)') }}
{% endmacro %}

{#- A rank is at or before full recall when the relevant items strictly before it
    are still fewer than R, which needs no second pass to find that rank first. -#}
{% macro _before_full_recall() %}
    {{ return('rw_hits_so_far - rw_is_relevant < rw_n_relevant') }}
{% endmacro %}

{% macro _aggregate_precision_sum_to_full_recall(k, spec) %}
    {{ return('sum(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and ' ~ rankwise._before_full_recall() ~ ' then '
        ~ rankwise.safe_divide('rw_hits_so_far', 'rw_rank') ~ ' else 0 end)') }}
{% endmacro %}

{% macro _aggregate_ranks_to_full_recall(k, spec) %}
    {{ return('count(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and ' ~ rankwise._before_full_recall() ~ ' then 1 end)') }}
{% endmacro %}
