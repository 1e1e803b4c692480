{#- The planner of rankwise.evaluate and rankwise.compare: checks every argument
    and resolves them into one plan, so that the stages read decisions instead
    of re-deriving them: which metric at which cutoff, which per-list components
    each source must compute, which stages and strategies the query needs, and
    the quoted column names. `options` holds every option of the registry
    (conventions.sql's _option_registry) as given (a preset option left out is
    none: take the convention's value). `macro_name` names the function called
    (evaluate, compare...) in every error, as the plan's `spec.macro_name` for
    the checks that read the plan. The Python wrapper reads the same plan
    (_evaluation_plan) and re-derives none of it. -#}
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
    {%- do spec.update(rankwise._plan_stages(spec)) -%}
    {%- if user_group is not none and 'interactions' in spec.user_sets -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": with `user_group_col`, a mean over every user of the interactions would count the users without a list in no user group; give users='both' or users='relevant' (the users with a list, each in its group), or leave `user_group_col` out.") }}
    {%- endif -%}
    {{ return(spec) }}
{% endmacro %}

{#- Every option of the registry: the convention's value for a preset option
    not given, the option's default for any other, and each checked as its
    kind says. A `users` mapping given adds to the convention's sets. -#}
{% macro _resolved_options(options, per_user, macro_name) %}
    {%- set registry = rankwise._option_registry() -%}
    {%- set presets = rankwise._convention_presets() -%}
    {%- set convention = options.get('convention', registry.convention.default) -%}
    {%- do rankwise._check_choice(macro_name, 'convention', convention, presets.keys() | list) -%}
    {%- set resolved = rankwise._updated(rankwise.convention_options(convention), {}) -%}
    {%- for name, option in registry.items() -%}
        {%- set value = options.get(name) -%}
        {%- if not option.get('preset') -%}
            {%- do resolved.update({name: option.default if name not in options else value}) -%}
        {%- elif value is none -%}
        {%- elif option.kind == 'user_set' and value is mapping -%}
            {%- do resolved.update({name: rankwise._updated(resolved[name] if resolved[name] is mapping else {'default': resolved[name]}, value)}) -%}
        {%- else -%}
            {%- do resolved.update({name: value}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for name, option in registry.items() -%}
        {%- if option.kind == 'choice' -%}
            {%- do rankwise._check_choice(macro_name, name, resolved[name], option.choices) -%}
        {%- elif option.kind == 'number' -%}
            {%- do rankwise._number_literal(macro_name, name, resolved[name]) -%}
        {%- elif option.kind == 'model' and resolved[name] is not none and not (resolved[name] is string or (resolved[name] is number and resolved[name] is not boolean and (resolved[name] - resolved[name]) == 0)) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a value of the model column (text or a finite number), or none; got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'optional_share' and resolved[name] is not none and not (resolved[name] is number and resolved[name] is not boolean and resolved[name] > 0 and resolved[name] <= 1) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a number above 0 and at most 1 (" ~ option.help ~ "), or none; got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'share' and not (resolved[name] is number and resolved[name] is not boolean and resolved[name] > 0 and resolved[name] <= 1) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a number above 0 and at most 1 (" ~ option.help ~ "); got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'log_base' -%}
            {#- 'e' is the natural log: none in the plan -#}
            {%- do resolved.update({name: none if resolved[name] == 'e' else resolved[name]}) -%}
            {%- do rankwise._check_log_base(macro_name, resolved[name]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if per_user is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `per_user` must be true or false; got " ~ rankwise._describe(per_user) ~ ".") }}
    {%- endif -%}
    {%- if resolved.idcg == 'k_positions' and resolved.gain != 'binary' -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": idcg='k_positions' counts every one of the k slots as a relevant item of gain 1, so it needs gain='binary'; got gain=" ~ rankwise._describe(resolved.gain) ~ ".") }}
    {%- endif -%}
    {{ return(resolved) }}
{% endmacro %}

{#- The options of a mapping given (the package models' var rankwise_options),
    resolved as evaluate resolves them. -#}
{% macro _options_resolved(given) %}
    {{ return(rankwise._resolved_options(rankwise._given_options('evaluate', given, []), false, 'evaluate')) }}
{% endmacro %}

{#- The options given to a macro (its `kwargs`), each checked by name: every
    option of the registry, none (or its default) when not given. -#}
{% macro _given_options(macro_name, given, arguments) %}
    {%- set registry = rankwise._option_registry() -%}
    {%- do rankwise._check_no_unknown_arguments(macro_name, given, arguments + (registry.keys() | list)) -%}
    {%- set options = {} -%}
    {%- for name, option in registry.items() -%}
        {%- do options.update({name: given[name] if name in given else (none if option.get('preset') else option.default)}) -%}
    {%- endfor -%}
    {{ return(options) }}
{% endmacro %}

{#- The column arguments checked, and the group columns quoted. Engines match
    names case-insensitively, so clashes are checked in lower case. -#}
{% macro _checked_columns(options, group_by, argument, macro_name) %}
    {%- set user_col, item_col, rank_col, score_col, relevance_col = options.user_col, options.item_col, options.rank_col, options.score_col, options.relevance_col -%}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col), ('rank_col', rank_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for argument, value in [('score_col', score_col), ('relevance_col', relevance_col)] -%}
        {%- if value is not none and (value is not string or value | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a non-empty column name or none; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if group_by is none -%}{%- set group_by = [] -%}{%- elif group_by is string -%}{%- set group_by = [group_by] -%}{%- endif -%}
    {%- if group_by is mapping or group_by is not iterable -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a column name or a list of them; got " ~ rankwise._describe(group_by) ~ ".") }}
    {%- endif -%}
    {%- set reserved = ['metric', 'k', 'metric_label', 'value', 'n_users', 'n_users_without_list', 'n_relevant', 'n_recommended', 'hits', 'dcg', 'idcg'] -%}
    {%- if user_col | lower in reserved -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `user_col` may not be named '" ~ user_col ~ "': the output has a column of that name. Rename it in a view first.") }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for column in group_by -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": every entry of `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower in reserved or column | lower in [user_col | lower, item_col | lower] or (column | lower).startswith('rw_') -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ argument ~ " column '" ~ column ~ "' clashes with a column rankwise uses (the user and item columns, " ~ reserved | join(', ') ~ ", or a name starting with rw_). Rename it in a view first.") }}
        {%- endif -%}
        {%- if column | lower in groups | map('lower') | list -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ argument ~ " lists column '" ~ column ~ "' twice.") }}
        {%- endif -%}
        {%- do groups.append(column) -%}
    {%- endfor -%}
    {%- set quoted_groups = [] -%}
    {%- for column in groups %}{% do quoted_groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
    {{ return(quoted_groups) }}
{% endmacro %}

{#- `group_by` with the model column (model_col) added when it is not there:
    the models' lists are told apart as groups of the output. The metrics that
    compare a list with the reference model's (rbo, intersection) need
    model_col and reference; reference is refused when none of them is asked. -#}
{% macro _groups_with_model(every_metric, group_by, partition_by, options, macro_name) %}
    {%- set readers = rankwise._readers_of('reference_lists') -%}
    {%- set asked = every_metric | map(attribute='name') | select('in', readers) | unique | list -%}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set missing = [] -%}
    {%- if options.model_col is none %}{% do missing.append("`model_col` (the column of the recommendations naming the model)") %}{% endif -%}
    {%- if options.reference is none %}{% do missing.append("`reference` (the reference model's value of it)") %}{% endif -%}
    {%- if asked | length > 0 and missing | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ asked | join(', ') ~ " compare" ~ ("s" if asked | length == 1 else "") ~ " each model's list with the reference model's list of the same user; give " ~ missing | join(' and ') ~ ".") }}
    {%- endif -%}
    {%- if asked | length == 0 and options.reference is not none -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `reference` is given, but only " ~ readers | join(', ') ~ " read it and none is asked; add one to `metrics` or leave `reference` out.") }}
    {%- endif -%}
    {%- if options.model_col is none or groups is mapping or groups is not iterable -%}
        {{ return(group_by) }}
    {%- endif -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- if partitions is iterable and partitions is not mapping and options.model_col | lower in partitions | map('string') | map('lower') | list -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `model_col` '" ~ options.model_col ~ "' is in `partition_by`; the models are groups of the recommendations, not partitions of both inputs: leave it out of `partition_by`.") }}
    {%- endif -%}
    {%- if options.model_col | lower in groups | map('string') | map('lower') | list -%}
        {{ return(groups) }}
    {%- endif -%}
    {{ return(groups + [options.model_col]) }}
{% endmacro %}

{#- The quoted user group column (user_group_col), a group of the output after
    group_by's, read from the interactions; none without it. -#}
{% macro _user_group_column(options, group_by, partition_by, macro_name) %}
    {%- set column = options.user_group_col -%}
    {%- if column is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set taken = ([] if group_by is none else ([group_by] if group_by is string else group_by | list))
                    + ([] if partition_by is none else ([partition_by] if partition_by is string else partition_by | list))
                    + [options.user_col, options.item_col] -%}
    {%- if column | lower in taken | map('string') | map('lower') | list -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `user_group_col` '" ~ column ~ "' is already the user, item, a group_by or a partition_by column; name the column of the interactions that holds each user's group.") }}
    {%- endif -%}
    {{ return(rankwise.quote_identifier(column)) }}
{% endmacro %}

{#- A value of the model column as a literal of its type: text, or a number. -#}
{% macro _model_literal(value, macro_name) %}
    {%- if value is none -%}
        {{ return(none) }}
    {%- elif value is string -%}
        {{ return(rankwise._string_literal(value)) }}
    {%- endif -%}
    {{ return(rankwise._number_literal(macro_name, 'reference', value)) }}
{% endmacro %}

{#- The metrics asked (parsed entries), in order, split by level, each with
    what it reads under the options (`reads`), with the components and cutoffs
    the per-user ones need. -#}
{% macro _planned_metrics(requested, per_user, resolved, macro_name) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set by_level = {'user': [], 'list': [], 'group': []} -%}
    {%- set components = [] -%}
    {%- set cutoffs = [] -%}
    {%- set cutoff_seen = {} -%}
    {%- set instances = {} -%}
    {%- set user_sets = rankwise._user_sets(resolved.users, registry, macro_name) -%}
    {%- for entry in requested -%}
        {%- set metric = registry[entry.name] -%}
        {%- do entry.update({'position': loop.index, 'users': user_sets.get(entry.name, user_sets.default),
                             'level': metric.level, 'reads': rankwise._metric_reads(entry.name, resolved)}) -%}
        {%- if entry.k is none and metric.needs_cutoff is defined and rankwise._options_match(metric.needs_cutoff.when, resolved) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ entry.name ~ " needs a cutoff " ~ metric.needs_cutoff.why ~ "; ask for '" ~ entry.name ~ "@10', say, not the whole list.") }}
        {%- endif -%}
        {%- if entry.k is not none and metric.largest_cutoff is defined and rankwise._options_match(metric.largest_cutoff.when, resolved) and entry.k > metric.largest_cutoff.k -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ entry.name ~ "@" ~ entry.k ~ " " ~ metric.largest_cutoff.why ~ "; k may be at most " ~ metric.largest_cutoff.k ~ " there.") }}
        {%- endif -%}
        {%- do by_level[metric.level].append(entry) -%}
        {%- if metric.level == 'user' -%}
            {%- set columns = {} -%}
            {%- for component in rankwise._metric_components(entry.name, resolved) -%}
                {%- set instance = rankwise._component_instance(component, entry.parameters, instances) -%}
                {%- do columns.update({component: instance}) -%}
                {%- if instance not in components %}{% do components.append(instance) %}{% endif -%}
            {%- endfor -%}
            {%- do entry.update({'component_instances': columns}) -%}
            {%- if entry.k not in cutoff_seen %}{% do cutoffs.append(entry.k) %}{% do cutoff_seen.update({entry.k: true}) %}{% endif -%}
        {%- endif -%}
    {%- endfor -%}
    {#- per-user rows carry hits, list length, DCG and IDCG for drill-down -#}
    {%- set drill_down = ['hits', 'n_recommended', 'dcg', 'idcg'] if per_user else [] -%}
    {%- for component in drill_down -%}
        {%- set instance = rankwise._component_instance(component, {}, instances) -%}
        {%- if instance not in components %}{% do components.append(instance) %}{% endif -%}
    {%- endfor -%}
    {%- if per_user and by_level.group | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ (by_level.group | map(attribute='name') | join(', ')) ~ " has one value per group, not per user; drop it from `metrics` when per_user is true.") }}
    {%- endif -%}
    {{ return({'requested': requested, 'user_metrics': by_level.user, 'group_metrics': by_level.group, 'list_metrics': by_level.list,
               'components': components, 'component_instances': instances, 'cutoffs': cutoffs}) }}
{% endmacro %}

{#- With propensity_col, every metric asked that reads the interactions must
    have a weighted form (the registry's `weighted`); the options that have
    none are refused too. -#}
{% macro _check_weighted_metrics(every_metric, options, macro_name) %}
    {%- if options.propensity_col is none -%}
        {%- if options.propensity_clip is not none -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `propensity_clip` bounds the weights of `propensity_col`, which is not given; give it, or leave `propensity_clip` out.") }}
        {%- endif -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set weighted = [] -%}
    {%- for name, metric in registry.items() if metric.weighted is defined %}{% do weighted.append(name) %}{% endfor -%}
    {%- set refused = [] -%}
    {%- for entry in every_metric if entry.name not in weighted and entry.name not in refused -%}
        {%- if registry[entry.name].level == 'user' or 'shown_relevance' in rankwise._metric_reads(entry.name, options) -%}
            {%- do refused.append(entry.name) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if refused | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": with `propensity_col`, only " ~ weighted | join(', ') ~ " have an inverse-propensity estimate (docs/metrics.md, \"Debiased estimates\"); " ~ refused | join(', ') ~ (" has" if refused | length == 1 else " have") ~ " none. Evaluate " ~ ("it" if refused | length == 1 else "them") ~ " in a call without `propensity_col`.") }}
    {%- endif -%}
    {%- if options.duplicate_interactions == 'max' -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": duplicate_interactions='max' keeps one relevance of a pair listed twice, but not which of its propensities; with `propensity_col`, keep one row per (user, item).") }}
    {%- endif -%}
    {%- if options.idcg == 'k_positions' -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": idcg='k_positions' fills k slots with relevant items of gain 1, which have no propensity; with `propensity_col`, use idcg='truth'.") }}
    {%- endif -%}
{% endmacro %}

{#- The components a per-user metric reads: its registry `components`, or with
    propensity_col those of its `weighted` form. -#}
{% macro _metric_components(name, options) %}
    {%- set metric = rankwise._metric_registry()[name] -%}
    {%- if options.propensity_col is not none and metric.weighted is defined and metric.weighted.components is defined -%}
        {{ return(metric.weighted.components) }}
    {%- endif -%}
    {{ return(metric.components) }}
{% endmacro %}

{#- The name of the instance of `component` that a metric with `parameters`
    reads, added to `instances` ({instance: {component, parameters}}) when new: a
    component that reads no metric parameter has one instance, named after it;
    one that reads some (its registry `parameters`) has one per set of their
    values, named component__n. -#}
{% macro _component_instance(component, parameters, instances) %}
    {%- set read = rankwise._component_registry()[component].get('parameters', []) -%}
    {%- set values = {} -%}
    {%- for parameter in read %}{% do values.update({parameter: parameters[parameter]}) %}{% endfor -%}
    {%- set same = [] -%}
    {%- for name, instance in instances.items() if instance.component == component -%}
        {%- do same.append(name) -%}
        {%- if instance.parameters == values -%}
            {{ return(name) }}
        {%- endif -%}
    {%- endfor -%}
    {%- set name = component if read | length == 0 else component ~ '__' ~ (same | length + 1) -%}
    {%- do instances.update({name: {'component': component, 'parameters': values}}) -%}
    {{ return(name) }}
{% endmacro %}

{#- `users` as {'default': set, metric: set...}, checked. -#}
{% macro _user_sets(users, registry, macro_name) %}
    {%- set choices = ['both', 'interactions', 'relevant'] -%}
    {%- set sets = users if users is mapping else {'default': users} -%}
    {%- for name, value in sets.items() -%}
        {%- if name != 'default' and (name not in registry or registry[name].level != 'user') -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `users` maps '" ~ name ~ "', which is not a per-user metric; use metric names without @k (" ~ (rankwise._metric_names_of_level('user') | join(', ')) ~ ") or 'default'.") }}
        {%- endif -%}
        {%- do rankwise._check_choice(macro_name, 'users' if name == 'default' else 'users.' ~ name, value, choices) -%}
    {%- endfor -%}
    {%- if 'default' not in sets -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": internal error, `users` has no default set.") }}
    {%- endif -%}
    {{ return(sets) }}
{% endmacro %}

{#- What the stages need, decided once from the metrics and options. -#}
{% macro _plan_stages(spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set metrics = rankwise._metric_registry() -%}
    {%- set components_from = {'list_rows': [], 'judged': [], 'all_running': [], 'truth': []} -%}
    {#- the windows over the judged rows the components read, and whether they
        read the largest relevance of the interactions -#}
    {%- set row_windows = [] -%}
    {%- set reads_max_relevance = [] -%}
    {%- for instance in spec.components -%}
        {%- set declared = registry[spec.component_instances[instance].component] -%}
        {%- do components_from[declared.source].append(instance) -%}
        {%- do row_windows.extend(declared.get('row_windows', [])) -%}
        {%- if declared.max_relevance_when is defined and rankwise._options_match(declared.max_relevance_when, spec.component_instances[instance].parameters) -%}
            {%- do reads_max_relevance.append(instance) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- one entry per metric name, in the order asked: the formulas do not depend on k -#}
    {%- set names = [] -%}
    {%- set user_metric_names = [] -%}
    {%- set default_cutoffs = {} -%}
    {%- for cutoff in spec.default_cutoffs %}{% do default_cutoffs.update({cutoff: true}) %}{% endfor -%}
    {%- set cutoffs_of = {} -%}
    {%- for entry in spec.user_metrics -%}
        {%- do cutoffs_of.update({entry.key: cutoffs_of.get(entry.key, []) + [entry.k]}) -%}
    {%- endfor -%}
    {%- for entry in spec.user_metrics if entry.key not in names -%}
        {%- do names.append(entry.key) -%}
        {%- set its_cutoffs = cutoffs_of[entry.key] -%}
        {#- a metric asked at exactly the cutoffs of `k` takes its grid rows from rw_cutoffs -#}
        {%- set outside_default = [] -%}
        {%- for cutoff in its_cutoffs if cutoff not in default_cutoffs %}{% do outside_default.append(cutoff) %}{% endfor -%}
        {%- set at_default_cutoffs = its_cutoffs | length == spec.default_cutoffs | length and outside_default | length == 0 -%}
        {%- do user_metric_names.append({'name': entry.name, 'key': entry.key, 'label': entry.label, 'parameters': entry.parameters,
                                         'component_instances': entry.component_instances, 'users': entry.users,
                                         'zero_without_list': metrics[entry.name].zero_without_list, 'at_default_cutoffs': at_default_cutoffs}) -%}
    {%- endfor -%}
    {%- set every_truth_user = 'interactions' in spec.user_sets -%}
    {#- what the metrics read besides the lists (their registry `reads` under the
        options), in all and per level; the optional inputs among them -#}
    {%- set reads = [] -%}
    {%- set reads_of_level = {'user': [], 'list': [], 'group': []} -%}
    {%- for entry in spec.requested -%}
        {%- for read in entry.reads -%}
            {%- if read not in reads %}{% do reads.append(read) %}{% endif -%}
            {%- if read not in reads_of_level[entry.level] %}{% do reads_of_level[entry.level].append(read) %}{% endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set pair_metrics = [] -%}
    {%- for entry in spec.list_metrics if metrics[entry.name].pairs is defined %}{% do pair_metrics.append(entry) %}{% endfor -%}
    {%- set reference_metrics = [] -%}
    {%- for entry in spec.list_metrics if metrics[entry.name].reference is defined %}{% do reference_metrics.append(entry) %}{% endfor -%}
    {%- set calibration_metrics = [] -%}
    {%- for entry in spec.list_metrics if metrics[entry.name].calibration is defined %}{% do calibration_metrics.append(entry) %}{% endfor -%}
    {%- set profile_metrics = [] -%}
    {%- for entry in spec.list_metrics if metrics[entry.name].profile is defined %}{% do profile_metrics.append(entry) %}{% endfor -%}
    {%- set item_value_metrics = spec.list_metrics | reject('in', pair_metrics) | reject('in', reference_metrics) | reject('in', calibration_metrics) | list -%}
    {%- set persistences = [] -%}
    {%- for entry in reference_metrics if entry.parameters.p is defined and entry.parameters.p not in persistences %}{% do persistences.append(entry.parameters.p) %}{% endfor -%}
    {%- set item_group_metrics = [] -%}
    {%- for entry in spec.group_metrics if 'item_groups' in entry.reads %}{% do item_group_metrics.append(entry) %}{% endfor -%}
    {%- set item_value_reads = [] -%}
    {%- for entry in item_value_metrics %}{% do item_value_reads.extend(entry.reads) %}{% endfor -%}
    {%- set whole_list_cutoff = none in spec.cutoffs -%}
    {%- set exact_lengths = 'n_recommended' in spec.components and (spec.per_user or spec.precision_denominator == 'list_length') -%}
    {#- the metrics a user without a list does not score 0 on read their
        components of every user of the truth -#}
    {%- set truth_properties = user_metric_names | rejectattr('zero_without_list') | list | length > 0 -%}
    {#- under user_arrays every list is a row, judged or not, and reads its
        user's IDCG (every_idcg) -#}
    {%- set judged_strategy = rankwise._judged_strategy(spec, components_from.judged,
                                                        spec.user_group is none and not spec.per_user and spec.list_metrics | length == 0
                                                        and spec.group_metrics | length == 0 and not truth_properties and not exact_lengths
                                                        and components_from.all_running | length == 0) -%}
    {%- set means_in_one_pass = judged_strategy == 'user_arrays' -%}
    {#- user_arrays reads each user's IDCG off the truth's entries on the user's
        row: no stage of its own (needs_ideal_stage) -#}
    {%- set ideal_strategy = rankwise._ideal_strategy(spec, components_from.truth, means_in_one_pass) -%}
    {{ return({
        'inputs_read': reads | select('in', ['items', 'train']) | list,
        'reads': reads,
        'list_reads': reads_of_level.list,
        'components_from': components_from,
        'user_metric_names': user_metric_names,
        'needs_user_metrics': spec.user_metrics | length > 0,
        'needs_group_metrics': spec.group_metrics | length > 0,
        'needs_list_metrics': spec.list_metrics | length > 0,
        'needs_items': 'items' in reads,
        'needs_catalog_size': 'catalog_size' in reads,
        'needs_head': 'head' in reads,
        'needs_popularity_rank': 'popularity_rank' in reads,
        'needs_interactions': spec.user_metrics | length > 0 or 'shown_relevance' in reads or 'item_groups' in reads,
        'needs_item_groups': 'item_groups' in reads,
        'item_group_metrics': item_group_metrics,
        'needs_train_item_set': 'train_item_set' in reads,
        'needs_train_popularity': 'train_popularity' in reads,
        'pair_metrics': pair_metrics,
        'reference_metrics': reference_metrics,
        'reference_cutoffs': reference_metrics | map(attribute='k') | unique | list,
        'overlap_persistences': persistences,
        'item_value_metrics': item_value_metrics,
        'profile_metrics': profile_metrics,
        'calibration_metrics': calibration_metrics,
        'calibration_cutoffs': calibration_metrics | map(attribute='k') | unique | list,
        'needs_train_profiles': 'train_profiles' in reads,
        'item_values_read_popularity': 'train_popularity' in item_value_reads,
        'needs_running_hits': 'hits_so_far' in row_windows,
        'needs_continuation': 'continuation' in row_windows,
        'needs_max_relevance': reads_max_relevance | length > 0,
        'judged_strategy': judged_strategy,
        'means_in_one_pass': means_in_one_pass,
        'ideal_strategy': ideal_strategy,
        'needs_ideal_stage': ideal_strategy not in [none, 'user_arrays'],
        'needs_n_relevant_on_rows': 'hits_within_n_relevant' in components_from.judged,
        'needs_all_running': components_from.all_running | length > 0,
        'needs_idcg': 'idcg' in components_from.truth,
        'every_idcg': spec.per_user or truth_properties or means_in_one_pass,
        'needs_present_idcg': truth_properties and not spec.per_user,
        'exact_lengths': exact_lengths,
        'needs_list_lengths': 'n_recommended' in spec.components and (exact_lengths or whole_list_cutoff),
        'materialise_missing_users': every_truth_user and spec.per_user,
        'list_keys': spec.groups + ['rw_user'],
        'whole_list': '9223372036854775807',
        'inlined_recommendations': spec.score is none,
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
    aggregate, on an engine with arrays) or 'ideal_ranks' (a window numbering
    each user's truth by relevance); none without IDCG. -#}
{% macro _ideal_strategy(spec, truth_components, means_in_one_pass=false) %}
    {%- if 'idcg' not in truth_components -%}
        {{ return(none) }}
    {%- elif spec.idcg == 'k_positions' -%}
        {{ return('k_slots') }}
    {%- elif spec.propensity is not none -%}
        {#- weighted gains: no two users' ideal lists share their terms -#}
        {{ return('ideal_ranks') }}
    {%- elif spec.relevance is none and spec.cutoffs | length > 0 and none not in spec.cutoffs and spec.cutoffs | max <= 10000 -%}
        {{ return('equal_gains') }}
    {%- elif means_in_one_pass and spec.relevance is not none -%}
        {{ return('user_arrays') }}
    {%- elif rankwise._engine_has_top_k_lists() -%}
        {{ return('top_k_gains') }}
    {%- endif -%}
    {{ return('ideal_ranks') }}
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
        reads the truth's pairs already grouped -#}
    {%- do spec.update({'checks_fuse': parts | length == 0 and not per_user and spec.needs_user_metrics
                                       and spec.duplicate_interactions != 'max' and spec.propensity is none}) -%}
    {{ return(spec) }}
{% endmacro %}

{#- The optional inputs (items, train) and the catalog's columns the metrics
    read, checked, and the columns each input is read for: evaluate's plan and
    compare's (whose group_by has the model column) both take them. -#}
{% macro _plan_inputs(spec, options, group_by, partition_by, items, train) %}
    {%- do spec.update(rankwise._optional_inputs(spec, items, train)) -%}
    {%- do spec.update(rankwise._item_feature_columns(spec, options.item_col, options.item_vector_col, options.item_feature_cols)) -%}
    {%- do spec.update(rankwise._item_group_column(spec, options.item_col, options.item_group_col)) -%}
    {%- set columns_read = rankwise._columns_read(options, group_by, partition_by) -%}
    {%- set partition_columns = [] -%}
    {%- for column, purpose in columns_read.interactions if purpose == 'partition_by column' %}{% do partition_columns.append((column, purpose)) %}{% endfor -%}
    {%- do columns_read.update({'items': [(options.item_col, 'item id')] + spec.item_columns_read + spec.item_group_columns_read,
                                'train': [(options.user_col, 'user id'), (options.item_col, 'item id')] + partition_columns}) -%}
    {%- do spec.update({'columns_read': columns_read}) -%}
{% endmacro %}

{#- The arguments evaluate takes besides the two inputs and the options. -#}
{% macro _evaluate_arguments() %}
    {{ return(['metrics', 'k', 'group_by', 'per_user', 'partition_by', 'confidence', 'bootstrap_resamples', 'seed', 'items', 'train']) }}
{% endmacro %}

{#- What the Python wrapper needs to know of an evaluation, from the planner
    alone (it re-derives none of it): the options resolved, the metrics asked
    by level (and whether the report's verdict compares each), the optional inputs read, the warning for each optional input
    given that no metric reads, and the group columns (group_by with model_col). The
    arguments are evaluate's; `items` and `train` are true when given; `caller` names
    the function (evaluate, compare...) in the errors and warnings. -#}
{% macro _evaluation_plan(metrics=none, k=none, group_by=none, per_user=false, partition_by=none, confidence=0.95,
                          bootstrap_resamples=none, seed=0, items=false, train=false, caller='evaluate') %}
    {%- set spec = rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                             seed, 'items' if items else none, 'train' if train else none, kwargs, caller) -%}
    {%- set options = rankwise._updated(spec.options, {}) -%}
    {%- set unread = [] -%}
    {%- for input, given in [('items', items), ('train', train)] if given and input not in spec.inputs_read -%}
        {%- do unread.append({'input': input, 'message': "rankwise." ~ caller ~ ": `" ~ input ~ "` is given but none of the metrics asked reads it ("
                              ~ rankwise._readers_of(input) | join(', ') ~ " do); it is not read or checked."}) -%}
    {%- endfor -%}
    {%- set metrics_asked = [] -%}
    {%- for part in [spec] + spec.parts -%}
        {%- for entry in part.requested -%}
            {#- compared: the report's verdict compares the models on it: a per-user value that depends on the model -#}
            {%- do metrics_asked.append({'name': entry.name, 'k': entry.k, 'level': entry.level, 'reads': entry.reads,
                                         'compared': entry.level == 'user' and rankwise._metric_registry()[entry.name].get('zero_without_list', false)}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return({
        'options': options,
        'metrics': metrics_asked,
        'inputs_read': spec.inputs_read,
        'unread_inputs': unread,
        'metrics_shown_by_a_hit': rankwise._metrics_shown_by_a_hit(),
        'checks_fuse': spec.checks_fuse,
        'group_by': rankwise._groups_with_model(spec.every_metric, group_by, partition_by, spec.options, spec.macro_name),
    }) }}
{% endmacro %}

{#- The names of the metrics whose registry entry has `flag` true. -#}
{% macro _metric_names_where(flag) %}
    {%- set names = [] -%}
    {%- for name, metric in rankwise._metric_registry().items() if metric.get(flag) %}{% do names.append(name) %}{% endfor -%}
    {{ return(names) }}
{% endmacro %}

{#- The metrics that read `read` (an optional input or a stage) under some
    option values, in registry order. -#}
{% macro _readers_of(read) %}
    {%- set names = [] -%}
    {%- for name, metric in rankwise._metric_registry().items() -%}
        {%- set cases = [metric.get('reads', [])] -%}
        {%- for case in metric.get('reads_when', []) %}{% do cases.append(case.reads) %}{% endfor -%}
        {%- for reads in cases if read in reads and name not in names %}{% do names.append(name) %}{% endfor -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}

{#- Per input, the (column, purpose) pairs evaluate reads, as the Python wrapper
    names them in its messages. -#}
{% macro _columns_read(options, group_by, partition_by) %}
    {%- set user_col, item_col, rank_col, score_col, relevance_col = options.user_col, options.item_col, options.rank_col, options.score_col, options.relevance_col -%}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- set recommendations = [(user_col, 'user id'), (item_col, 'item id'), (score_col, 'score') if score_col is not none else (rank_col, 'rank')] -%}
    {%- for column in groups %}{% do recommendations.append((column, 'group_by column')) %}{% endfor -%}
    {%- if options.model_col is not none and options.model_col | lower not in groups | map('string') | map('lower') | list -%}
        {%- do recommendations.append((options.model_col, 'model column')) -%}
    {%- endif -%}
    {%- set interactions = [(user_col, 'user id'), (item_col, 'item id'), (relevance_col, 'relevance')] -%}
    {%- for column in partitions -%}
        {%- do recommendations.append((column, 'partition_by column')) -%}
        {%- do interactions.append((column, 'partition_by column')) -%}
    {%- endfor -%}
    {%- if options.propensity_col is not none %}{% do interactions.append((options.propensity_col, 'propensity')) %}{% endif -%}
    {%- if options.user_group_col is not none %}{% do interactions.append((options.user_group_col, 'user group')) %}{% endif -%}
    {{ return({'recommendations': recommendations, 'interactions': interactions}) }}
{% endmacro %}

{#- The optional inputs (`items`, `train`) the metrics asked read, each refused
    with the metrics that need it when missing; given but unread, left out. -#}
{% macro _optional_inputs(spec, items, train) %}
    {%- for input, relation in [('items', items), ('train', train)] if input in spec.inputs_read and relation is none -%}
        {%- set needing = [] -%}
        {%- for entry in spec.requested if input in entry.reads and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": " ~ needing | join(', ') ~ " " ~ ("needs" if needing | length == 1 else "need") ~ " the `" ~ input ~ "` input ("
            ~ ("the catalog: one row per item that could be recommended" if input == 'items' else "the interactions the model was trained on, for the items' popularity") ~ ").") }}
    {%- endfor -%}
    {{ return({'items_relation': items, 'train_relation': train}) }}
{% endmacro %}

{#- The columns of the catalog a pair metric's distance reads, checked
    against item_distance: a vector column (an array of doubles) or feature
    columns for 'cosine', feature columns for 'hamming', none for
    'cooccurrence'. A column given that no metric reads is refused, not
    ignored. -#}
{% macro _item_feature_columns(spec, item_col, item_vector_col, item_feature_cols) %}
    {%- set diversity = spec.pair_metrics | length > 0 -%}
    {%- if item_vector_col is not none and (item_vector_col is not string or item_vector_col | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_vector_col` must be a non-empty column name or none; got " ~ rankwise._describe(item_vector_col) ~ ".") }}
    {%- endif -%}
    {%- set features = [] if item_feature_cols is none else ([item_feature_cols] if item_feature_cols is string else item_feature_cols) -%}
    {%- if features is mapping or features is not iterable or (item_feature_cols is not none and features | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_feature_cols` must be a column name or a non-empty list of them, or none; got " ~ rankwise._describe(item_feature_cols) ~ ".") }}
    {%- endif -%}
    {%- for column in features -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": every entry of `item_feature_cols` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower == item_col | lower or column | lower in (features[:loop.index0] | map('lower') | list) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_feature_cols` lists column '" ~ column ~ "' twice, or the item column; list each feature column once.") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set given = (['item_vector_col'] if item_vector_col is not none else []) + (['item_feature_cols'] if features | length > 0 else []) -%}
    {%- if not diversity and given | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `" ~ given | join('` and `') ~ "` " ~ ("is" if given | length == 1 else "are") ~ " given, but only " ~ rankwise._readers_of('item_features') | join(', ') ~ " reads the items' features and it is not asked; add it to `metrics` or leave the argument out.") }}
    {%- endif -%}
    {%- if diversity -%}
        {%- if spec.item_distance == 'cooccurrence' and given | length > 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='cooccurrence' compares items by their users in `train` and reads no feature; leave out `" ~ given | join('` and `') ~ "`, or pick item_distance='cosine' or 'hamming'.") }}
        {%- elif spec.item_distance == 'hamming' and (item_vector_col is not none or features | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='hamming' counts the features two items differ in; give the catalog's feature columns as `item_feature_cols` (and no `item_vector_col`).") }}
        {%- elif spec.item_distance == 'cosine' and given | length != 1 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='cosine' compares the items' vectors; give either `item_vector_col` (a column of the catalog holding an array of numbers) or `item_feature_cols` (numeric columns that form the vector), " ~ ("not both." if given | length == 2 else "or pick item_distance='cooccurrence' to compare items by their users in `train`.")) }}
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

{#- The catalog's item group column (item_group_col), which the metrics that
    read 'item_groups' need; given when none of them is asked, refused rather
    than ignored. -#}
{% macro _item_group_column(spec, item_col, item_group_col) %}
    {%- if item_group_col is not none and (item_group_col is not string or item_group_col | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_group_col` must be a non-empty column name or none; got " ~ rankwise._describe(item_group_col) ~ ".") }}
    {%- endif -%}
    {%- set needing = [] -%}
    {%- for entry in spec.requested if 'item_groups' in entry.reads and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
    {%- if spec.needs_item_groups and item_group_col is none -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": " ~ needing | join(', ') ~ (" reads" if needing | length == 1 else " read") ~ " the items' groups; give `item_group_col`, the column of the catalog (`items`) naming each item's group.") }}
    {%- endif -%}
    {%- if item_group_col is not none and not spec.needs_item_groups -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_group_col` is given, but only " ~ rankwise._readers_of('item_groups') | join(', ') ~ " read the item groups and none is asked; add one to `metrics` or leave the argument out.") }}
    {%- endif -%}
    {%- if item_group_col is not none and item_group_col | lower == item_col | lower -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_group_col` is the item column '" ~ item_col ~ "'; give the column of the catalog naming each item's group.") }}
    {%- endif -%}
    {{ return({'item_group': none if item_group_col is none else rankwise.quote_identifier(item_group_col),
               'item_group_columns_read': [] if item_group_col is none else [(item_group_col, 'item group')]}) }}
{% endmacro %}
