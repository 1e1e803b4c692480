{#- rankwise.evaluate: every requested metric at every cutoff, each table read
    once per kind of aggregate, with no window over the full recommendations.
    Returns a SELECT with one row per (group, metric, k): partition and group
    columns, metric, k, value, n_users, n_users_without_list, and unless
    `confidence` is none, ci_low and ci_high (the Student t interval of the mean
    of the per-user values; for group-level metrics NULL, or with
    bootstrap_resamples a Poisson bootstrap interval over the users); or, with per_user=true,
    one row per (group, user, metric, k) with the per-user components for
    drill-down. `convention` picks the
    option values of a peer library; an option given explicitly wins. The
    conventions are documented in docs/metrics.md. `partition_by` names columns
    both tables have (fold, week...): each partition's lists are judged against
    that partition's interactions only.

    The columns and conventions are keyword arguments, the options declared in
    macros/conventions/convention_options.sql: user_col, item_col, rank_col,
    score_col, relevance_col, convention and the conventions.

    Resolve, validate, dispatch: the planner in macros/evaluate/plan.sql checks
    every argument and resolves the plan; the implementation writes one CTE per
    stage (macros/evaluate/stage_*.sql), each stage reading the plan's decisions
    and the strategies it picked (macros/evaluate/strategies/). -#}
{% macro evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                  partition_by=none, confidence=0.95, bootstrap_resamples=none, seed=0, items=none, train=none) %}
    {%- set spec = rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                             seed, items, train, kwargs, 'evaluate') -%}
    {%- do rankwise._check_relation_columns(recommendations, interactions, spec.columns_read,
                                            {'items': spec.items_relation, 'train': spec.train_relation}) -%}
    {%- if rankwise._dbt_is_parsing() -%}{{ return('') }}{%- endif -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- evaluate's query with the input checks fused into it (stage_input_guard.sql),
    for the Python wrapper: it has its rows only when the inputs pass every
    check. Its plan must be one query over the per-user metrics
    (_evaluation_plan's checks_fuse). -#}
{% macro _guarded_evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                           partition_by=none, confidence=0.95, bootstrap_resamples=none, seed=0, items=none, train=none) %}
    {%- set spec = rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                             seed, items, train, kwargs, 'evaluate') -%}
    {%- if not spec.checks_fuse -%}
        {{ exceptions.raise_compiler_error("rankwise._guarded_evaluate: this evaluation's checks cannot be fused into its query.") }}
    {%- endif -%}
    {%- do spec.update({'input_guard': true}) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- The query of the plan, and of each of its parts (the metrics whose
    parameters set options of their own, such as 'ndcg(rel=2)'), each reading
    the inputs under its options, the rows of all in one order. -#}
{% macro default__evaluate(recommendations, interactions, spec) -%}
{%- if spec.parts | length == 0 -%}
{{ rankwise._evaluation_query(recommendations, interactions, spec) }}
{{ rankwise._output_order(spec) }}
{%- else -%}
    {%- set queries = [] -%}
    {%- for part in ([spec] if spec.requested | length > 0 else []) + spec.parts -%}
        {%- do queries.append('select * from (\n' ~ rankwise._evaluation_query(recommendations, interactions, part) ~ '\n) as rw_part_' ~ loop.index) -%}
    {%- endfor -%}
select * from (
{{ queries | join('\n\nunion all\n\n') }}
) as rw_parts
{{ rankwise._output_order(spec) }}
{%- endif -%}
{%- endmacro %}

{#- The stages in the order they read each other, and the output rows. -#}
{% macro _evaluation_query(recommendations, interactions, spec) -%}
{%- set stages = rankwise._user_metric_stages(recommendations, interactions, spec) -%}
{%- if spec.needs_user_metrics -%}
    {%- if spec.means_in_one_pass -%}
        {%- do stages.append(rankwise._stage_group_sums(spec)) -%}
        {%- if spec.groups | length > 0 %}{% do stages.append(rankwise._stage_truth_totals(spec)) %}{% endif -%}
        {%- do stages.append(rankwise._stage_group_means(spec)) -%}
    {%- elif not spec.per_user -%}
        {%- do stages.extend([rankwise._stage_group_sums(spec), rankwise._stage_group_counts(spec), rankwise._stage_truth_totals(spec)]) -%}
        {%- if spec.needs_present_idcg -%}
            {%- do stages.extend([rankwise._stage_idcg_sums(spec), rankwise._stage_truth_idcg_sums(spec)]) -%}
        {%- endif -%}
        {%- do stages.append(rankwise._stage_group_means(spec)) -%}
    {%- endif -%}
{%- endif -%}
{%- if spec.needs_catalog_size -%}
    {%- do stages.append(rankwise._stage_catalog(spec)) -%}
{%- endif -%}
{%- if spec.needs_group_metrics -%}
    {%- if spec.needs_train_item_set %}{% do stages.append(rankwise._stage_train_item_set(spec)) %}{% endif -%}
    {%- do stages.extend([rankwise._stage_item_exposures(spec), rankwise._stage_item_shares(spec)]) -%}
    {%- if spec.item_group_metrics | length > 0 %}{% do stages.extend(rankwise._stages_item_groups(spec)) %}{% endif -%}
    {%- do stages.append(rankwise._stage_group_metrics(spec)) -%}
    {%- if spec.confidence is not none and spec.group_bootstrap is not none %}{% do stages.append(rankwise._stage_group_bootstrap(spec)) %}{% endif -%}
{%- endif -%}
{%- if spec.needs_list_metrics -%}
    {%- do stages.extend(rankwise._list_metric_stages(spec)) -%}
    {%- if not spec.per_user %}{% do stages.append(rankwise._stage_list_means(spec)) %}{% endif -%}
{%- endif -%}
{%- set outputs = [] -%}
{%- if spec.per_user -%}
    {%- if spec.needs_user_metrics %}{% do outputs.append(rankwise._output_per_user(spec)) %}{% endif -%}
    {%- if spec.needs_list_metrics %}{% do outputs.append(rankwise._output_list_metrics_per_user(spec)) %}{% endif -%}
{%- else -%}
    {%- if spec.needs_user_metrics %}{% do outputs.append(rankwise._output_user_metric_means(spec)) %}{% endif -%}
    {%- if spec.needs_list_metrics %}{% do outputs.append(rankwise._output_list_metric_means(spec)) %}{% endif -%}
    {%- if spec.needs_group_metrics %}{% do outputs.append(rankwise._output_group_metrics(spec)) %}{% endif -%}
{%- endif -%}
{#- the means in one pass carry the guard's counts (stage_means.sql) -#}
{%- set guarded_output = spec.input_guard and not spec.means_in_one_pass -%}
{%- if guarded_output %}{% do stages.append(rankwise._stage_input_guard(spec)) %}{% endif -%}
with

{{ stages | map('trim') | join(',\n\n') }}

select * from (
{{ outputs | join('\n\nunion all\n\n') }}
) as rw_result
{%- if guarded_output %}
where exists (select 1 from rw_input_guard)
{%- endif %}
{%- endmacro %}

{#- The stages up to rw_user_metrics, each metric's value per (list, cutoff),
    which evaluate's means and compare's paired differences both read. -#}
{% macro _user_metric_stages(recommendations, interactions, spec) %}
    {%- set stages = [rankwise._stage_recommendations(recommendations, spec, interactions), rankwise._stage_list_rows(spec)] -%}
    {%- if spec.needs_interactions %}{% do stages.append(rankwise._stage_interactions(interactions, spec)) %}{% endif -%}
    {%- if spec.needs_user_metrics -%}
        {%- do stages.extend([rankwise._stage_cutoffs(spec), rankwise._stage_user_truth_counts(spec)]) -%}
        {%- if spec.needs_max_relevance %}{% do stages.append(rankwise._stage_relevance_scale(spec)) %}{% endif -%}
        {%- if spec.means_in_one_pass -%}
            {%- do stages.append(rankwise._stage_user_rows(spec)) -%}
        {%- else -%}
            {%- do stages.extend([rankwise._stage_judged(spec), rankwise._stage_judged_lists(spec)]) -%}
            {%- if spec.needs_list_lengths %}{% do stages.append(rankwise._stage_list_lengths(spec)) %}{% endif -%}
        {%- endif -%}
        {%- if spec.needs_ideal_stage %}{% do stages.append(rankwise._stage_ideal_lists(spec)) %}{% endif -%}
        {%- if spec.needs_all_running -%}
            {%- do stages.extend([rankwise._stage_all_running(spec), rankwise._stage_all_running_lists(spec)]) -%}
        {%- endif -%}
        {%- do stages.extend([rankwise._stage_user_components(spec), rankwise._stage_user_metrics(spec)]) -%}
    {%- endif -%}
    {{ return(stages) }}
{% endmacro %}

{#- The stages up to rw_list_values, each list-level metric's value per (list,
    cutoff), which evaluate's means and compare's paired differences both
    read. -#}
{% macro _list_metric_stages(spec) %}
    {%- set stages = [] -%}
    {%- if spec.needs_train_popularity %}{% do stages.append(rankwise._stage_train_popularity(spec)) %}{% endif -%}
    {%- if spec.needs_train_profiles %}{% do stages.append(rankwise._stage_train_profiles(spec)) %}{% endif -%}
    {%- if spec.calibration_metrics | length > 0 %}{% do stages.extend(rankwise._stages_calibration(spec)) %}{% endif -%}
    {%- if spec.pair_metrics | length > 0 %}{% do stages.extend(rankwise._stages_list_diversity(spec)) %}{% endif -%}
    {%- if spec.reference_metrics | length > 0 %}{% do stages.extend(rankwise._stages_reference_overlap(spec)) %}{% endif -%}
    {%- do stages.append(rankwise._stage_list_values(spec)) -%}
    {{ return(stages) }}
{% endmacro %}
