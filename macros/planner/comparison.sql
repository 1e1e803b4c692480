{#- compare's own plan: its arguments checked, and what it adds to
    evaluate's plan of the same metrics with the model as the last group
    column. -#}

{#- The plan of one rankwise.compare: evaluate's plan of the metrics (per-user
    means, the model column the last group), compare's own decisions, the
    optional inputs, and its stages. `given` holds the options passed. -#}
{% macro _comparison_spec(metrics, k, model_col, baseline, group_by, partition_by, confidence, tests, n_resamples, seed, correction,
                          alpha, margin, equivalence, items, train, given) %}
    {%- set options = rankwise._given_options('compare', given, rankwise._compare_arguments()) -%}
    {%- set groups = rankwise._compared_groups(model_col, group_by, partition_by) -%}
    {%- set options = rankwise._compared_options(options, model_col) -%}
    {%- set spec = rankwise._evaluate_spec(metrics, k, groups + [model_col], false, options, partition_by, 'compare') -%}
    {%- do spec.update(rankwise._comparison_plan(spec, model_col, baseline, confidence, tests, n_resamples, seed, correction, alpha,
                                                 margin, equivalence)) -%}
    {#- the model column is read as such, not as one more group column -#}
    {%- do rankwise._plan_inputs(spec, rankwise._updated(options, {'model_col': model_col}), groups, partition_by, items, train) -%}
    {%- do rankwise._plan_stages(spec, rankwise._comparison_roots(spec)) -%}
    {{ return(spec) }}
{% endmacro %}

{#- Where a comparison's stages start: per level of the metrics asked, and
    per test asked (the stage registry's _stage_roots); the populations of the
    pairs when a metric is over the users with both lists. -#}
{% macro _comparison_roots(spec) %}
    {%- set declared = rankwise._stage_roots().compare -%}
    {%- set roots = [] -%}
    {%- for level, metrics in [('user', spec.user_metrics), ('list', spec.list_metrics)] if metrics | length > 0 -%}
        {%- do roots.extend(declared.levels[level]) -%}
        {%- for test in spec.tests %}{% do roots.extend(declared.tests[test][level]) %}{% endfor -%}
    {%- endfor -%}
    {%- if spec.user_metrics | length > 0 and ('both' in spec.user_sets or 'relevant' in spec.user_sets) -%}
        {%- do roots.append('pair_populations') -%}
    {%- endif -%}
    {{ return(roots) }}
{% endmacro %}

{#- The options as evaluate's plan of the comparison reads them (the macro's
    and the Python wrapper's): with a `reference`, rbo and intersection read
    each list's model from compare's model column. -#}
{% macro _compared_options(options, model_col) %}
    {%- if options.get('reference') is none -%}
        {{ return(options) }}
    {%- endif -%}
    {{ return(rankwise._updated(options, {'model_col': model_col})) }}
{% endmacro %}

{#- The arguments compare takes besides the two inputs and the options. -#}
{% macro _compare_arguments() %}
    {{ return(['metrics', 'k', 'model_col', 'baseline', 'group_by', 'partition_by', 'confidence', 'tests', 'n_resamples',
               'seed', 'correction', 'alpha', 'margin', 'equivalence', 'items', 'train', 'validate']) }}
{% endmacro %}

{#- The output columns of compare besides the group columns, which no group
    column may be named. -#}
{% macro _comparison_columns() %}
    {{ return(['metric', 'k', 'metric_label', 'model', 'baseline', 'n_users', 'mean', 'baseline_mean', 'diff',
               'relative_diff', 'ci_low', 'ci_high', 'effect_size', 't_statistic', 'p_value', 'p_randomization',
               'bootstrap_ci_low', 'bootstrap_ci_high', 'p_adjusted', 'p_non_inferiority', 'p_non_inferiority_adjusted',
               'p_equivalence', 'p_equivalence_adjusted', 'minimum_detectable_difference', 'wins', 'ties', 'losses', 'significant']) }}
{% endmacro %}

{#- group_by as a list, checked against the model column and compare's output
    columns (evaluate's planner checks the rest). -#}
{% macro _compared_groups(model_col, group_by, partition_by) %}
    {%- if model_col is not string or model_col | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `model_col` must be a non-empty column name (the column of the recommendations that tells the models apart); got " ~ rankwise._describe(model_col) ~ ".") }}
    {%- endif -%}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- if groups is mapping or groups is not iterable -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `group_by` must be a column name or a list of them; got " ~ rankwise._describe(group_by) ~ ".") }}
    {%- endif -%}
    {%- set taken = rankwise._comparison_columns() -%}
    {%- for column in (groups | list) + (partitions | list if partitions is iterable and partitions is not mapping else []) + [model_col] -%}
        {%- if column is string and not loop.last and column | lower == model_col | lower -%}
            {{ exceptions.raise_compiler_error("rankwise.compare: column '" ~ column ~ "' is the model column; leave it out of `group_by` and `partition_by`, as every model is compared within each group.") }}
        {%- endif -%}
        {%- if column is string and not loop.last and column | lower in taken -%}
            {{ exceptions.raise_compiler_error("rankwise.compare: column '" ~ column ~ "' has the name of an output column of rankwise.compare: " ~ taken | join(', ') ~ ". Rename it in a view first.") }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(groups | list) }}
{% endmacro %}

{#- {option: value} as the keyword arguments that set them, such as relevance_threshold=2 and ... (the options a metric's `rel` sets). -#}
{% macro _options_as_arguments(options) %}
    {%- set arguments = [] -%}
    {%- for name, value in options | dictsort -%}
        {%- do arguments.append(name ~ '=' ~ (("'" ~ value ~ "'") if value is string else value)) -%}
    {%- endfor -%}
    {{ return(arguments | join(' and ')) }}
{% endmacro %}

{#- compare's own decisions, checked, added to evaluate's plan. -#}
{% macro _comparison_plan(spec, model_col, baseline, confidence, tests, n_resamples, seed, correction, alpha, margin=none,
                          equivalence=false) %}
    {%- for part in spec.threshold_parts -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: " ~ part.metrics | join(', ') ~ " sets a relevance threshold of its own (rel), which compare does not take yet; compare it in a call of its own with "
                                            ~ rankwise._options_as_arguments(part.overrides) ~ ".") }}
    {%- endfor -%}
    {%- if spec.user_group is not none -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: `user_group_col` is not taken by compare yet; compare the models of each user group in a call of its own, on the lists and interactions of its users.") }}
    {%- endif -%}
    {%- if spec.group_metrics | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: " ~ (spec.group_metrics | map(attribute='name') | join(', ')) ~ " has one value per group, not per user, so it has no paired differences to test; compare it with evaluate.") }}
    {%- endif -%}
    {%- for metric in spec.user_metric_names if not metric.zero_without_list -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: " ~ metric.name ~ " is a property of the interactions, the same for every model; leave it out of `metrics`.") }}
    {%- endfor -%}
    {#- the tests compare means of paired per-user values -#}
    {%- for metric in spec.user_metric_names if metric.summary != 'mean' -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: " ~ metric.name ~ "'s summary is " ~ {'sum': 'a total', 'geometric': 'a geometric mean'}[metric.summary] ~ " over the users, not a mean, and compare tests the mean of paired per-user differences; leave it out of `metrics` (compare " ~ ('map or bpref' if metric.summary == 'geometric' else 'the per-user metrics') ~ " instead).") }}
    {%- endfor -%}
    {%- if baseline is not none and not (baseline is string or (baseline is number and baseline is not boolean and (baseline - baseline) == 0)) -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `baseline` must be a value of the model column (text or a number), or none to compare every pair; got " ~ rankwise._describe(baseline) ~ ".") }}
    {%- endif -%}
    {%- if not (confidence is number and confidence is not boolean and confidence > 0 and confidence < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `confidence` must be a number strictly between 0 and 1, such as 0.95; got " ~ rankwise._describe(confidence) ~ ".") }}
    {%- endif -%}
    {%- if not (alpha is number and alpha is not boolean and alpha > 0 and alpha < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `alpha` must be a number strictly between 0 and 1, such as 0.05; got " ~ rankwise._describe(alpha) ~ ".") }}
    {%- endif -%}
    {%- set tests = [tests] if tests is string else tests -%}
    {%- if tests is mapping or tests is not iterable or tests | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `tests` must be a non-empty list of 't', 'randomization' and 'bootstrap'; got " ~ rankwise._describe(tests) ~ ".") }}
    {%- endif -%}
    {%- for test in tests -%}
        {%- do rankwise._check_choice('compare', 'tests', test, ['t', 'randomization', 'bootstrap']) -%}
    {%- endfor -%}
    {%- if not (n_resamples is integer and n_resamples is not boolean and n_resamples >= 1 and n_resamples <= 1000000) -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `n_resamples` must be an integer from 1 to 1000000; got " ~ rankwise._describe(n_resamples) ~ ".") }}
    {%- endif -%}
    {%- do rankwise._check_integer('compare', 'seed', seed) -%}
    {%- do rankwise._check_choice('compare', 'correction', correction, ['holm', 'bh', 'none']) -%}
    {%- if margin is not none and not (margin is number and margin is not boolean and (margin - margin) == 0 and margin > 0) -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `margin` must be a finite number above 0 (how much worse than the baseline, on the metric's scale, still counts as no worse), or none; got " ~ rankwise._describe(margin) ~ ".") }}
    {%- endif -%}
    {#- "no worse" reads worse as lower, which it is for every per-user metric
        with a better side; a list-level metric has none (a higher novelty, arp,
        popularity_lift or miscalibration is not a better list), nor do judged
        and unjudged (a share of the judgments, not of quality) -#}
    {%- set sideless = spec.list_metrics | map(attribute='name') | list -%}
    {%- for entry in spec.user_metrics if rankwise._metric_registry()[entry.name].get('better') is none and entry.name != 'idcg' -%}
        {%- do sideless.append(entry.name) -%}
    {%- endfor -%}
    {%- if margin is not none and sideless | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: `margin` tests that the model is no worse than the baseline, reading lower as worse; " ~ (sideless | unique | join(', ')) ~ " has no better side (higher is not a better list, nor a better model), so it is compared without a margin: leave it out of this call, or leave out `margin`.") }}
    {%- endif -%}
    {%- if equivalence is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: argument `equivalence` must be true or false; got " ~ rankwise._describe(equivalence) ~ ".") }}
    {%- endif -%}
    {%- if equivalence and margin is none -%}
        {{ exceptions.raise_compiler_error("rankwise.compare: `equivalence` tests the difference against -margin and +margin; give a `margin`, such as 0.01.") }}
    {%- endif -%}
    {#- the p-value that is corrected: the first test of `tests` that gives one -#}
    {%- set with_p = tests | select('in', ['t', 'randomization']) | list -%}
    {%- set corrected = with_p[0] if with_p | length > 0 else 't' -%}
    {{ return({
        'model': rankwise.quote_identifier(model_col),
        'shared_groups': spec.groups[:-1],
        'baseline': none if baseline is none else (rankwise._string_literal(baseline) if baseline is string else rankwise._number_literal('compare', 'baseline', baseline)),
        'confidence': confidence,
        'tests': tests | list,
        'n_resamples': n_resamples,
        'seed': seed,
        'correction': correction,
        'alpha': alpha,
        'corrected_p': 'rw_p_value' if corrected == 't' else 'rw_p_randomization',
        'margin': none if margin is none else rankwise._double_literal(margin),
        'equivalence': equivalence,
    }) }}
{% endmacro %}
