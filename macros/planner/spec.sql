{#- The plan of rankwise.evaluate and rankwise.compare, assembled: every
    argument checked and resolved into one spec, so that the stages read
    decisions instead of re-deriving them: which metric at which cutoff, which
    per-list components each source computes, the strategies, the stages and
    the quoted column names. `options` holds every option of the registry
    (conventions/convention_options.sql's _option_registry) as given (a preset
    option left out is none: take the convention's value). `macro_name` names
    the function called (evaluate, compare...) in every error, as the plan's
    `spec.macro_name` for the checks that read the plan. The Python wrapper
    reads the same plan (planner/contract.sql) and re-derives none of it. -#}
{% macro _evaluate_spec(metrics, k, group_by, per_user, options, partition_by, macro_name) %}
    {%- set resolved = rankwise._resolved_options(options, per_user, macro_name) -%}
    {%- set every_metric = rankwise._parse_metrics(metrics, k, macro_name) -%}
    {%- set group_by = rankwise._groups_with_model(every_metric, group_by, partition_by, resolved, macro_name) -%}
    {%- set quoted_partitions = rankwise._checked_columns(resolved, partition_by, 'partition_by', macro_name) -%}
    {%- set quoted_groups = rankwise._checked_columns(resolved, group_by, 'group_by', macro_name) -%}
    {%- set user_group = rankwise._user_group_column(resolved, group_by, partition_by, macro_name) -%}
    {%- for column in quoted_groups if column in quoted_partitions -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": column " ~ column ~ " is in both `partition_by` and `group_by`; a partition is already a group of the output, so list it in `partition_by` only.") }}
    {%- endfor -%}
    {#- a metric whose parameters set options of their own (`rel`) is computed
        in an evaluation of its own under them: `threshold_parts` -#}
    {%- set own = [] -%}
    {%- set parts = [] -%}
    {%- for entry in every_metric -%}
        {%- set overrides = rankwise._parameter_overrides(entry.parameters) -%}
        {%- if rankwise._options_match(overrides, resolved) -%}
            {%- do own.append(entry) -%}
        {%- else -%}
            {%- set part = (parts | selectattr('overrides', 'equalto', overrides) | list or [none])[0] -%}
            {%- if part is none -%}
                {%- set part = {'overrides': overrides, 'metrics': []} -%}
                {%- do parts.append(part) -%}
            {%- endif -%}
            {%- if entry.asked not in part.metrics %}{% do part.metrics.append(entry.asked) %}{% endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do rankwise._check_weighted_metrics(every_metric, resolved, macro_name) -%}
    {%- set planned = rankwise._planned_metrics(own, per_user, resolved, macro_name) -%}
    {#- the cutoffs of `k`, shared by every metric given without @k -#}
    {%- set default_cutoffs = [none] if k is none else ([k] if k is integer else k | list) -%}
    {%- set spec = {
        'requested': planned.requested,
        'threshold_parts': parts,
        'every_metric': every_metric,
        'default_cutoffs': default_cutoffs,
        'user_metrics': planned.user_metrics,
        'group_metrics': planned.group_metrics,
        'list_metrics': planned.list_metrics,
        'components': planned.components,
        'component_instances': planned.component_instances,
        'cutoffs': planned.cutoffs,
        'user_sets': planned.user_metrics | map(attribute='users') | unique | list,
        'partitions': quoted_partitions,
        'groups': quoted_partitions + quoted_groups + ([user_group] if user_group is not none else []),
        'user_group': user_group,
        'per_user': per_user,
        'options': resolved,
        'user': rankwise.quote_identifier(resolved.user_col),
        'item': rankwise.quote_identifier(resolved.item_col),
        'rank': rankwise.quote_identifier(resolved.rank_col),
        'score': none if resolved.score_col is none else rankwise.quote_identifier(resolved.score_col),
        'relevance': none if resolved.relevance_col is none else rankwise.quote_identifier(resolved.relevance_col),
        'propensity': none if resolved.propensity_col is none else rankwise.quote_identifier(resolved.propensity_col),
        'min_gain_relevance': none if resolved.gain_items == 'positive' else resolved.relevance_threshold,
        'input_guard': false,
        'macro_name': macro_name,
        'model': none if resolved.model_col is none else rankwise.quote_identifier(resolved.model_col),
        'reference_value': rankwise._model_literal(resolved.reference, macro_name),
    } -%}
    {#- the stages read the options that are not columns by name: spec.gain -#}
    {%- for name, option in rankwise._option_registry().items() if not option.kind.endswith('column') and not option.kind.endswith('columns') -%}
        {%- do spec.update({name: resolved[name]}) -%}
    {%- endfor -%}
    {%- do spec.update(rankwise._planned_reads(spec)) -%}
    {%- do spec.update({
        'facts': {'grouped': spec.groups | length > 0, 'partitioned': spec.partitions | length > 0, 'per_user': per_user},
        'list_keys': spec.groups + ['rw_user'],
        'whole_list': '9223372036854775807',
        'inlined_recommendations': spec.score is none,
    }) -%}
    {%- set strategies = rankwise._plan_strategies(spec) -%}
    {#- the means of a metric not 0 without a judged row list every user of
        the set, as the per-user rows do -#}
    {%- set every_user_rows = per_user or strategies.means == 'listed' -%}
    {%- do spec.update({'every_user_rows': every_user_rows,
                        'rows_for_users_without_list': every_user_rows and 'interactions' in spec.user_sets}) -%}
    {%- do spec.facts.update({'every_user_rows': every_user_rows}) -%}
    {#- the IDCG of every user of the interactions, not only of those with a
        judged list: a metric that is not 0 without a list (idcg), the
        per-user output, and the one pass, where every list is a row -#}
    {%- set truth_properties = spec.user_metric_names | rejectattr('zero_without_list') | list | length > 0 -%}
    {%- do spec.update({'strategies': strategies,
                        'idcg_of_every_user': per_user or truth_properties or strategies.means == 'one_pass'}) -%}
    {%- if user_group is not none and 'interactions' in spec.user_sets -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": with `user_group_col`, a mean over every user of the interactions would count the users without a list in no user group; give users='both' or users='relevant' (the users with a list, each in its group), or leave `user_group_col` out.") }}
    {%- endif -%}
    {{ return(spec) }}
{% endmacro %}


{#- The plan of one rankwise.evaluate: _evaluate_spec's, with evaluate's own
    arguments checked (confidence, bootstrap_resamples, seed), the optional
    inputs (refused when a metric needs one that is missing), the item feature
    columns and the columns read from each input. `given` holds the options
    passed (evaluate's kwargs). -#}
{% macro _evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples, seed, items, train, given, macro_name) %}
    {%- set options = rankwise._given_options(macro_name, given, rankwise._evaluate_arguments()) -%}
    {%- set spec = rankwise._evaluate_spec(metrics, k, group_by, per_user, options, partition_by, macro_name) -%}
    {%- if confidence is not none and not (confidence is number and confidence is not boolean and confidence > 0 and confidence < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `confidence` must be a number strictly between 0 and 1, such as 0.95, or none for no interval; got " ~ rankwise._describe(confidence) ~ ".") }}
    {%- endif -%}
    {%- if bootstrap_resamples is not none and not (bootstrap_resamples is integer and bootstrap_resamples is not boolean and bootstrap_resamples >= 1 and bootstrap_resamples <= 1000000) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `bootstrap_resamples` must be an integer from 1 to 1000000 (the resamples of the bootstrap interval of group-level metrics such as entropy), or none; got " ~ rankwise._describe(bootstrap_resamples) ~ ".") }}
    {%- endif -%}
    {%- if bootstrap_resamples is not none and confidence is none -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `bootstrap_resamples` gives group-level metrics an interval at level `confidence`, which is none; give a confidence such as 0.95.") }}
    {%- endif -%}
    {%- do rankwise._check_integer(macro_name, 'seed', seed) -%}
    {%- if bootstrap_resamples is not none -%}
        {%- set with_interval = rankwise._metric_names_where('bootstrap') -%}
        {%- for entry in spec.group_metrics if entry.name not in with_interval -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `bootstrap_resamples` gives " ~ with_interval | join(', ') ~ " a bootstrap interval; " ~ entry.name ~ " has none yet. Evaluate it in a call without bootstrap_resamples.") }}
        {%- endfor -%}
    {%- endif -%}
    {%- do rankwise._plan_inputs(spec, options, group_by, partition_by, items, train) -%}
    {#- per-user rows have no interval -#}
    {%- do spec.update({'confidence': none if per_user else confidence, 'group_bootstrap': bootstrap_resamples, 'seed': seed}) -%}
    {#- the plan of each evaluation of its own, under the options a metric's
        parameters set: per-user metrics only, which read neither optional
        input nor the items' features -#}
    {%- set parts = [] -%}
    {%- for part in spec.threshold_parts -%}
        {%- set part_options = rankwise._updated(given, part.overrides) -%}
        {%- do part_options.update({'item_vector_col': none, 'item_feature_cols': none, 'reference': none}) -%}
        {%- do parts.append(rankwise._evaluation_spec(part.metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                                      seed, none, none, part_options, macro_name)) -%}
    {%- endfor -%}
    {%- do spec.update({'parts': parts}) -%}
    {#- whether the input checks can be fused into the query (stage_input_guard.sql):
        one query of means over the per-user metrics, which reads the lists and
        the truth in passes the checks can share; duplicate_interactions='max'
        reads the truth's pairs already grouped, negative_relevance='pooled' its
        rows already filtered, and the rows dropped before
        ranking (kept_recommendations.sql) would escape the checks -#}
    {%- do spec.update({'checks_fuse': parts | length == 0 and not per_user and spec.user_metrics | length > 0
                                       and spec.duplicate_interactions != 'max' and spec.negative_relevance != 'pooled' and spec.propensity is none
                                       and not rankwise._drops_recommendations(spec)}) -%}
    {%- do rankwise._plan_stages(spec, rankwise._evaluation_roots(spec)) -%}
    {{ return(spec) }}
{% endmacro %}

{#- The plan `spec` with the input checks fused into its query
    (stage_input_guard.sql): a copy, its stages planned again with the input
    guard. Its plan must be one query over the per-user metrics (checks_fuse). -#}
{% macro _guarded_spec(spec) %}
    {%- if not spec.checks_fuse -%}
        {{ exceptions.raise_compiler_error("rankwise._guarded_evaluate: this evaluation's checks cannot be fused into its query.") }}
    {%- endif -%}
    {%- set guarded = rankwise._updated(spec, {'input_guard': true}) -%}
    {%- do rankwise._plan_stages(guarded, rankwise._evaluation_roots(guarded)) -%}
    {{ return(guarded) }}
{% endmacro %}

{#- Where an evaluation's stages start: per level of the metrics asked, the
    per-user rows or the means (the stage registry's _stage_roots); the input
    guard, unless the one pass counts the problems itself; the bootstrap
    intervals of the group-level metrics. -#}
{% macro _evaluation_roots(spec) %}
    {%- set shapes = rankwise._stage_roots().evaluate['rows' if spec.per_user else 'means'] -%}
    {%- set roots = [] -%}
    {%- for level, metrics in [('user', spec.user_metrics), ('list', spec.list_metrics), ('group', spec.group_metrics)] if metrics | length > 0 -%}
        {%- do roots.extend(shapes[level]) -%}
    {%- endfor -%}
    {%- if spec.input_guard and spec.strategies.means != 'one_pass' %}{% do roots.append('input_guard') %}{% endif -%}
    {%- if spec.confidence is not none and spec.group_bootstrap is not none %}{% do roots.append('group_intervals') %}{% endif -%}
    {{ return(roots) }}
{% endmacro %}
