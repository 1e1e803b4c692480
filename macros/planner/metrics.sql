{#- The metrics asked, planned: by level, each with what it reads under the
    options and its user set, and the per-list components the per-user ones
    read (macros/evaluate/metric_registry.sql, component_registry.sql). -#}

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

{#- What the metrics asked read, decided once for the stages: the components
    by source, one entry per per-user metric name (the formulas do not depend
    on k), the list-level metrics by kind (their registry's pairs, reference,
    calibration and profile), and `demands`, every read of the metrics and of
    their components (the component registry's `reads`), which plan the
    stages (planner/stages.sql). -#}
{% macro _planned_reads(spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set metrics = rankwise._metric_registry() -%}
    {%- set components_from = {'list_rows': [], 'judged': [], 'all_running': [], 'truth': []} -%}
    {%- set demands = [] -%}
    {#- per-user rows carry the drill-down components even when no per-user
        metric is asked; nothing computes them then -#}
    {%- for instance in spec.components if spec.user_metrics | length > 0 -%}
        {%- set planned = spec.component_instances[instance] -%}
        {%- set declared = registry[planned.component] -%}
        {%- do components_from[declared.source].append(instance) -%}
        {%- set reads = [declared.get('reads', [])] -%}
        {%- for case in declared.get('reads_when', []) if rankwise._options_match(case.when, planned.parameters) %}{% do reads.append(case.reads) %}{% endfor -%}
        {%- for read in reads | sum(start=[]) if read not in demands %}{% do demands.append(read) %}{% endfor -%}
    {%- endfor -%}
    {%- set cutoffs_of = {} -%}
    {%- for entry in spec.user_metrics -%}
        {%- do cutoffs_of.update({entry.key: cutoffs_of.get(entry.key, []) + [entry.k]}) -%}
    {%- endfor -%}
    {%- set user_metric_names = [] -%}
    {%- set named = [] -%}
    {%- for entry in spec.user_metrics if entry.key not in named -%}
        {%- do named.append(entry.key) -%}
        {#- a metric asked at exactly the cutoffs of `k` takes its grid rows from rw_cutoffs -#}
        {%- set its_cutoffs = cutoffs_of[entry.key] -%}
        {%- set at_default_cutoffs = its_cutoffs | length == spec.default_cutoffs | length
                                     and its_cutoffs | reject('in', spec.default_cutoffs) | list | length == 0 -%}
        {%- do user_metric_names.append({'name': entry.name, 'key': entry.key, 'label': entry.label, 'parameters': entry.parameters,
                                         'component_instances': entry.component_instances, 'users': entry.users,
                                         'zero_without_list': metrics[entry.name].zero_without_list, 'at_default_cutoffs': at_default_cutoffs,
                                         'every_user': metrics[entry.name].get('every_user', false),
                                         'summary': metrics[entry.name].get('summary', 'mean')}) -%}
    {%- endfor -%}
    {%- for entry in spec.requested -%}
        {%- for read in entry.reads if read not in demands %}{% do demands.append(read) %}{% endfor -%}
    {%- endfor -%}
    {%- set kinds = {'pairs': [], 'reference': [], 'calibration': [], 'profile': []} -%}
    {%- for entry in spec.list_metrics -%}
        {%- for kind in kinds if metrics[entry.name][kind] is defined %}{% do kinds[kind].append(entry) %}{% endfor -%}
    {%- endfor -%}
    {%- set item_value_metrics = spec.list_metrics | reject('in', kinds.pairs + kinds.reference + kinds.calibration) | list -%}
    {%- set item_group_metrics = [] -%}
    {%- for entry in spec.group_metrics if 'item_groups' in entry.reads %}{% do item_group_metrics.append(entry) %}{% endfor -%}
    {%- set persistences = [] -%}
    {%- for entry in kinds.reference if entry.parameters.p is defined and entry.parameters.p not in persistences %}{% do persistences.append(entry.parameters.p) %}{% endfor -%}
    {{ return({
        'components_from': components_from,
        'user_metric_names': user_metric_names,
        'demands': demands,
        'inputs_read': demands | select('in', ['items', 'train']) | list,
        'pair_metrics': kinds.pairs,
        'reference_metrics': kinds.reference,
        'calibration_metrics': kinds.calibration,
        'profile_metrics': kinds.profile,
        'item_value_metrics': item_value_metrics,
        'item_group_metrics': item_group_metrics,
        'reference_cutoffs': kinds.reference | map(attribute='k') | unique | list,
        'calibration_cutoffs': kinds.calibration | map(attribute='k') | unique | list,
        'overlap_persistences': persistences,
    }) }}
{% endmacro %}
