{#- The per-list components the metric formulas read, as data. Every component
    is one aggregate over the rows of one list within one cutoff: the rows are
    joined to the cutoffs (rw_cutoffs) first, so one GROUP BY computes every
    cutoff and the query does not grow with the number of cutoffs. An entry says:
      source      where it is aggregated from:
                    judged       the recommended rows found in the interactions,
                                 with the running count of hits
                    all_running  every recommended row with the running count of
                                 hits: only map_to_full_recall, which averages P@i
                                 over non-relevant ranks too
                    truth        the interactions of a user (IDCG)
                    list_rows    every recommended row (the list length)
      aggregate   the macro writing its aggregate: aggregate(spec)
      without_list  its value for a list with no judged row within the cutoff
      from_rank_bits  whether the rank_bits strategy reads it off a list's bit
                  sets of ranks (strategies/rank_bits.sql)
      from_user_arrays  the macro writing its form over a list's judged entries
                  for the user_arrays strategy (strategies/user_arrays.sql),
                  where it has one
      parameters  the metric parameters its aggregate reads (the metric
                  registry's `parameters`): one instance of the component per
                  set of their values, its aggregate(spec, parameters)
      reads       what it needs besides its source's rows (stages, or what
                  a stage provides: macros/evaluate/stage_registry.sql):
                  'hits_so_far' (rw_hits_so_far on each judged row, the
                  relevant items up to it), 'continuation' (the cascade's
                  chance of reaching the row: strategies/running_hits.sql),
                  'relevance_scale' (rw_max_relevance, the largest relevance
                  of the interactions), 'n_relevant_on_rows' (R on each
                  judged row), 'judged_so_far' (rw_judged_so_far on each
                  judged row, the judged items up to it),
                  'n_nonrelevant_on_rows' (rw_n_nonrelevant on each judged
                  row, the user's judged items that are not relevant),
                  'dcg_so_far' (rw_dcg_so_far, the DCG of the judged rows up
                  to the row), 'ideal_prefix_on_rows' (rw_ideal_prefix, the
                  IDCG at the row's rank or at the ideal list's end past it,
                  and rw_n_gains, the user's interactions that earn a gain),
                  'ideal_costs_on_rows' (G's: rw_ideal_excess, the ideal
                  list's gains above 1 up to the row's rank, rw_gain_so_far,
                  the gains of the judged rows up to it, and rw_gain_total,
                  the user's), 'level_weights_on_rows' (Rndcg's:
                  rw_level_end_weight, the sum of 1 / IDCG over the ends of
                  the gain levels at or after the row's rank, and
                  rw_n_gain_levels, the user's distinct gains),
                  'all_running_lists', 'list_lengths',
                  'ideal_gains'
      reads_when  more reads under some values of its parameters:
                  [{'when': {parameter: value}, 'reads': [...]}]
    -#}
{% macro _component_registry() %}
    {{ return({
        'hits':                         {'source': 'judged',      'aggregate': '_aggregate_hits', 'without_list': '0', 'from_rank_bits': true, 'from_user_arrays': '_array_hits'},
        'weighted_hits':                {'source': 'judged',      'aggregate': '_aggregate_weighted_hits', 'without_list': '0e0', 'from_rank_bits': false, 'from_user_arrays': '_array_weighted_hits'},
        'precision_sum':                {'source': 'judged',      'aggregate': '_aggregate_precision_sum', 'without_list': '0', 'from_rank_bits': true, 'from_user_arrays': '_array_precision_sum', 'reads': ['hits_so_far']},
        'first_relevant_rank':          {'source': 'judged',      'aggregate': '_aggregate_first_relevant_rank', 'without_list': 'null', 'from_rank_bits': true, 'from_user_arrays': '_array_first_relevant_rank'},
        'dcg':                          {'source': 'judged',      'aggregate': '_aggregate_dcg', 'without_list': '0', 'from_rank_bits': true, 'from_user_arrays': '_array_dcg'},
        'hits_within_n_relevant':       {'source': 'judged',      'aggregate': '_aggregate_hits_within_n_relevant', 'without_list': '0', 'from_rank_bits': false, 'from_user_arrays': '_array_hits_within_n_relevant', 'reads': ['n_relevant_on_rows']},
        'n_judged':                     {'source': 'judged',      'aggregate': '_aggregate_n_judged', 'without_list': '0', 'from_rank_bits': true, 'from_user_arrays': '_array_n_judged'},
        'precision_sum_to_full_recall': {'source': 'all_running', 'aggregate': '_aggregate_precision_sum_to_full_recall', 'without_list': '0', 'from_rank_bits': false, 'reads': ['all_running_lists']},
        'ranks_to_full_recall':         {'source': 'all_running', 'aggregate': '_aggregate_ranks_to_full_recall', 'without_list': '0', 'from_rank_bits': false, 'reads': ['all_running_lists']},
        'rank_biased_gain':             {'source': 'judged',      'aggregate': '_aggregate_rank_biased_gain', 'without_list': '0', 'from_rank_bits': false,
                                         'parameters': ['p', 'gain'], 'reads_when': [{'when': {'gain': 'graded'}, 'reads': ['relevance_scale']}]},
        'expected_reciprocal_rank':     {'source': 'judged',      'aggregate': '_aggregate_expected_reciprocal_rank', 'without_list': '0', 'from_rank_bits': false,
                                         'reads': ['continuation', 'relevance_scale']},
        'bpref_sum':                    {'source': 'judged',      'aggregate': '_aggregate_bpref_sum', 'without_list': '0', 'from_rank_bits': false,
                                         'reads': ['hits_so_far', 'judged_so_far', 'n_relevant_on_rows', 'n_nonrelevant_on_rows']},
        'interpolated_precision':       {'source': 'judged',      'aggregate': '_aggregate_interpolated_precision', 'without_list': 'null', 'from_rank_bits': false,
                                         'parameters': ['recall'], 'reads': ['hits_so_far', 'n_relevant_on_rows']},
        'interpolated_precision_11pt':  {'source': 'judged',      'aggregate': '_aggregate_interpolated_precision_11pt', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['hits_so_far', 'n_relevant_on_rows']},
        'hits_within_multiple_of_relevant': {'source': 'judged',  'aggregate': '_aggregate_hits_within_multiple_of_relevant', 'without_list': '0', 'from_rank_bits': false,
                                         'parameters': ['m'], 'reads': ['n_relevant_on_rows']},
        'inf_ap_sum':                   {'source': 'judged',      'aggregate': '_aggregate_inf_ap_sum', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['hits_so_far', 'judged_so_far']},
        'ndcg_rel_sum':                 {'source': 'judged',      'aggregate': '_aggregate_ndcg_rel_sum', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['dcg_so_far', 'ideal_prefix_on_rows']},
        'gains_retrieved':              {'source': 'judged',      'aggregate': '_aggregate_gains_retrieved', 'without_list': '0', 'from_rank_bits': false},
        'n_gains':                      {'source': 'judged',      'aggregate': '_aggregate_n_gains', 'without_list': '0', 'from_rank_bits': false,
                                         'reads': ['ideal_prefix_on_rows']},
        'bin_g_sum':                    {'source': 'judged',      'aggregate': '_aggregate_bin_g_sum', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['hits_so_far']},
        'g_sum':                        {'source': 'judged',      'aggregate': '_aggregate_g_sum', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['ideal_prefix_on_rows', 'ideal_costs_on_rows']},
        'gain_total':                   {'source': 'judged',      'aggregate': '_aggregate_gain_total', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['ideal_prefix_on_rows', 'ideal_costs_on_rows']},
        'rndcg_sum':                    {'source': 'judged',      'aggregate': '_aggregate_rndcg_sum', 'without_list': '0e0', 'from_rank_bits': false,
                                         'reads': ['ideal_prefix_on_rows', 'level_weights_on_rows']},
        'n_gain_levels':                {'source': 'judged',      'aggregate': '_aggregate_n_gain_levels', 'without_list': '0', 'from_rank_bits': false,
                                         'reads': ['ideal_prefix_on_rows', 'level_weights_on_rows']},
        'judged_rank_biased_weight':    {'source': 'judged',      'aggregate': '_aggregate_judged_rank_biased_weight', 'without_list': '0e0', 'from_rank_bits': false,
                                         'parameters': ['p']},
        'n_recommended':                {'source': 'list_rows',   'aggregate': none, 'without_list': none, 'from_rank_bits': false, 'reads': ['list_lengths']},
        'idcg':                         {'source': 'truth',       'aggregate': none, 'without_list': none, 'from_rank_bits': false, 'reads': ['ideal_gains']},
    }) }}
{% endmacro %}

{#- The column of a component's instance (the plan's component_instances: the
    component's name, or component__n for one of several sets of parameters). -#}
{% macro _component_column(instance) %}
    {{ return('rw_' ~ instance) }}
{% endmacro %}

{#- The select-list entries (each led by a comma) of the component instances
    `instances`, for a GROUP BY over the rows of one list within one cutoff. -#}
{% macro _component_aggregates(instances, spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set entries = [] -%}
    {%- for instance in instances -%}
        {%- set planned = spec.component_instances[instance] -%}
        {%- set declared = registry[planned.component] -%}
        {%- set aggregate = rankwise[declared.aggregate](spec, planned.parameters) if declared.parameters is defined else rankwise[declared.aggregate](spec) -%}
        {%- do entries.append(',\n        ' ~ aggregate ~ ' as ' ~ rankwise._component_column(instance)) -%}
    {%- endfor -%}
    {{ return(entries | join('')) }}
{% endmacro %}

{#- The aggregates, over rows within the cutoff carrying rw_rank, rw_relevance,
    rw_is_relevant and, where the source has them, rw_hits_so_far and
    rw_n_relevant. -#}

{% macro _aggregate_hits(spec) %}
    {{ return('count(case when rw_is_relevant = 1 then 1 end)') }}
{% endmacro %}

{#- The hits' inverse-propensity weights (propensity_col). -#}
{% macro _aggregate_weighted_hits(spec) %}
    {{ return('sum(case when rw_is_relevant = 1 then rw_weight else 0e0 end)') }}
{% endmacro %}

{#- The judged items: every row of the judged source, relevant or not. -#}
{% macro _aggregate_n_judged(spec) %}
    {{ return('count(*)') }}
{% endmacro %}

{#- P@rank at each relevant rank, read off the running count of hits. -#}
{% macro _aggregate_precision_sum(spec) %}
    {{ return('sum(case when rw_is_relevant = 1 then ' ~ rankwise.safe_divide('rw_hits_so_far', 'rw_rank') ~ ' else 0 end)') }}
{% endmacro %}

{#- NULL when no relevant item is within the cutoff. -#}
{% macro _aggregate_first_relevant_rank(spec) %}
    {{ return('min(case when rw_is_relevant = 1 then rw_rank end)') }}
{% endmacro %}

{#- With propensity_col, each gain times its interaction's weight. -#}
{% macro _aggregate_dcg(spec) %}
    {%- if spec.propensity is not none -%}
        {{ return('sum(' ~ rankwise.dcg_term('rw_rank', 'rw_relevance', spec.gain, spec.min_gain_relevance) ~ ' * rw_weight)') }}
    {%- endif -%}
    {{ return(rankwise.dcg_at_k('rw_rank', 'rw_relevance', none, spec.gain, spec.min_gain_relevance)) }}
{% endmacro %}

{#- Relevant items at ranks <= R, R carried on every row; read at the whole list. -#}
{% macro _aggregate_hits_within_n_relevant(spec) %}
    {{ return('count(case when rw_rank <= rw_n_relevant and rw_is_relevant = 1 then 1 end)') }}
{% endmacro %}

{#- A rank is at or before full recall when the relevant items strictly before it
    are still fewer than R, which needs no second pass to find that rank first. -#}
{% macro _before_full_recall() %}
    {{ return('rw_hits_so_far - rw_is_relevant < rw_n_relevant') }}
{% endmacro %}

{% macro _aggregate_precision_sum_to_full_recall(spec) %}
    {{ return('sum(case when ' ~ rankwise._before_full_recall() ~ ' then ' ~ rankwise.safe_divide('rw_hits_so_far', 'rw_rank') ~ ' else 0 end)') }}
{% endmacro %}

{% macro _aggregate_ranks_to_full_recall(spec) %}
    {{ return('count(case when ' ~ rankwise._before_full_recall() ~ ' then 1 end)') }}
{% endmacro %}

{#- The sum over the relevant ranks i of r_i p^(i-1), the rank-biased gain of
    RBP: r_i is 1 (gain='binary') or the item's relevance over the largest of the
    interactions (gain='graded'). -#}
{% macro _aggregate_rank_biased_gain(spec, parameters) %}
    {%- set gain = '1e0' if parameters.gain == 'binary' else 'case when rw_max_relevance > 0 then greatest(rw_relevance, 0e0) / rw_max_relevance else 0e0 end' -%}
    {{ return('sum(case when rw_is_relevant = 1 then ' ~ gain ~ ' * ' ~ rankwise.rank_biased_weight('rw_rank', parameters.p) ~ ' else 0e0 end)') }}
{% endmacro %}

{#- ERR's sum over the judged rows: the rows of items not in the truth stop no
    one and leave every product as it was, so only the judged rows add. -#}
{% macro _aggregate_expected_reciprocal_rank(spec) %}
    {%- set continuation = 'case when rw_stops_before > 0 then 0e0 when rw_log_continuation_before < -7e2 then 0e0 else exp(rw_log_continuation_before) end' -%}
    {{ return(rankwise.err_at_k('rw_rank', 'rw_stop_probability', continuation)) }}
{% endmacro %}

{#- The aggregates of trec_eval's other measures (bpref, infAP, interpolated
    precision...): trec_eval_aggregates.sql. -#}
