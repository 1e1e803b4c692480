{#- Every metric rankwise.evaluate knows, as data: the planner and the stages
    read these entries and name no metric. An entry says:
      cutoff          whether the metric takes @k: true (a name without @k
                      takes the cutoffs of `k`), 'optional' (a name without @k
                      is the whole list, whatever `k` is) or false
      better          which way is better: 'higher', 'lower', or none for a
                      metric with no better side: the list-level ones (a
                      higher novelty, arp or popularity_lift is not a better
                      list, as compare's margin refusal says) and idcg (a
                      property of the truth); the report marks the best value
                      by it (metric_better)
      range           [lowest, highest] a value can take (none: unbounded; an
                      entry without it is unbounded both ways): an interval of a
                      mean is clipped to it, and says so (ci_clipped)
      level           'user' (one value per user with truth, averaged: the
                      accuracy metrics), 'list' (one value per list, averaged
                      over the lists: novelty, popularity) or 'group' (one value
                      per group, such as entropy)
      components      the per-list components its formula reads (see
                      _component_registry)
      formula         the macro that writes its SQL: formula(columns, k, spec),
                      `columns` mapping each value it reads to its column and `k`
                      the row's cutoff. A user-level metric reads its components;
                      a list-level one writes the value of one recommended item
                      (the list's value is their mean over the top k), or, with
                      `pairs`, the distance of one pair of the list's items; a
                      group-level one the value from its `aggregates`
      aggregates      group level: the macro writing the aggregates over the
                      group's items its formula reads: aggregates(items, spec),
                      `items` naming each item's top-k slots (exposures), their
                      share of the group's (share) and the item's place by slots
                      (ascending)
      pairs           list level: the macro writing the list's value from the
                      sum of its pairs' distances: pairs(columns, spec)
      reference       list level: the macro writing the list's value from its
                      overlap with the reference model's list of the same user
                      (stage_reference_overlap.sql): reference(columns, spec,
                      parameters)
      profile         list level: the macro writing the list's value from the
                      mean of its items' values (`formula`) and the same mean
                      over the user's own train items (stage_train_profiles.sql):
                      profile(columns, spec)
      calibration     list level: the list's value is the divergence of its
                      top k's item groups from its user's train items' groups
                      (stage_calibration.sql); the macro writes one group's
                      term: calibration(columns, spec, parameters)
      zero_without_list  true when a user with truth but no list scores 0 (every
                      metric but idcg and num_rel, properties of the user's truth)
      every_user      true when a list without a judged row within the cutoff
                      does not score 0 (num_ret, its length; num_rel, R;
                      unjudged): its
                      means list every user of the set (the means strategy
                      'listed') rather than count the ones without a judged row
      nonzero_without_a_hit  true when its mean can be above 0 though no list
                      holds a relevant item (a count of the judged items or
                      their weights, a geometric mean's floor, a worth given
                      to items that are not relevant): such a mean proves no
                      overlap (_metrics_shown_by_a_hit)
      summary         what its mean over the users is: 'mean' (none: the
                      arithmetic mean, with its interval), 'sum' (the total
                      over the users: trec_eval's counts) or 'geometric' (the
                      geometric mean of the values floored at 1e-5, trec_eval's
                      gm_map and gm_bpref); a total or geometric mean has no
                      interval, and compare refuses it. `rankwise trec_eval`
                      prints its `all` line as it is
      reads           what it reads besides the lists: the optional inputs
                      ('items': the catalog; 'train': the training interactions)
                      and the stages it needs, or what a stage provides
                      (macros/evaluate/stage_registry.sql)
      reads_when      the reads instead of `reads` under some option values: a
                      list of {'when': {option: value or [values]}, 'reads': [...]}
                      whose first match wins
      needs_cutoff    {'when': {option: value}, 'why': ...}: the whole list is
                      refused (when every condition holds)
      largest_cutoff  {'when': ..., 'k': ..., 'why': ...}: the largest cutoff
      bootstrap       group level: whether bootstrap_resamples gives it an
                      interval
      parameters      the parameters a metric string may give it,
                      as 'rbp(p=0.95)@20': {name: {'kind', 'default', 'choices',
                      'help'}}, kind 'probability' (a number above 0 and below
                      1), 'proportion' (from 0 to 1), 'positive' (above 0),
                      'number', 'choice' (one of `choices`) or 'boolean'; the formula
                      and the components' aggregates read their values. Every
                      per-user metric also takes `rel` (parse_metrics.sql)
      exact_lengths   user level: true when its formula reads the list's
                      length within every cutoff (n_recommended at each k,
                      not only the whole list's), which plans the exact
                      lengths (macros/planner/strategies.sql)
      weighted        user level: its inverse-propensity form under
                      propensity_col ({} for the same components and formula,
                      whose aggregates weigh each interaction; or its own
                      `components` and `formula`); a metric without one is
                      refused with propensity_col
      graded          user level: true when it reads relevance grades and no
                      relevance threshold (so takes no `rel`)
      browsing_exposure  group level: true when an item's slots within k are
                      weighted by the browsing model (exposure_model) instead of
                      counted: `items.exposures` is then the item's exposure
    Adding a metric: one entry here, its formula macro (from a building block in
    macros/metrics/, macros/diversity/ or macros/beyond_accuracy/), docs/metrics.md,
    tests. -#}
{% macro _metric_registry() %}
    {{ return({
        'precision':          {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits', 'n_recommended'], 'formula': '_formula_precision', 'zero_without_list': true},
        'recall':             {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits'], 'formula': '_formula_recall', 'zero_without_list': true,
                               'weighted': {'components': ['weighted_hits'], 'formula': '_formula_weighted_recall'}},
        'recall_cap':         {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits'], 'formula': '_formula_recall_cap', 'zero_without_list': true},
        'f1':                 {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits', 'n_recommended'], 'formula': '_formula_f1', 'zero_without_list': true,
                               'parameters': {'recall_weight': {'kind': 'positive', 'default': 1.0, 'help': "the weight of recall against precision, x in (x + 1) P R / (x P + R) (trec_eval's set_F.x; beta squared in van Rijsbergen's F)"}}},
        'hit_rate':           {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits'], 'formula': '_formula_hit_rate', 'zero_without_list': true},
        'map':                {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['precision_sum', 'hits'], 'formula': '_formula_map', 'zero_without_list': true,
                               'needs_cutoff': {'when': {'ap_denominator': 'k'}, 'why': "with ap_denominator='k'"}},
        'mrr':                {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['first_relevant_rank'], 'formula': '_formula_mrr', 'zero_without_list': true},
        'dcg':                {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, none],  'components': ['dcg'], 'formula': '_formula_dcg', 'zero_without_list': true, 'weighted': {}},
        'idcg':               {'cutoff': true,  'level': 'user', 'better': none, 'range': [0, none],  'components': ['idcg'], 'formula': '_formula_idcg', 'zero_without_list': false, 'weighted': {},
                               'reads': ['idcg_sums', 'truth_idcg_sums'],
                               'needs_cutoff': {'when': {'idcg': 'k_positions'}, 'why': "with idcg='k_positions'"},
                               'largest_cutoff': {'when': {'idcg': 'k_positions'}, 'k': 10000000, 'why': "with idcg='k_positions' sums the discount of every one of the k slots"}},
        'ndcg':               {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['dcg', 'idcg'], 'formula': '_formula_ndcg', 'zero_without_list': true, 'weighted': {},
                               'needs_cutoff': {'when': {'idcg': 'k_positions'}, 'why': "with idcg='k_positions'"},
                               'largest_cutoff': {'when': {'idcg': 'k_positions'}, 'k': 10000000, 'why': "with idcg='k_positions' sums the discount of every one of the k slots"}},
        'r_precision':        {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits_within_n_relevant'], 'formula': '_formula_r_precision', 'zero_without_list': true},
        'rbp':                {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['rank_biased_gain', 'n_recommended'], 'formula': '_formula_rbp', 'zero_without_list': true,
                               'parameters': {'p': {'kind': 'probability', 'default': 0.8, 'help': "the chance that the user goes on to the next rank"},
                                              'gain': {'kind': 'choice', 'choices': ['binary', 'graded'], 'default': 'binary', 'help': "a relevant item's gain: 1, or its relevance over the largest of the interactions"},
                                              'normalize': {'kind': 'boolean', 'default': false, 'help': "divide by 1 - p^min(R, k), the most a list can score (LensKit)"}}},
        'err':                {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['expected_reciprocal_rank'], 'formula': '_formula_err', 'zero_without_list': true, 'graded': true},
        'unjudged':           {'cutoff': true,  'level': 'user', 'better': none, 'range': [0, 1],  'components': ['n_judged', 'n_recommended'], 'formula': '_formula_unjudged', 'zero_without_list': true, 'exact_lengths': true,
                               'nonzero_without_a_hit': true, 'every_user': true},
        'judged':             {'cutoff': true,  'level': 'user', 'better': none, 'range': [0, 1],  'components': ['n_judged', 'n_recommended'], 'formula': '_formula_judged', 'zero_without_list': true, 'exact_lengths': true,
                               'nonzero_without_a_hit': true},
        'map_to_full_recall': {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['precision_sum_to_full_recall', 'ranks_to_full_recall'], 'formula': '_formula_map_to_full_recall', 'zero_without_list': true},
        'gm_map':             {'cutoff': true,  'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['precision_sum', 'hits'], 'formula': '_formula_map', 'zero_without_list': true,
                               'nonzero_without_a_hit': true, 'summary': 'geometric',
                               'needs_cutoff': {'when': {'ap_denominator': 'k'}, 'why': "with ap_denominator='k'"}},
        'bpref':              {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['bpref_sum'], 'formula': '_formula_bpref', 'zero_without_list': true},
        'gm_bpref':           {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['bpref_sum'], 'formula': '_formula_bpref', 'zero_without_list': true,
                               'nonzero_without_a_hit': true, 'summary': 'geometric'},
        'num_ret':            {'cutoff': false, 'level': 'user', 'better': none, 'range': [0, none],  'components': ['n_recommended'], 'formula': '_formula_num_ret', 'zero_without_list': true,
                               'every_user': true, 'summary': 'sum'},
        'num_rel':            {'cutoff': false, 'level': 'user', 'better': none, 'range': [0, none],  'components': [], 'formula': '_formula_num_rel', 'zero_without_list': false,
                               'every_user': true, 'summary': 'sum'},
        'num_rel_ret':        {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [0, none],  'components': ['hits'], 'formula': '_formula_hit_count', 'zero_without_list': true,
                               'summary': 'sum'},
        'num_nonrel_judged_ret': {'cutoff': false, 'level': 'user', 'better': none, 'range': [0, none],  'components': ['n_judged', 'hits'], 'formula': '_formula_num_nonrel_judged_ret',
                               'zero_without_list': true, 'nonzero_without_a_hit': true, 'summary': 'sum'},
        'iprec_at_recall':    {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['interpolated_precision'],
                               'formula': '_formula_interpolated_precision', 'zero_without_list': true,
                               'parameters': {'recall': {'kind': 'proportion', 'default': 0.0, 'help': "the recall level: the largest precision at a rank where recall is at least it"}}},
        'ap_11pt':            {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['interpolated_precision_11pt'],
                               'formula': '_formula_ap_11pt', 'zero_without_list': true},
        'r_precision_multiple': {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits_within_multiple_of_relevant'],
                               'formula': '_formula_r_precision_multiple', 'zero_without_list': true,
                               'parameters': {'m': {'kind': 'positive', 'default': 1.0, 'help': "the multiple of R: precision at rank floor(m R + 0.9)"}}},
        'relative_precision': {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits', 'n_recommended'],
                               'formula': '_formula_relative_precision', 'zero_without_list': true},
        'set_map':            {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['hits', 'n_recommended'], 'formula': '_formula_set_map',
                               'zero_without_list': true},
        'utility':            {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [none, none],  'components': ['hits', 'n_recommended'], 'formula': '_formula_utility',
                               'zero_without_list': true, 'nonzero_without_a_hit': true, 'every_user': true,
                               'parameters': {'a': {'kind': 'number', 'default': 1, 'help': "the worth of a relevant item retrieved"},
                                              'b': {'kind': 'number', 'default': -1, 'help': "the worth of an item retrieved that is not relevant"},
                                              'c': {'kind': 'number', 'default': 0, 'help': "the worth of a relevant item not retrieved"},
                                              'd': {'kind': 'number', 'default': 0, 'help': "the worth of an item neither retrieved nor relevant, of the n_items of the collection"},
                                              'n_items': {'kind': 'number', 'default': 0, 'help': "the items of the collection, which d reads (trec_eval's -N)"}}},
        'inf_ap':             {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['inf_ap_sum'], 'formula': '_formula_inf_ap',
                               'zero_without_list': true, 'reads_when': [{'when': {'negative_relevance': 'pooled'}, 'reads': ['pooled_before_on_rows']}]},
        'ndcg_rel':           {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['ndcg_rel_sum', 'gains_retrieved', 'n_gains', 'dcg', 'idcg'],
                               'formula': '_formula_ndcg_rel', 'zero_without_list': true},
        'bin_g':              {'cutoff': 'optional', 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['bin_g_sum'], 'formula': '_formula_bin_g',
                               'zero_without_list': true},
        'g':                  {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['g_sum', 'gain_total'], 'formula': '_formula_g',
                               'zero_without_list': true},
        'rndcg':              {'cutoff': false, 'level': 'user', 'better': 'higher', 'range': [0, 1],  'components': ['rndcg_sum', 'n_gain_levels', 'n_gains', 'dcg', 'idcg', 'n_recommended'],
                               'formula': '_formula_rndcg', 'zero_without_list': true},
        'rbp_residual':       {'cutoff': false, 'level': 'user', 'better': none, 'range': [0, 1],  'components': ['judged_rank_biased_weight', 'n_judged', 'n_recommended'],
                               'formula': '_formula_rbp_residual', 'zero_without_list': true, 'nonzero_without_a_hit': true, 'every_user': true,
                               'parameters': {'p': {'kind': 'probability', 'default': 0.8, 'help': "the chance that the user goes on to the next rank, as rbp's"}}},
        'entropy':            {'cutoff': true,  'level': 'group', 'better': 'higher', 'range': [0, none], 'formula': '_formula_entropy', 'aggregates': '_aggregates_entropy', 'bootstrap': true},
        'coverage':           {'cutoff': true,  'level': 'group', 'better': 'higher', 'range': [0, 1], 'formula': '_formula_coverage', 'aggregates': '_aggregates_coverage',
                               'reads': ['items', 'catalog_size'],
                               'reads_when': [{'when': {'coverage_of': ['train_items', 'train_item_count']}, 'reads': ['train', 'train_item_set']}]},
        'gini':               {'cutoff': true,  'level': 'group', 'better': 'lower', 'range': [0, 1], 'formula': '_formula_gini', 'aggregates': '_aggregates_gini',
                               'reads': ['items', 'catalog_size', 'item_order'],
                               'reads_when': [{'when': {'gini_items': 'shown'}, 'reads': ['item_order']}]},
        'exposure_gini':      {'cutoff': true,  'level': 'group', 'better': 'lower', 'range': [0, 1], 'formula': '_formula_exposure_gini', 'aggregates': '_aggregates_gini', 'browsing_exposure': true,
                               'reads': ['items', 'catalog_size', 'item_order']},
        'exposure_disparity': {'cutoff': true,  'level': 'group', 'better': 'lower', 'range': [0, 1], 'formula': '_formula_exposure_disparity', 'aggregates': '_aggregates_none', 'browsing_exposure': true,
                               'reads': ['items', 'item_groups', 'relevance_shares']},
        'personalization':    {'cutoff': true,  'level': 'group', 'better': 'higher', 'range': [0, 1], 'formula': '_formula_personalization', 'aggregates': '_aggregates_personalization',
                               'needs_cutoff': {'when': {}, 'why': "(the share of k slots two lists have in common)"}},
        'novelty':            {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, none],  'formula': '_formula_novelty', 'reads': ['train', 'train_popularity'],
                               'reads_when': [{'when': {'novelty_unseen': 'dropped'}, 'reads': ['train', 'train_popularity', 'own_item_count']}]},
        'arp':                {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, none],  'formula': '_formula_arp', 'reads': ['train', 'train_popularity']},
        'long_tail_share':    {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, 1],  'formula': '_formula_long_tail_share', 'reads': ['train', 'train_popularity', 'head']},
        'serendipity':        {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, 1],  'formula': '_formula_serendipity',
                               'reads': ['items', 'train', 'catalog_size', 'train_popularity', 'popularity_rank', 'shown_relevance']},
        'intra_list_diversity': {'cutoff': true, 'level': 'list', 'better': none, 'range': [0, none], 'formula': '_formula_item_distance', 'pairs': '_pairs_intra_list_diversity',
                               'reads': ['items', 'item_features', 'list_diversity'],
                               'reads_when': [{'when': {'item_distance': 'cooccurrence'}, 'reads': ['train', 'train_popularity', 'list_diversity']}]},
        'popularity_lift':    {'cutoff': true,  'level': 'list', 'better': none, 'range': [-1, none],  'formula': '_formula_item_popularity', 'profile': '_profile_popularity_lift',
                               'reads': ['train', 'train_popularity', 'train_profiles']},
        'miscalibration':     {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, none],  'calibration': '_calibration_miscalibration', 'reads': ['items', 'train', 'train_popularity', 'item_groups', 'calibration'],
                               'parameters': {'alpha': {'kind': 'probability', 'default': 0.01, 'help': "the list's share of a group mixed with the user's, (1 - alpha) q + alpha p, so that a group the list lacks keeps the divergence finite (Steck 2018)"}}},
        'rbo':                {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, 1],  'reference': '_reference_rbo', 'reads': ['reference_lists', 'overlap_weights'],
                               'needs_cutoff': {'when': {}, 'why': "(both lists are cut at k, and RBO_ext extrapolates from there)"},
                               'largest_cutoff': {'when': {}, 'k': 10000000, 'why': "reads its weights from a table of every depth up to k"},
                               'parameters': {'p': {'kind': 'probability', 'default': 0.9, 'help': "the persistence: depth d weighs p^(d-1) times depth 1's"}}},
        'intersection':       {'cutoff': true,  'level': 'list', 'better': none, 'range': [0, 1],  'reference': '_reference_intersection', 'reads': ['reference_lists'],
                               'needs_cutoff': {'when': {}, 'why': "(the share of a list's top k in the reference list's top k)"}},
    }) }}
{% endmacro %}

{#- What one metric reads besides the lists under the options of `options`:
    its `reads`, or those of the first `reads_when` whose conditions hold. -#}
{% macro _metric_reads(name, options) %}
    {%- set metric = rankwise._metric_registry()[name] -%}
    {%- for case in metric.get('reads_when', []) if rankwise._options_match(case.when, options) -%}
        {{ return(case.reads) }}
    {%- endfor -%}
    {{ return(metric.get('reads', [])) }}
{% endmacro %}

{#- The optional inputs (items, train) one metric reads under `options`. -#}
{% macro _metric_inputs(name, options) %}
    {{ return(rankwise._metric_reads(name, options) | select('in', ['items', 'train']) | list) }}
{% endmacro %}

{#- Whether every condition of `when` ({option: value or [values]}) holds in
    `options`. -#}
{% macro _options_match(when, options) %}
    {%- for option, value in when.items() -%}
        {%- if options[option] not in (value if value is iterable and value is not string else [value]) -%}
            {{ return(false) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(true) }}
{% endmacro %}

{#- The metrics whose mean is above 0 only if some list holds one of its user's
    relevant items: the user-level metrics with a component counted over the
    lists' rows found in the interactions (a list without such a row has none
    of it, and the formulas are 0 then), but those whose registry says
    nonzero_without_a_hit. Such a mean proves that the two tables share a user
    and an item, which the wrapper's overlap check would otherwise have to
    ask. -#}
{% macro _metrics_shown_by_a_hit() %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set names = [] -%}
    {%- for name, metric in rankwise._metric_registry().items() if metric.level == 'user' and not metric.get('nonzero_without_a_hit') -%}
        {%- set sources = [] -%}
        {%- for component in metric.components %}{% do sources.append(registry[component].source) %}{% endfor -%}
        {%- if 'judged' in sources or 'all_running' in sources %}{% do names.append(name) %}{% endif -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}

{#- The SQL of one planned per-user metric (the plan's user_metric_names entry:
    its name, parameters and component instances) for one row of (list,
    cutoff), through its formula macro; the row's cutoff is the column rw_k (NULL
    for the whole list). A metric with parameters gets them as a fourth
    argument. -#}
{% macro _metric_expression(planned, spec) %}
    {%- set metric = rankwise._metric_registry()[planned.name] -%}
    {%- set columns = {'n_relevant': 'rw_n_relevant', 'weighted_relevant': 'rw_weighted_relevant'} -%}
    {%- set formula = metric.weighted.formula if spec.propensity is not none and metric.weighted is defined and metric.weighted.formula is defined else metric.formula -%}
    {%- for component in planned.component_instances -%}
        {%- do columns.update({component: rankwise._component_column(planned.component_instances[component])}) -%}
    {%- endfor -%}
    {%- if metric.parameters is defined -%}
        {{ return(rankwise[formula](columns, 'rw_k', spec, planned.parameters)) }}
    {%- endif -%}
    {{ return(rankwise[formula](columns, 'rw_k', spec)) }}
{% endmacro %}

{#- The formulas: each hands the component columns to the public building block. -#}

{% macro _formula_precision(columns, k, spec) %}
    {{ return(rankwise.precision_at_k(columns.hits, k, columns.n_recommended, spec.precision_denominator)) }}
{% endmacro %}

{% macro _formula_recall(columns, k, spec) %}
    {{ return(rankwise.recall_at_k(columns.hits, columns.n_relevant)) }}
{% endmacro %}

{#- The relevant items a list of k can hold, min(R, k), in the denominator (BEIR). -#}
{% macro _formula_recall_cap(columns, k, spec) %}
    {{ return(rankwise.recall_cap_at_k(columns.hits, columns.n_relevant, k)) }}
{% endmacro %}

{#- Self-normalised: the weights of the hits over those of the relevant items. -#}
{% macro _formula_weighted_recall(columns, k, spec) %}
    {{ return(rankwise.recall_at_k(columns.weighted_hits, columns.weighted_relevant)) }}
{% endmacro %}

{% macro _formula_f1(columns, k, spec, parameters) %}
    {{ return(rankwise.f1_at_k(columns.hits, columns.n_relevant, k, columns.n_recommended, spec.precision_denominator, parameters.recall_weight)) }}
{% endmacro %}

{% macro _formula_hit_rate(columns, k, spec) %}
    {{ return(rankwise.hit_rate_at_k(columns.hits)) }}
{% endmacro %}

{% macro _formula_map(columns, k, spec) %}
    {{ return(rankwise.average_precision_at_k(columns.precision_sum, columns.n_relevant, k, columns.hits, spec.ap_denominator)) }}
{% endmacro %}

{#- The first relevant rank is already that within the cutoff. -#}
{% macro _formula_mrr(columns, k, spec) %}
    {{ return(rankwise.reciprocal_rank_at_k(columns.first_relevant_rank)) }}
{% endmacro %}

{% macro _formula_dcg(columns, k, spec) %}
    {{ return(columns.dcg) }}
{% endmacro %}

{% macro _formula_idcg(columns, k, spec) %}
    {{ return(columns.idcg) }}
{% endmacro %}

{% macro _formula_ndcg(columns, k, spec) %}
    {{ return(rankwise.ndcg_at_k(columns.dcg, columns.idcg)) }}
{% endmacro %}

{#- The hits within the top min(R, k) come from the rows within the cutoff. -#}
{% macro _formula_r_precision(columns, k, spec) %}
    {{ return(rankwise.r_precision(columns.hits_within_n_relevant, columns.n_relevant, k)) }}
{% endmacro %}

{#- The list length stands for k on the whole list, where only normalize reads it. -#}
{% macro _formula_rbp(columns, k, spec, parameters) %}
    {{ return(rankwise.rbp_at_k(columns.rank_biased_gain, parameters.p, parameters.normalize, columns.n_relevant,
                                'coalesce(' ~ k ~ ', ' ~ columns.n_recommended ~ ')')) }}
{% endmacro %}

{% macro _formula_err(columns, k, spec) %}
    {{ return(columns.expected_reciprocal_rank) }}
{% endmacro %}

{#- The share of the top min(k, n) that is judged (ir_measures' Judged@k):
    n_recommended is the list's length within the cutoff. -#}
{% macro _formula_judged(columns, k, spec) %}
    {{ return(rankwise.judged_at_k(columns.n_judged, columns.n_recommended)) }}
{% endmacro %}

{#- trec_eval's unj: the unjudged items within the top k over k, the slots
    past the end of a shorter list counting as judged (m_unjudged.c); on the
    whole list, over its length. -#}
{% macro _formula_unjudged(columns, k, spec) %}
    {{ return(rankwise.unjudged_at_k(columns.n_judged, columns.n_recommended, k)) }}
{% endmacro %}

{% macro _formula_map_to_full_recall(columns, k, spec) %}
    {{ return(rankwise.map_to_full_recall_at_k(columns.precision_sum_to_full_recall, columns.ranks_to_full_recall)) }}
{% endmacro %}

{#- bpref (Buckley & Voorhees 2004): its terms' sum over R; 0 when R is 0. -#}
{% macro _formula_bpref(columns, k, spec) %}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.bpref_sum, columns.n_relevant) ~ ', 0e0)') }}
{% endmacro %}

{#- The counts of trec_eval (summed over the users): the items of the list, the
    user's relevant items (R), the relevant items retrieved and the judged
    non-relevant ones retrieved. -#}
{% macro _formula_num_ret(columns, k, spec) %}
    {{ return(columns.n_recommended) }}
{% endmacro %}

{% macro _formula_num_rel(columns, k, spec) %}
    {{ return(columns.n_relevant) }}
{% endmacro %}

{% macro _formula_hit_count(columns, k, spec) %}
    {{ return(columns.hits) }}
{% endmacro %}

{% macro _formula_num_nonrel_judged_ret(columns, k, spec) %}
    {{ return('(' ~ columns.n_judged ~ ' - ' ~ columns.hits ~ ')') }}
{% endmacro %}

{#- Interpolated precision at a recall level (trec_eval's iprec_at_recall):
    0 when no relevant item reaches the level. -#}
{% macro _formula_interpolated_precision(columns, k, spec, parameters) %}
    {{ return('coalesce(' ~ columns.interpolated_precision ~ ', 0e0)') }}
{% endmacro %}

{#- The 11-point interpolated average precision: the mean of the interpolated
    precisions at recall 0, 0.1, ..., 1 (their sum is the component). -#}
{% macro _formula_ap_11pt(columns, k, spec) %}
    {{ return('(' ~ columns.interpolated_precision_11pt ~ ' / 11e0)') }}
{% endmacro %}

{#- Precision at rank n = floor(m R + 0.9) (trec_eval's Rprec_mult): the hits
    within it over n; 0 when n is 0. -#}
{% macro _formula_r_precision_multiple(columns, k, spec, parameters) %}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.hits_within_multiple_of_relevant, rankwise._rank_at_multiple_of_relevant(parameters.m, columns.n_relevant)) ~ ', 0e0)') }}
{% endmacro %}

{#- Precision over the most a list of its size could score, hits / min(k, R)
    (trec_eval's relative_P), or on the whole list hits / min(n, R), n its
    length (set_relative_P); 0 when R or n is 0. -#}
{% macro _formula_relative_precision(columns, k, spec) %}
    {%- set size = 'coalesce(' ~ k ~ ', ' ~ columns.n_recommended ~ ')' -%}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.hits, 'least(' ~ size ~ ', ' ~ columns.n_relevant ~ ')') ~ ', 0e0)') }}
{% endmacro %}

{#- trec_eval's set_map: h^2 / (n R), the list's precision times its recall;
    0 when n or R is 0. -#}
{% macro _formula_set_map(columns, k, spec) %}
    {%- set float = rankwise.type_float64() -%}
    {{ return('coalesce(' ~ rankwise.safe_divide('cast(' ~ columns.hits ~ ' as ' ~ float ~ ') * ' ~ columns.hits,
                                                  'cast(' ~ columns.n_recommended ~ ' as ' ~ float ~ ') * ' ~ columns.n_relevant) ~ ', 0e0)') }}
{% endmacro %}

{#- trec_eval's utility: a h + b (n - h) + c (R - h) + d (N - n - R + h), the
    worth of the relevant items retrieved, of the others retrieved, of the
    relevant items missed, and of the items neither retrieved nor relevant
    among the N of the collection (the parameter n_items, trec_eval's -N),
    written only when d is not 0. -#}
{% macro _formula_utility(columns, k, spec, parameters) %}
    {%- set hits = columns.hits -%}
    {%- set neither = '' -%}
    {%- if parameters.d != 0 -%}
        {%- set neither = ' + ' ~ rankwise._double_literal(parameters.d) ~ ' * (' ~ rankwise._double_literal(parameters.n_items) ~ ' - '
                          ~ columns.n_recommended ~ ' - ' ~ columns.n_relevant ~ ' + ' ~ hits ~ ')' -%}
    {%- endif -%}
    {{ return('(' ~ rankwise._double_literal(parameters.a) ~ ' * ' ~ hits ~ ' + ' ~ rankwise._double_literal(parameters.b) ~ ' * (' ~ columns.n_recommended ~ ' - ' ~ hits
              ~ ') + ' ~ rankwise._double_literal(parameters.c) ~ ' * (' ~ columns.n_relevant ~ ' - ' ~ hits ~ ')' ~ neither ~ ')') }}
{% endmacro %}

{#- infAP (Yilmaz & Aslam 2006, as trec_eval's m_infap.c): its terms' sum
    over R; 0 when R is 0. -#}
{% macro _formula_inf_ap(columns, k, spec) %}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.inf_ap_sum, columns.n_relevant) ~ ', 0e0)') }}
{% endmacro %}

{#- trec_eval's ndcg_rel: nDCG averaged over the Rg items that earn a gain, at
    each one's rank, a missed one scoring the list's nDCG; 0 when Rg is 0. -#}
{% macro _formula_ndcg_rel(columns, k, spec) %}
    {%- set missed = '(' ~ columns.n_gains ~ ' - ' ~ columns.gains_retrieved ~ ') * ' ~ rankwise.ndcg_at_k(columns.dcg, columns.idcg) -%}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.ndcg_rel_sum ~ ' + ' ~ missed, columns.n_gains) ~ ', 0e0)') }}
{% endmacro %}

{#- trec_eval's G: the sum over the items that earn a gain of the gain over
    log2(2 + C - S), C the ideal list's cost up to the rank and S the list's
    gains up to it, over the ideal list's gains; 0 when they are 0. -#}
{% macro _formula_g(columns, k, spec) %}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.g_sum, columns.gain_total) ~ ', 0e0)') }}
{% endmacro %}

