{#- The plan's strategies: the decisions the stage registry's entries name as
    their `strategy`, each picking which provider writes a stage (or that none
    does), from the metrics asked, the options and what the engine can do
    (cross_db/engine_capabilities.sql). -#}
{% macro _plan_strategies(spec) %}
    {%- set truth_properties = spec.user_metric_names | rejectattr('zero_without_list') | list | length > 0 -%}
    {%- set exact_metrics = rankwise._metric_names_where('exact_lengths') -%}
    {#- a metric not 0 for a list without a judged row (num_ret, num_rel): its
        means list every user; the one pass gives arithmetic means only -#}
    {%- set every_user = spec.user_metric_names | selectattr('every_user') | list | length > 0 -%}
    {%- set plain_means = spec.user_metric_names | rejectattr('summary', 'ne', 'mean') | list | length == spec.user_metric_names | length -%}
    {%- set exact_lengths = 'n_recommended' in spec.components and (spec.per_user or spec.precision_denominator == 'list_length'
                                                                    or spec.user_metric_names | selectattr('name', 'in', exact_metrics) | list | length > 0) -%}
    {%- set judged = rankwise._judged_strategy(spec, spec.components_from.judged,
                                               spec.user_group is none and not spec.per_user and spec.list_metrics | length == 0
                                               and spec.group_metrics | length == 0 and not truth_properties and not exact_lengths
                                               and spec.components_from.all_running | length == 0 and not every_user and plain_means) -%}
    {%- set means = 'one_pass' if judged == 'user_arrays' else ('per_user' if spec.per_user else ('listed' if every_user else 'counted')) -%}
    {%- if 'n_recommended' not in spec.components or means == 'one_pass' -%}
        {%- set lengths = none -%}
    {%- elif exact_lengths -%}
        {%- set lengths = 'exact' -%}
    {%- else -%}
        {#- with finite cutoffs only, nothing reads a length (precision divides by k) -#}
        {%- set lengths = 'whole_list' if none in spec.cutoffs else none -%}
    {%- endif -%}
    {{ return({
        'judged': judged,
        'means': means,
        'lengths': lengths,
        'ideal': rankwise._ideal_strategy(spec, spec.components_from.truth, means == 'one_pass'),
        'distance': 'cooccurrence' if spec.item_distance == 'cooccurrence' else 'features',
    }) }}
{% endmacro %}

{#- When each strategy is picked, for `rankwise explain`. -#}
{% macro _strategy_descriptions() %}
    {{ return({
        'judged': {
            'user_arrays': "one row per list with the arrays of its entries and of its user's interactions, every component read off them: the engine has lambdas over arrays and the plan is one set of means of per-user metrics that score 0 without a list",
            'rank_bits': "each list's judged and relevant ranks as the bits of two integers: the engine has bit operations, every cutoff is at most 62 and ranks are positions",
            'running_hits': "a window of running hits over the judged rows and one GROUP BY per (list, cutoff), on every engine",
        },
        'means': {
            'one_pass': "the sums, the users of each set and the checks in one aggregate over the user rows",
            'counted': "the users without a judged item are counted, not listed: each mean is the sum over the lists with one, over the users of the set",
            'listed': "one row per user of the set and cutoff, summed: a metric asked is not 0 for a list without a judged item (num_ret, num_rel)",
            'per_user': "one row per user and cutoff, every user of the set listed",
        },
        'lengths': {
            'exact': "the items within every cutoff (per-user output, precision_denominator='list_length', or a metric whose formula reads them: the registry's exact_lengths)",
            'whole_list': "the lists' lengths, read at the whole list only",
        },
        'ideal': {
            'k_slots': "idcg='k_positions': every one of the k slots holds a relevant item of gain 1",
            'equal_gains': "no relevance column: IDCG@k depends only on min(n, k), computed once per number of slots",
            'user_arrays': "off each user's interactions on its user row, in the one pass",
            'ranked_truth': "in the aggregate that counts each user's truth, over the truth numbered by relevance: the engine groups by sorting under little memory",
            'top_k_gains': "each user's top relevances from one aggregate (the engine has list aggregates)",
            'ideal_ranks': "a window numbering each user's interactions by relevance, on every engine",
        },
        'distance': {
            'features': "the catalog's vectors or features",
            'cooccurrence': "the train users two items share",
        },
    }) }}
{% endmacro %}

{#- How the judged components are computed (macros/evaluate/strategies/):
    'user_arrays' (one row per list with the arrays of its entries and of its
    user's truth, and the means in one aggregate over those rows, on an engine
    with lambdas over arrays) when every judged component has an array form and the plan is
    one set of means of per-user metrics that score 0 without a list
    (`means_of_user_rows`: no user groups or per-user output, no list or group
    metric, no list lengths within the cutoffs, no map_to_full_recall, no
    idcg); else 'rank_bits' (two bit sets of ranks per list, on an engine that has them)
    when every cutoff is finite and within the 62 bits, ranks are positions (a
    shared rank of tied scores would set one bit for two items), and every
    judged component can be read off the bits; else 'running_hits' (a window of
    running hits and a GROUP BY per (list, cutoff)). -#}
{% macro _judged_strategy(spec, judged_components, means_of_user_rows) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set finite_cutoffs = spec.cutoffs | reject('none') | list -%}
    {%- set off_bits = [] -%}
    {%- for instance in judged_components if not registry[spec.component_instances[instance].component].from_rank_bits %}{% do off_bits.append(instance) %}{% endfor -%}
    {%- set off_arrays = [] -%}
    {%- for instance in judged_components if registry[spec.component_instances[instance].component].from_user_arrays is not defined %}{% do off_arrays.append(instance) %}{% endfor -%}
    {%- if rankwise._engine_has_array_lambdas() and off_arrays | length == 0 and means_of_user_rows -%}
        {{ return('user_arrays') }}
    {%- endif -%}
    {%- if rankwise._engine_has_rank_bits() and spec.propensity is none and finite_cutoffs | length == spec.cutoffs | length and finite_cutoffs | length > 0
          and finite_cutoffs | max <= 62 and not (spec.score is not none and spec.ties == 'shared') and off_bits | length == 0 -%}
        {{ return('rank_bits') }}
    {%- endif -%}
    {{ return('running_hits') }}
{% endmacro %}

{#- How IDCG is computed (macros/evaluate/strategies/): 'k_slots' (idcg='k_positions':
    every one of the k slots relevant), 'equal_gains' (every interaction of
    relevance 1: sums over positions shared by every user), 'user_arrays'
    (the means in one pass, with relevances: off each user's truth entries,
    which its row holds), 'top_k_gains' (each user's top relevances from one
    aggregate, on an engine with arrays), 'ranked_truth' (in the aggregate
    that counts each user's truth, every cutoff finite, on an engine that
    groups by sorting) or 'ideal_ranks' (a window numbering each user's truth
    by relevance); none without IDCG. -#}
{% macro _ideal_strategy(spec, truth_components, one_pass=false) %}
    {%- if 'idcg' not in truth_components -%}
        {{ return(none) }}
    {%- elif spec.idcg == 'k_positions' -%}
        {{ return('k_slots') }}
    {%- elif spec.propensity is not none -%}
        {#- weighted gains: no two users' ideal lists share their terms -#}
        {{ return('ideal_ranks') }}
    {%- elif spec.relevance is none and spec.cutoffs | length > 0 and none not in spec.cutoffs and spec.cutoffs | max <= 10000 -%}
        {{ return('equal_gains') }}
    {%- elif one_pass and spec.relevance is not none -%}
        {{ return('user_arrays') }}
    {%- elif rankwise._engine_has_top_k_lists() -%}
        {{ return('top_k_gains') }}
    {%- elif rankwise._engine_groups_ranked_truth() and spec.cutoffs | length > 0 and none not in spec.cutoffs
          and spec.cutoffs | length <= 32 -%}
        {#- a column of rw_user_truth_counts per cutoff: past a few dozen, a row per (user, cutoff) is the smaller -#}
        {{ return('ranked_truth') }}
    {%- endif -%}
    {{ return('ideal_ranks') }}
{% endmacro %}
