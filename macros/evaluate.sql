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

    Resolve, validate, dispatch: the planner in macros/evaluate/plan.sql checks
    every argument and resolves the plan; the implementation writes one CTE per
    stage (macros/evaluate/stage_*.sql), each stage reading the plan's decisions. -#}
{% macro evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                  user_col='user_id', item_col='item_id', rank_col='rank', score_col=none, relevance_col=none,
                  convention='rankwise', ap_denominator=none, precision_denominator=none, gain=none, gain_items=none,
                  idcg=none, relevance_threshold=none, users=none, ties=none, log_base=none,
                  duplicate_interactions='error', partition_by=none, confidence=0.95, bootstrap_resamples=none, seed=0,
                  items=none, train=none, novelty_popularity=none, arp_popularity=none, head_share=none) %}
    {%- set options = {
        'ap_denominator': ap_denominator,
        'precision_denominator': precision_denominator,
        'gain': gain,
        'gain_items': gain_items,
        'idcg': idcg,
        'relevance_threshold': relevance_threshold,
        'users': users,
        'ties': ties,
        'log_base': log_base,
        'novelty_popularity': novelty_popularity,
        'arp_popularity': arp_popularity,
        'head_share': head_share,
    } -%}
    {#- referencing kwargs lets a misspelt argument reach the check with a suggestion -#}
    {%- do rankwise._check_no_unknown_arguments('evaluate', kwargs, rankwise._evaluate_arguments()) -%}
    {%- set spec = rankwise._evaluate_spec(metrics, k, group_by, per_user, user_col, item_col, rank_col, score_col,
                                           relevance_col, convention, options, duplicate_interactions, partition_by) -%}
    {%- if confidence is not none and not (confidence is number and confidence is not boolean and confidence > 0 and confidence < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `confidence` must be a number strictly between 0 and 1, such as 0.95, or none for no interval; got " ~ rankwise._describe(confidence) ~ ".") }}
    {%- endif -%}
    {%- if bootstrap_resamples is not none and not (bootstrap_resamples is integer and bootstrap_resamples is not boolean and bootstrap_resamples >= 1 and bootstrap_resamples <= 1000000) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `bootstrap_resamples` must be an integer from 1 to 1000000 (the resamples of the bootstrap interval of group-level metrics such as entropy), or none; got " ~ rankwise._describe(bootstrap_resamples) ~ ".") }}
    {%- endif -%}
    {%- if bootstrap_resamples is not none and confidence is none -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: `bootstrap_resamples` gives group-level metrics an interval at level `confidence`, which is none; give a confidence such as 0.95.") }}
    {%- endif -%}
    {%- do rankwise._check_integer('evaluate', 'seed', seed) -%}
    {%- if bootstrap_resamples is not none -%}
        {%- for entry in spec.group_metrics if entry.name != 'entropy' -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: `bootstrap_resamples` gives entropy a bootstrap interval; " ~ entry.name ~ " has none yet. Evaluate it in a call without bootstrap_resamples.") }}
        {%- endfor -%}
    {%- endif -%}
    {%- do spec.update(rankwise._optional_inputs(spec, items, train)) -%}
    {#- per-user rows have no interval -#}
    {%- do spec.update({'confidence': none if per_user else confidence, 'group_bootstrap': bootstrap_resamples, 'seed': seed}) -%}
    {%- set columns_read = rankwise._columns_read(user_col, item_col, rank_col, score_col, relevance_col, group_by, partition_by) -%}
    {%- do columns_read.update({'items': [(item_col, 'item id')],
                                'train': [(user_col, 'user id'), (item_col, 'item id')] + columns_read.interactions[3:]}) -%}
    {%- do rankwise._check_relation_columns(recommendations, interactions, columns_read,
                                            {'items': spec.items_relation, 'train': spec.train_relation}) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- The stages in the order they read each other. -#}
{% macro default__evaluate(recommendations, interactions, spec) -%}
{%- set stages = rankwise._user_metric_stages(recommendations, interactions, spec) -%}
{%- if spec.needs_user_metrics -%}
    {%- if not spec.per_user -%}
        {%- do stages.extend([rankwise._stage_group_sums(spec), rankwise._stage_group_counts(spec), rankwise._stage_truth_totals(spec)]) -%}
        {%- if spec.needs_present_idcg -%}
            {%- do stages.extend([rankwise._stage_idcg_sums(spec), rankwise._stage_truth_idcg_sums(spec)]) -%}
        {%- endif -%}
        {%- do stages.append(rankwise._stage_group_means(spec)) -%}
    {%- endif -%}
{%- endif -%}
{%- if spec.needs_group_metrics -%}
    {%- if spec.needs_items %}{% do stages.append(rankwise._stage_catalog(spec)) %}{% endif -%}
    {%- do stages.extend([rankwise._stage_item_exposures(spec), rankwise._stage_item_shares(spec), rankwise._stage_group_metrics(spec)]) -%}
    {%- if spec.confidence is not none and spec.group_bootstrap is not none %}{% do stages.append(rankwise._stage_group_bootstrap(spec)) %}{% endif -%}
{%- endif -%}
{%- if spec.needs_list_metrics -%}
    {%- do stages.extend([rankwise._stage_train_popularity(spec), rankwise._stage_list_popularity(spec)]) -%}
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
with

{{ stages | map('trim') | join(',\n\n') }}

select * from (
{{ outputs | join('\n\nunion all\n\n') }}
) as rw_result
{{ rankwise._output_order(spec) }}
{%- endmacro %}

{#- The stages up to rw_user_metrics, each metric's value per (list, cutoff),
    which evaluate's means and compare's paired differences both read. -#}
{% macro _user_metric_stages(recommendations, interactions, spec) %}
    {%- set stages = [rankwise._stage_recommendations(recommendations, spec), rankwise._stage_list_rows(spec)] -%}
    {%- if spec.needs_user_metrics -%}
        {%- do stages.extend([rankwise._stage_cutoffs(spec), rankwise._stage_interactions(interactions, spec),
                              rankwise._stage_user_truth_counts(spec), rankwise._stage_judged(spec), rankwise._stage_judged_lists(spec)]) -%}
        {%- if 'n_recommended' in spec.components %}{% do stages.append(rankwise._stage_list_lengths(spec)) %}{% endif -%}
        {%- if spec.needs_ideal_order %}{% do stages.append(rankwise._stage_ideal_lists(spec)) %}{% endif -%}
        {%- if spec.needs_slot_idcg %}{% do stages.append(rankwise._stage_slot_idcg(spec)) %}{% endif -%}
        {%- if spec.needs_all_running -%}
            {%- do stages.extend([rankwise._stage_all_running(spec), rankwise._stage_all_running_lists(spec)]) -%}
        {%- endif -%}
        {%- do stages.extend([rankwise._stage_user_components(spec), rankwise._stage_user_metrics(spec)]) -%}
    {%- endif -%}
    {{ return(stages) }}
{% endmacro %}

{#- The arguments evaluate takes besides the two inputs. -#}
{% macro _evaluate_arguments() %}
    {{ return(['metrics', 'k', 'group_by', 'per_user', 'user_col', 'item_col', 'rank_col', 'score_col', 'relevance_col',
               'convention', 'ap_denominator', 'precision_denominator', 'gain', 'gain_items', 'idcg',
               'relevance_threshold', 'users', 'ties', 'log_base', 'duplicate_interactions', 'partition_by', 'confidence',
               'bootstrap_resamples', 'seed', 'items', 'train', 'novelty_popularity', 'arp_popularity', 'head_share']) }}
{% endmacro %}

{#- Per input, the (column, purpose) pairs evaluate reads, as the Python wrapper
    names them in its messages. -#}
{% macro _columns_read(user_col, item_col, rank_col, score_col, relevance_col, group_by, partition_by) %}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- set recommendations = [(user_col, 'user id'), (item_col, 'item id'), (score_col, 'score') if score_col is not none else (rank_col, 'rank')] -%}
    {%- for column in groups %}{% do recommendations.append((column, 'group_by column')) %}{% endfor -%}
    {%- set interactions = [(user_col, 'user id'), (item_col, 'item id'), (relevance_col, 'relevance')] -%}
    {%- for column in partitions -%}
        {%- do recommendations.append((column, 'partition_by column')) -%}
        {%- do interactions.append((column, 'partition_by column')) -%}
    {%- endfor -%}
    {{ return({'recommendations': recommendations, 'interactions': interactions}) }}
{% endmacro %}

{#- The optional inputs (`items`, `train`) the metrics asked read, each refused
    with the metrics that need it when missing; given but unread, left out. -#}
{% macro _optional_inputs(spec, items, train) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- for input, relation in [('items', items), ('train', train)] if input in spec.inputs_read and relation is none -%}
        {%- set needing = [] -%}
        {%- for entry in spec.plan if input in registry[entry.name].get('inputs', []) and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ needing | join(', ') ~ " " ~ ("needs" if needing | length == 1 else "need") ~ " the `" ~ input ~ "` input ("
            ~ ("the catalog: one row per item that could be recommended" if input == 'items' else "the interactions the model was trained on, for the items' popularity") ~ ").") }}
    {%- endfor -%}
    {{ return({'items_relation': items, 'train_relation': train}) }}
{% endmacro %}
