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
                  items=none, train=none, novelty_popularity=none, arp_popularity=none, head_share=none,
                  item_distance=none, diversity_denominator=none, item_vector_col=none, item_feature_cols=none,
                  coverage_of=none, gini_items=none, novelty_unseen=none) %}
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
        'item_distance': item_distance,
        'diversity_denominator': diversity_denominator,
        'coverage_of': coverage_of,
        'gini_items': gini_items,
        'novelty_unseen': novelty_unseen,
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
    {%- do spec.update(rankwise._item_feature_columns(spec, item_col, item_vector_col, item_feature_cols)) -%}
    {#- per-user rows have no interval -#}
    {%- do spec.update({'confidence': none if per_user else confidence, 'group_bootstrap': bootstrap_resamples, 'seed': seed}) -%}
    {%- set columns_read = rankwise._columns_read(user_col, item_col, rank_col, score_col, relevance_col, group_by, partition_by) -%}
    {%- do columns_read.update({'items': [(item_col, 'item id')] + spec.item_columns_read,
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
{%- if spec.needs_items and (spec.needs_group_metrics or spec.needs_serendipity) -%}
    {%- do stages.append(rankwise._stage_catalog(spec)) -%}
{%- endif -%}
{%- if spec.needs_group_metrics -%}
    {%- if spec.needs_train_item_set %}{% do stages.append(rankwise._stage_train_item_set(spec)) %}{% endif -%}
    {%- do stages.extend([rankwise._stage_item_exposures(spec), rankwise._stage_item_shares(spec), rankwise._stage_group_metrics(spec)]) -%}
    {%- if spec.confidence is not none and spec.group_bootstrap is not none %}{% do stages.append(rankwise._stage_group_bootstrap(spec)) %}{% endif -%}
{%- endif -%}
{%- if spec.needs_list_metrics -%}
    {%- if spec.needs_train_items %}{% do stages.append(rankwise._stage_train_popularity(spec)) %}{% endif -%}
    {%- if spec.diversity_metrics | length > 0 %}{% do stages.extend(rankwise._stages_list_diversity(spec)) %}{% endif -%}
    {%- do stages.append(rankwise._stage_list_values(spec)) -%}
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
    {%- if spec.needs_interactions %}{% do stages.append(rankwise._stage_interactions(interactions, spec)) %}{% endif -%}
    {%- if spec.needs_user_metrics -%}
        {%- do stages.extend([rankwise._stage_cutoffs(spec), rankwise._stage_user_truth_counts(spec),
                              rankwise._stage_judged(spec), rankwise._stage_judged_lists(spec)]) -%}
        {%- if spec.needs_list_lengths %}{% do stages.append(rankwise._stage_list_lengths(spec)) %}{% endif -%}
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
               'bootstrap_resamples', 'seed', 'items', 'train', 'novelty_popularity', 'arp_popularity', 'head_share',
               'item_distance', 'diversity_denominator', 'item_vector_col', 'item_feature_cols', 'coverage_of',
               'gini_items', 'novelty_unseen']) }}
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
    {%- for input, relation in [('items', items), ('train', train)] if input in spec.inputs_read and relation is none -%}
        {%- set needing = [] -%}
        {%- for entry in spec.plan if input in rankwise._metric_inputs(entry.name, spec) and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ needing | join(', ') ~ " " ~ ("needs" if needing | length == 1 else "need") ~ " the `" ~ input ~ "` input ("
            ~ ("the catalog: one row per item that could be recommended" if input == 'items' else "the interactions the model was trained on, for the items' popularity") ~ ").") }}
    {%- endfor -%}
    {{ return({'items_relation': items, 'train_relation': train}) }}
{% endmacro %}

{#- The columns of the catalog intra_list_diversity's distance reads, checked
    against item_distance: a vector column (an array of doubles) or feature
    columns for 'cosine', feature columns for 'hamming', none for
    'cooccurrence'. A column given that no metric reads is refused, not
    ignored. -#}
{% macro _item_feature_columns(spec, item_col, item_vector_col, item_feature_cols) %}
    {%- set diversity = spec.diversity_metrics | length > 0 -%}
    {%- if item_vector_col is not none and (item_vector_col is not string or item_vector_col | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `item_vector_col` must be a non-empty column name or none; got " ~ rankwise._describe(item_vector_col) ~ ".") }}
    {%- endif -%}
    {%- set features = [] if item_feature_cols is none else ([item_feature_cols] if item_feature_cols is string else item_feature_cols) -%}
    {%- if features is mapping or features is not iterable or (item_feature_cols is not none and features | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `item_feature_cols` must be a column name or a non-empty list of them, or none; got " ~ rankwise._describe(item_feature_cols) ~ ".") }}
    {%- endif -%}
    {%- for column in features -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: every entry of `item_feature_cols` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower == item_col | lower or column | lower in (features[:loop.index0] | map('lower') | list) -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: `item_feature_cols` lists column '" ~ column ~ "' twice, or the item column; list each feature column once.") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set given = (['item_vector_col'] if item_vector_col is not none else []) + (['item_feature_cols'] if features | length > 0 else []) -%}
    {%- if not diversity and given | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: `" ~ given | join('` and `') ~ "` " ~ ("is" if given | length == 1 else "are") ~ " given, but only intra_list_diversity reads the items' features and it is not asked; add it to `metrics` or leave the argument out.") }}
    {%- endif -%}
    {%- if diversity -%}
        {%- if spec.item_distance == 'cooccurrence' and given | length > 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: item_distance='cooccurrence' compares items by their users in `train` and reads no feature; leave out `" ~ given | join('` and `') ~ "`, or pick item_distance='cosine' or 'hamming'.") }}
        {%- elif spec.item_distance == 'hamming' and (item_vector_col is not none or features | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: item_distance='hamming' counts the features two items differ in; give the catalog's feature columns as `item_feature_cols` (and no `item_vector_col`).") }}
        {%- elif spec.item_distance == 'cosine' and given | length != 1 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: item_distance='cosine' compares the items' vectors; give either `item_vector_col` (a column of the catalog holding an array of numbers) or `item_feature_cols` (numeric columns that form the vector), " ~ ("not both." if given | length == 2 else "or pick item_distance='cooccurrence' to compare items by their users in `train`.")) }}
        {%- endif -%}
    {%- endif -%}
    {%- set quoted = [] -%}
    {%- set read = [] -%}
    {%- for column in features -%}
        {%- do quoted.append(rankwise.quote_identifier(column)) -%}
        {%- do read.append((column, 'item feature')) -%}
    {%- endfor -%}
    {%- if item_vector_col is not none %}{% do read.append((item_vector_col, 'item vector')) %}{% endif -%}
    {{ return({'item_vector': none if item_vector_col is none else rankwise.quote_identifier(item_vector_col),
               'item_features': quoted, 'item_columns_read': read}) }}
{% endmacro %}
