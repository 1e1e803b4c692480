{#- The planner of rankwise.evaluate: checks every argument and resolves them into
    one plan, so that the stages read decisions instead of re-deriving them: which
    metric at which cutoff, which per-list components each source must compute,
    which CTEs the query needs, and the quoted column names. `options` holds the
    convention options as given (none = take the convention's value). -#}
{% macro _evaluate_spec(metrics, k, group_by, per_user, user_col, item_col, rank_col, score_col, relevance_col,
                        convention, options, duplicate_interactions, partition_by) %}
    {%- set resolved = rankwise._resolved_options(convention, options, duplicate_interactions, per_user) -%}
    {%- set log_base = resolved.log_base -%}
    {%- set relevance_threshold = resolved.relevance_threshold -%}
    {%- set quoted_partitions = rankwise._checked_columns(user_col, item_col, rank_col, score_col, relevance_col, partition_by, 'partition_by') -%}
    {%- set quoted_groups = rankwise._checked_columns(user_col, item_col, rank_col, score_col, relevance_col, group_by, 'group_by') -%}
    {%- for column in quoted_groups if column in quoted_partitions -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: column " ~ column ~ " is in both `partition_by` and `group_by`; a partition is already a group of the output, so list it in `partition_by` only.") }}
    {%- endfor -%}
    {%- set planned = rankwise._planned_metrics(metrics, k, per_user, resolved) -%}
    {%- set plan, user_metrics, group_metrics, components, cutoffs = planned.plan, planned.user_metrics, planned.group_metrics, planned.components, planned.cutoffs -%}
    {%- set list_metrics = planned.list_metrics -%}
    {#- the cutoffs of `k`, shared by every metric given without @k -#}
    {%- set default_cutoffs = [none] if k is none else ([k] if k is integer else k | list) -%}
    {%- set spec = {
        'plan': plan,
        'default_cutoffs': default_cutoffs,
        'user_metrics': user_metrics,
        'group_metrics': group_metrics,
        'list_metrics': list_metrics,
        'components': components,
        'cutoffs': cutoffs,
        'user_sets': user_metrics | map(attribute='users') | unique | list,
        'partitions': quoted_partitions,
        'groups': quoted_partitions + quoted_groups,
        'per_user': per_user,
        'user': rankwise.quote_identifier(user_col),
        'item': rankwise.quote_identifier(item_col),
        'rank': rankwise.quote_identifier(rank_col),
        'score': none if score_col is none else rankwise.quote_identifier(score_col),
        'relevance': none if relevance_col is none else rankwise.quote_identifier(relevance_col),
        'ap_denominator': resolved.ap_denominator,
        'precision_denominator': resolved.precision_denominator,
        'gain': resolved.gain,
        'gain_items': resolved.gain_items,
        'min_gain_relevance': none if resolved.gain_items == 'positive' else relevance_threshold,
        'idcg': resolved.idcg,
        'relevance_threshold': relevance_threshold,
        'ties': resolved.ties,
        'log_base': log_base,
        'duplicate_interactions': duplicate_interactions,
        'novelty_popularity': resolved.novelty_popularity,
        'arp_popularity': resolved.arp_popularity,
        'head_share': resolved.head_share,
        'item_distance': resolved.item_distance,
        'diversity_denominator': resolved.diversity_denominator,
        'coverage_of': resolved.coverage_of,
        'gini_items': resolved.gini_items,
        'novelty_unseen': resolved.novelty_unseen,
    } -%}
    {%- do spec.update(rankwise._plan_stages(spec)) -%}
    {{ return(spec) }}
{% endmacro %}

{#- The convention's option values, overridden by those given, each checked. -#}
{% macro _resolved_options(convention, options, duplicate_interactions, per_user) %}
    {%- do rankwise._check_choice('evaluate', 'convention', convention, rankwise._convention_presets().keys() | list) -%}
    {%- set resolved = rankwise._updated(rankwise.convention_options(convention), {}) -%}
    {%- for name, value in options.items() if value is not none -%}
        {%- if name == 'users' and value is mapping and resolved.users is mapping -%}
            {%- do resolved.update({'users': rankwise._updated(resolved.users, value)}) -%}
        {%- elif name == 'users' and value is mapping -%}
            {%- do resolved.update({'users': rankwise._updated({'default': resolved.users}, value)}) -%}
        {%- else -%}
            {%- do resolved.update({name: value}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do rankwise._check_choice('evaluate', 'ap_denominator', resolved.ap_denominator, ['relevant', 'min_relevant_k', 'hits', 'k']) -%}
    {%- do rankwise._check_choice('evaluate', 'precision_denominator', resolved.precision_denominator, ['k', 'list_length']) -%}
    {%- do rankwise._check_choice('evaluate', 'gain', resolved.gain, ['linear', 'exponential', 'binary']) -%}
    {%- do rankwise._check_choice('evaluate', 'gain_items', resolved.gain_items, ['positive', 'relevant']) -%}
    {%- do rankwise._check_choice('evaluate', 'idcg', resolved.idcg, ['truth', 'k_positions']) -%}
    {%- do rankwise._check_choice('evaluate', 'ties', resolved.ties, ['item_desc', 'item_asc', 'shared']) -%}
    {%- do rankwise._check_choice('evaluate', 'duplicate_interactions', duplicate_interactions, ['error', 'max']) -%}
    {%- do rankwise._check_choice('evaluate', 'novelty_popularity', resolved.novelty_popularity, ['users', 'interactions']) -%}
    {%- do rankwise._check_choice('evaluate', 'arp_popularity', resolved.arp_popularity, ['users', 'interactions']) -%}
    {%- do rankwise._check_choice('evaluate', 'item_distance', resolved.item_distance, ['cosine', 'hamming', 'cooccurrence']) -%}
    {%- do rankwise._check_choice('evaluate', 'diversity_denominator', resolved.diversity_denominator, ['pairs', 'list_length']) -%}
    {%- do rankwise._check_choice('evaluate', 'coverage_of', resolved.coverage_of, ['catalog', 'train_items', 'train_item_count']) -%}
    {%- do rankwise._check_choice('evaluate', 'gini_items', resolved.gini_items, ['catalog', 'shown']) -%}
    {%- do rankwise._check_choice('evaluate', 'novelty_unseen', resolved.novelty_unseen, ['one', 'dropped', 'zero']) -%}
    {%- if not (resolved.head_share is number and resolved.head_share is not boolean and resolved.head_share > 0 and resolved.head_share <= 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `head_share` must be a number above 0 and at most 1 (the share of train interactions the head's items hold, such as 0.8); got " ~ rankwise._describe(resolved.head_share) ~ ".") }}
    {%- endif -%}
    {%- if per_user is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `per_user` must be true or false; got " ~ rankwise._describe(per_user) ~ ".") }}
    {%- endif -%}
    {%- set log_base = none if resolved.log_base == 'e' else resolved.log_base -%}
    {%- do rankwise._check_log_base('evaluate', log_base) -%}
    {%- do rankwise._number_literal('evaluate', 'relevance_threshold', resolved.relevance_threshold) -%}
    {%- set relevance_threshold = resolved.relevance_threshold -%}
    {%- if resolved.idcg == 'k_positions' and resolved.gain != 'binary' -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: idcg='k_positions' counts every one of the k slots as a relevant item of gain 1, so it needs gain='binary'; got gain=" ~ rankwise._describe(resolved.gain) ~ ".") }}
    {%- endif -%}
    {%- do resolved.update({'log_base': log_base, 'relevance_threshold': relevance_threshold}) -%}
    {{ return(resolved) }}
{% endmacro %}

{#- The column arguments checked, and the group columns quoted. Engines match
    names case-insensitively, so clashes are checked in lower case. -#}
{% macro _checked_columns(user_col, item_col, rank_col, score_col, relevance_col, group_by, argument='group_by') %}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col), ('rank_col', rank_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for argument, value in [('score_col', score_col), ('relevance_col', relevance_col)] -%}
        {%- if value is not none and (value is not string or value | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `" ~ argument ~ "` must be a non-empty column name or none; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if group_by is none -%}{%- set group_by = [] -%}{%- elif group_by is string -%}{%- set group_by = [group_by] -%}{%- endif -%}
    {%- if group_by is mapping or group_by is not iterable -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `" ~ argument ~ "` must be a column name or a list of them; got " ~ rankwise._describe(group_by) ~ ".") }}
    {%- endif -%}
    {%- set reserved = ['metric', 'k', 'metric_label', 'value', 'n_users', 'n_users_without_list', 'n_relevant', 'n_recommended', 'hits', 'dcg', 'idcg'] -%}
    {%- if user_col | lower in reserved -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `user_col` may not be named '" ~ user_col ~ "': the output has a column of that name. Rename it in a view first.") }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for column in group_by -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: every entry of `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower in reserved or column | lower in [user_col | lower, item_col | lower] or (column | lower).startswith('rw_') -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ argument ~ " column '" ~ column ~ "' clashes with a column rankwise uses (the user and item columns, " ~ reserved | join(', ') ~ ", or a name starting with rw_). Rename it in a view first.") }}
        {%- endif -%}
        {%- if column | lower in groups | map('lower') | list -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ argument ~ " lists column '" ~ column ~ "' twice.") }}
        {%- endif -%}
        {%- do groups.append(column) -%}
    {%- endfor -%}
    {%- set quoted_groups = [] -%}
    {%- for column in groups %}{% do quoted_groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
    {{ return(quoted_groups) }}
{% endmacro %}

{#- The metrics asked, in order, split into per-user and per-group ones, with the
    components and cutoffs the per-user ones need. -#}
{% macro _planned_metrics(metrics, k, per_user, resolved) %}
    {%- set catalog = rankwise._metric_registry() -%}
    {%- set plan = rankwise._parse_metrics(metrics, k) -%}
    {%- set user_metrics = [] -%}
    {%- set group_metrics = [] -%}
    {%- set list_metrics = [] -%}
    {%- set components = [] -%}
    {%- set cutoffs = [] -%}
    {%- set cutoff_seen = {} -%}
    {%- set user_sets = rankwise._user_sets(resolved.users, catalog) -%}
    {%- for entry in plan -%}
        {%- do entry.update({'position': loop.index, 'users': user_sets.get(entry.name, user_sets.default)}) -%}
        {%- if entry.k is none and ((entry.name == 'map' and resolved.ap_denominator == 'k') or (entry.name in ['idcg', 'ndcg'] and resolved.idcg == 'k_positions')) -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ entry.name ~ " needs a cutoff with " ~ ("ap_denominator='k'" if entry.name == 'map' else "idcg='k_positions'") ~ "; ask for '" ~ entry.name ~ "@10', say, not the whole list.") }}
        {%- endif -%}
        {%- if entry.name in ['idcg', 'ndcg'] and resolved.idcg == 'k_positions' and entry.k is not none and entry.k > 10000000 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ entry.name ~ "@" ~ entry.k ~ " with idcg='k_positions' sums the discount of every one of the k slots; k may be at most 10000000 there.") }}
        {%- endif -%}
        {%- if entry.name == 'personalization' and entry.k is none -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: personalization needs a cutoff (the share of k slots two lists have in common); ask for 'personalization@10', say, not the whole list.") }}
        {%- endif -%}
        {%- if catalog[entry.name].level == 'user' -%}
            {%- do user_metrics.append(entry) -%}
            {%- for component in catalog[entry.name].components -%}
                {%- if component not in components %}{% do components.append(component) %}{% endif -%}
            {%- endfor -%}
            {%- if entry.k not in cutoff_seen %}{% do cutoffs.append(entry.k) %}{% do cutoff_seen.update({entry.k: true}) %}{% endif -%}
        {%- elif catalog[entry.name].level == 'list' -%}
            {%- do list_metrics.append(entry) -%}
        {%- else -%}
            {%- do group_metrics.append(entry) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- per-user rows carry hits, list length, DCG and IDCG for drill-down -#}
    {%- set drill_down = ['hits', 'n_recommended', 'dcg', 'idcg'] if per_user else [] -%}
    {%- for component in drill_down -%}
        {%- if component not in components %}{% do components.append(component) %}{% endif -%}
    {%- endfor -%}
    {%- if per_user and group_metrics | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ (group_metrics | map(attribute='name') | join(', ')) ~ " has one value per group, not per user; drop it from `metrics` when per_user is true.") }}
    {%- endif -%}
    {{ return({'plan': plan, 'user_metrics': user_metrics, 'group_metrics': group_metrics, 'list_metrics': list_metrics,
               'components': components, 'cutoffs': cutoffs}) }}
{% endmacro %}

{#- `users` as {'default': set, metric: set...}, checked. -#}
{% macro _user_sets(users, catalog) %}
    {%- set choices = ['both', 'interactions', 'relevant'] -%}
    {%- set sets = users if users is mapping else {'default': users} -%}
    {%- for name, value in sets.items() -%}
        {%- if name != 'default' and (name not in catalog or catalog[name].level != 'user') -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: `users` maps '" ~ name ~ "', which is not a per-user metric; use metric names without @k (" ~ (rankwise._metric_names_of_level('user') | join(', ')) ~ ") or 'default'.") }}
        {%- endif -%}
        {%- do rankwise._check_choice('evaluate', 'users' if name == 'default' else 'users.' ~ name, value, choices) -%}
    {%- endfor -%}
    {%- if 'default' not in sets -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: internal error, `users` has no default set.") }}
    {%- endif -%}
    {{ return(sets) }}
{% endmacro %}

{#- What the stages need, decided once from the metrics and options. -#}
{% macro _plan_stages(spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set metrics = rankwise._metric_registry() -%}
    {%- set components_from = {'list_rows': [], 'judged': [], 'all_running': [], 'truth': []} -%}
    {%- for component in spec.components -%}
        {%- do components_from[registry[component].source].append(component) -%}
    {%- endfor -%}
    {#- one entry per metric name, in the order asked: the formulas do not depend on k -#}
    {%- set names = [] -%}
    {%- set user_metric_names = [] -%}
    {%- set default_cutoffs = {} -%}
    {%- for cutoff in spec.default_cutoffs %}{% do default_cutoffs.update({cutoff: true}) %}{% endfor -%}
    {%- set cutoffs_of = {} -%}
    {%- for entry in spec.user_metrics -%}
        {%- do cutoffs_of.update({entry.name: cutoffs_of.get(entry.name, []) + [entry.k]}) -%}
    {%- endfor -%}
    {%- for entry in spec.user_metrics if entry.name not in names -%}
        {%- do names.append(entry.name) -%}
        {%- set its_cutoffs = cutoffs_of[entry.name] -%}
        {#- a metric asked at exactly the cutoffs of `k` takes its grid rows from rw_cutoffs -#}
        {%- set outside_default = [] -%}
        {%- for cutoff in its_cutoffs if cutoff not in default_cutoffs %}{% do outside_default.append(cutoff) %}{% endfor -%}
        {%- set at_default_cutoffs = its_cutoffs | length == spec.default_cutoffs | length and outside_default | length == 0 -%}
        {%- do user_metric_names.append({'name': entry.name, 'users': entry.users, 'zero_without_list': metrics[entry.name].zero_without_list,
                                         'at_default_cutoffs': at_default_cutoffs}) -%}
    {%- endfor -%}
    {%- set every_truth_user = 'interactions' in spec.user_sets -%}
    {%- set list_metric_names = spec.list_metrics | map(attribute='name') | list -%}
    {#- the optional inputs the metrics read (the registry's `inputs`) -#}
    {%- set inputs_read = [] -%}
    {%- for entry in spec.plan -%}
        {%- for input in rankwise._metric_inputs(entry.name, spec) if input not in inputs_read %}{% do inputs_read.append(input) %}{% endfor -%}
    {%- endfor -%}
    {#- the judged components as bit sets of ranks (DuckDB): every cutoff finite
        and within the 62 bits, ranks that are positions (a shared rank of tied
        scores would set one bit for two items), only components read off them -#}
    {%- set finite_cutoffs = spec.cutoffs | reject('none') | list -%}
    {%- set ranks_as_bits = finite_cutoffs | length == spec.cutoffs | length and finite_cutoffs | length > 0
                            and finite_cutoffs | max <= 62
                            and not (spec.score is not none and spec.ties == 'shared')
                            and components_from.judged | reject('in', ['hits', 'precision_sum', 'first_relevant_rank', 'dcg']) | list | length == 0 -%}
    {%- set whole_list_cutoff = none in spec.cutoffs -%}
    {%- set exact_lengths = 'n_recommended' in spec.components and (spec.per_user or spec.precision_denominator == 'list_length') -%}
    {{ return({
        'inputs_read': inputs_read,
        'components_from': components_from,
        'user_metric_names': user_metric_names,
        'needs_user_metrics': spec.user_metrics | length > 0,
        'needs_group_metrics': spec.group_metrics | length > 0,
        'needs_list_metrics': spec.list_metrics | length > 0,
        'needs_items': 'items' in inputs_read,
        'needs_train': 'train' in inputs_read,
        'needs_head': spec.list_metrics | selectattr('name', 'equalto', 'long_tail_share') | list | length > 0,
        'needs_serendipity': 'serendipity' in list_metric_names,
        'needs_interactions': spec.user_metrics | length > 0 or 'serendipity' in list_metric_names,
        'needs_train_item_set': spec.group_metrics | selectattr('name', 'equalto', 'coverage') | list | length > 0 and spec.coverage_of != 'catalog',
        'diversity_metrics': spec.list_metrics | selectattr('name', 'equalto', 'intra_list_diversity') | list,
        'item_value_metrics': spec.list_metrics | rejectattr('name', 'equalto', 'intra_list_diversity') | list,
        'needs_train_items': list_metric_names | reject('equalto', 'intra_list_diversity') | list | length > 0
                             or ('intra_list_diversity' in list_metric_names and spec.item_distance == 'cooccurrence'),
        'needs_running_hits': 'precision_sum' in components_from.judged,
        'ranks_as_bits': ranks_as_bits,
        'needs_n_relevant_on_rows': 'hits_within_n_relevant' in components_from.judged,
        'needs_all_running': components_from.all_running | length > 0,
        'needs_idcg': 'idcg' in components_from.truth,
        'needs_ideal_order': 'idcg' in components_from.truth and spec.idcg == 'truth',
        'needs_slot_idcg': 'idcg' in components_from.truth and spec.idcg == 'k_positions',
        'every_idcg': spec.per_user or 'idcg' in names,
        'needs_present_idcg': 'idcg' in names and not spec.per_user,
        'exact_lengths': exact_lengths,
        'needs_list_lengths': 'n_recommended' in spec.components and (exact_lengths or whole_list_cutoff),
        'materialise_missing_users': every_truth_user and spec.per_user,
        'list_keys': spec.groups + ['rw_user'],
        'whole_list': '9223372036854775807',
        'inlined_recommendations': spec.score is none,
    }) }}
{% endmacro %}

{#- The condition that keeps a user in a metric's user set, over rows that carry
    rw_has_list and rw_n_relevant, or none when every row counts. -#}
{% macro _in_user_set(users) %}
    {%- if users == 'relevant' -%}
        {{ return('rw_has_list = 1 and rw_n_relevant > 0') }}
    {%- elif users == 'both' -%}
        {{ return('rw_has_list = 1') }}
    {%- else -%}
        {{ return(none) }}
    {%- endif -%}
{% endmacro %}

{#- The metric names of one level ('user', 'list' or 'group'), in registry order. -#}
{% macro _metric_names_of_level(level) %}
    {%- set names = [] -%}
    {%- for name, metric in rankwise._metric_registry().items() if metric.level == level %}{% do names.append(name) %}{% endfor -%}
    {{ return(names) }}
{% endmacro %}