{#- trec_eval's Rndcg: nDCG at the end of each gain level of the ideal list
    (its R levels), and at the list's end when that is more than one rank past
    the ideal list's, averaged; 0 when R is 0. -#}
{% macro _formula_rndcg(columns, k, spec) %}
    {%- set past_ideal_end = columns.n_recommended ~ ' > ' ~ columns.n_gains ~ ' + 1' -%}
    {%- set numerator = columns.rndcg_sum ~ ' + case when ' ~ past_ideal_end ~ ' then ' ~ rankwise.ndcg_at_k(columns.dcg, columns.idcg) ~ ' else 0e0 end' -%}
    {%- set denominator = columns.n_gain_levels ~ ' + case when ' ~ past_ideal_end ~ ' then 1 else 0 end' -%}
    {{ return('case when ' ~ columns.n_relevant ~ ' = 0 then 0e0 else coalesce(' ~ rankwise.safe_divide(numerator, denominator) ~ ', 0e0) end') }}
{% endmacro %}

{#- trec_eval's binG: the sum over the relevant items of 1 / log2(2 + the
    items above them that are not relevant), over R; 0 when R is 0. -#}
{% macro _formula_bin_g(columns, k, spec) %}
    {{ return('coalesce(' ~ rankwise.safe_divide(columns.bin_g_sum, columns.n_relevant) ~ ', 0e0)') }}
{% endmacro %}

{#- RBP's residual (Moffat & Zobel 2008; trec_eval's rbp_resid): what RBP
    could still gain were every unjudged item of the list relevant, and the
    list go on relevant past its end, p^n + (1 - p) sum over the unjudged
    ranks i of p^(i-1), which is 1 - (1 - p) times the judged ranks' sum;
    0, as trec_eval's, for a list whose every item is judged. -#}
{% macro _formula_rbp_residual(columns, k, spec, parameters) %}
    {{ return('(case when ' ~ columns.n_judged ~ ' < ' ~ columns.n_recommended ~ ' then 1e0 - (1e0 - ' ~ rankwise._double_literal(parameters.p) ~ ') * '
              ~ columns.judged_rank_biased_weight ~ ' else 0e0 end)') }}
{% endmacro %}

{#- A group-level formula reads the aggregates over the group's items that its
    `aggregates` macro writes (stage_group_metrics.sql), from each item's top-k
    slots (`items.exposures`), their share of the group's (`items.share`) and
    the item's place when the group's items are numbered in ascending order of
    their slots (`items.ascending`, for the metrics that read item_order). -#}

{#- entropy: the sum of its terms over the items' shares. -#}
{% macro _aggregates_entropy(items, spec) %}
    {{ return([('entropy', rankwise.entropy_at_k(items.share, spec.log_base))]) }}
{% endmacro %}

{% macro _formula_entropy(columns, k, spec) %}
    {{ return(columns.entropy) }}
{% endmacro %}

{% macro _aggregates_coverage(items, spec) %}
    {%- if spec.coverage_of == 'train_items' -%}
        {{ return([('n_train_items_exposed', 'count(case when ' ~ items.exposures ~ ' > 0 and ' ~ items.in_train ~ ' then 1 end)')]) }}
    {%- endif -%}
    {{ return([('n_items_exposed', 'count(case when ' ~ items.exposures ~ ' > 0 then 1 end)')]) }}
{% endmacro %}

{#- coverage_of: the catalog shown; the train items shown, of the train items
    (Evidently); or the items shown over the train items (Recommenders). -#}
{% macro _formula_coverage(columns, k, spec) %}
    {%- if spec.coverage_of == 'train_items' -%}
        {{ return(rankwise.catalog_coverage(columns.n_train_items_exposed, columns.train_items)) }}
    {%- elif spec.coverage_of == 'train_item_count' -%}
        {{ return(rankwise.catalog_coverage(columns.n_items_exposed, columns.train_items)) }}
    {%- endif -%}
    {{ return(rankwise.catalog_coverage(columns.n_items_exposed, columns.catalog_size)) }}
{% endmacro %}

{#- gini_items: over the catalog, the items never shown counting 0; or over the
    items shown within k only, normalised by n - 1 (Evidently). -#}
{% macro _formula_gini(columns, k, spec) %}
    {%- if spec.gini_items == 'shown' -%}
        {{ return(rankwise.gini_index(columns.ascending_weighted_exposures, columns.total_exposures, columns.n_items,
                                      columns.n_items_exposed, '(' ~ columns.n_items_exposed ~ ' - 1)')) }}
    {%- endif -%}
    {{ return(rankwise.gini_index(columns.ascending_weighted_exposures, columns.total_exposures, columns.n_items, columns.catalog_size)) }}
{% endmacro %}

{#- Each aggregate's column is rw_<name>__<position>: no name of the items'
    columns (rw_exposures__<position>), which ClickHouse would read as the
    aggregate beside it. -#}
{% macro _aggregates_gini(items, spec) %}
    {{ return([('ascending_weighted_exposures', 'sum(' ~ items.ascending ~ ' * ' ~ items.exposures ~ ')'),
               ('total_exposures', 'sum(' ~ items.exposures ~ ')'),
               ('n_items_exposed', 'count(case when ' ~ items.exposures ~ ' > 0 then 1 end)')]) }}
{% endmacro %}

{#- exposure_gini: gini's formula over the catalog (the items never shown
    counting 0) with each item's exposure in place of its slots, as LensKit's
    ExposureGini; gini_items does not apply. -#}
{% macro _formula_exposure_gini(columns, k, spec) %}
    {{ return(rankwise.gini_index(columns.ascending_weighted_exposures, columns.total_exposures, columns.n_items, columns.catalog_size)) }}
{% endmacro %}

{#- exposure_disparity reads no aggregate over the group's items: a sum over
    item groups of their shares, from rw_item_group_disparity
    (stage_item_groups.sql), in `columns.item_group_disparity`. -#}
{% macro _aggregates_none(items, spec) %}
    {{ return([]) }}
{% endmacro %}

{% macro _formula_exposure_disparity(columns, k, spec) %}
    {{ return(columns.item_group_disparity) }}
{% endmacro %}

{% macro _aggregates_personalization(items, spec) %}
    {{ return([('exposure_pairs', 'sum(' ~ items.exposures ~ ' * (' ~ items.exposures ~ ' - 1))')]) }}
{% endmacro %}

{% macro _formula_personalization(columns, k, spec) %}
    {{ return(rankwise.personalization_at_k(columns.exposure_pairs, columns.n_lists, k)) }}
{% endmacro %}

{#- A list-level formula reads one recommended item's train popularity
    (stage_popularity.sql): the item's users and interactions, the train
    table's users and interactions, and whether the item is in the head. -#}
{% macro _formula_novelty(columns, k, spec) %}
    {%- if spec.novelty_popularity == 'users' -%}
        {{ return(rankwise.item_novelty(columns.item_users, columns.train_users, spec.novelty_unseen)) }}
    {%- endif -%}
    {{ return(rankwise.item_novelty(columns.item_interactions, columns.train_interactions, spec.novelty_unseen)) }}
{% endmacro %}

{% macro _formula_arp(columns, k, spec) %}
    {%- if spec.arp_popularity == 'users' -%}
        {{ return(rankwise.safe_divide('coalesce(' ~ columns.item_users ~ ', 0)', columns.train_users)) }}
    {%- endif -%}
    {{ return(rankwise.safe_divide('coalesce(' ~ columns.item_interactions ~ ', 0)', columns.train_interactions)) }}
{% endmacro %}

{#- popularity_lift: an item's popularity as arp reads it (arp_popularity), a
    raw count: the share's denominator cancels in the lift. -#}
{% macro _formula_item_popularity(columns, k, spec) %}
    {%- if spec.arp_popularity == 'users' -%}
        {{ return('cast(coalesce(' ~ columns.item_users ~ ', 0) as ' ~ rankwise.type_float64() ~ ')') }}
    {%- endif -%}
    {{ return('cast(coalesce(' ~ columns.item_interactions ~ ', 0) as ' ~ rankwise.type_float64() ~ ')') }}
{% endmacro %}

{#- The list's mean popularity over its user's train items' (the profile's
    popularity counts of the same measure, over its items). -#}
{% macro _profile_popularity_lift(columns, spec) %}
    {%- set profile_sum = columns.profile_users if spec.arp_popularity == 'users' else columns.profile_interactions -%}
    {{ return(rankwise.popularity_lift(columns.list_mean, rankwise.safe_divide(profile_sum, columns.profile_items))) }}
{% endmacro %}

{#- miscalibration: one train group's term of KL(p || q~). -#}
{% macro _calibration_miscalibration(columns, spec, parameters) %}
    {{ return(rankwise.calibration_term(columns.train_share, columns.list_share, parameters.alpha)) }}
{% endmacro %}

{#- Relevant items only: how much higher the list ranks the item than its
    popularity does (RecTools' Serendipity). -#}
{% macro _formula_serendipity(columns, k, spec) %}
    {{ return(rankwise.item_serendipity(columns.rank, columns.popularity_rank, columns.catalog_size, columns.relevant)) }}
{% endmacro %}

{#- The distance of one pair of a list's items (stage_list_diversity.sql), and
    the list's value from their sum: over its pairs, or over its items with
    diversity_denominator='list_length'. -#}
{% macro _pairs_intra_list_diversity(columns, spec) %}
    {%- if spec.diversity_denominator == 'list_length' -%}
        {#- a list of one item has no pair: 0 over its one item -#}
        {{ return(rankwise.safe_divide('coalesce(' ~ columns.distance_sum ~ ', 0e0)', columns.n_items)) }}
    {%- endif -%}
    {%- if spec.single_item_diversity == 'zero' -%}
        {#- a list of one item has no pair: 0 (RecTools) -#}
        {{ return('case when ' ~ columns.n_items ~ ' = 1 then 0e0 else ' ~ rankwise.safe_divide(columns.distance_sum, columns.pairs) ~ ' end') }}
    {%- endif -%}
    {#- a list of one item has no pair, and no value -#}
    {{ return(rankwise.safe_divide(columns.distance_sum, columns.pairs)) }}
{% endmacro %}

{% macro _formula_item_distance(columns, k, spec) %}
    {%- if spec.item_distance == 'cooccurrence' -%}
        {{ return(rankwise.cooccurrence_distance(columns.users_of_both, columns.users_of_first, columns.users_of_second)) }}
    {%- elif spec.item_distance == 'hamming' -%}
        {{ return(rankwise.hamming_distance(columns.first_features, columns.second_features)) }}
    {%- endif -%}
    {{ return(rankwise.cosine_distance(columns.dot_product, columns.first_norm, columns.second_norm)) }}
{% endmacro %}

{% macro _formula_long_tail_share(columns, k, spec) %}
    {{ return('case when ' ~ columns.in_head ~ ' = 1 then 0e0 else 1e0 end') }}
{% endmacro %}

{#- A reference-list formula reads the overlap of a list with the reference
    model's list of the same user, both cut at k (stage_reference_overlap.sql):
    the items they share (common), those of them within the shorter list's depth
    (common_within_short), the two depths (short_depth, long_depth: the largest
    rank within k of each list), the list's items within k (n_items) and the sum
    over the shared items of the tail of the depth weights p^d / d that RBO_ext
    adds up (weight_tail). -#}

{#- RBO_ext (Webber, Moffat & Zobel 2010, equation 32): rank_biased_overlap.sql. -#}
{% macro _reference_rbo(columns, spec, parameters) %}
    {{ return(rankwise.rank_biased_overlap(columns.weight_tail, columns.common, columns.common_within_short,
                                           columns.short_depth, columns.long_depth, parameters.p)) }}
{% endmacro %}

{#- RecTools' Intersection: the share of the list's top k in the reference's top k. -#}
{% macro _reference_intersection(columns, spec, parameters) %}
    {{ return(rankwise.safe_divide(columns.common, columns.n_items)) }}
{% endmacro %}
