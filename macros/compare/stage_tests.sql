{#- Stages of compare's statistics, one row per (pair, metric, cutoff): the
    moments of the paired differences, the t test and the intervals, the
    corrected p-values. docs/statistics.md has the formulas. -#}

{#- One CASE over the grid row's metric: `expressions` maps each metric's key
    (its name, with a number after the first set of parameters) to its SQL;
    with one metric, its SQL (every grid row is that metric's). -#}
{% macro _pick_by_metric(spec, expressions) %}
    {%- if spec.user_metric_names | length == 1 -%}
        {{ return('(' ~ expressions[spec.user_metric_names[0].key] ~ ')') }}
    {%- endif -%}
    {%- set branches = [] -%}
    {%- for metric in spec.user_metric_names -%}
        {%- do branches.append("when '" ~ metric.key ~ "' then " ~ expressions[metric.key]) -%}
    {%- endfor -%}
    {{ return('(case grid.rw_key ' ~ branches | join(' ') ~ ' end)') }}
{% endmacro %}

{#- The same template for every metric, with {name} its key (evaluate's
    _pick_metric). -#}
{% macro _pick_template(spec, template) %}
    {{ return(rankwise._pick_metric(spec, template)) }}
{% endmacro %}

{#- rw_comparison_moments: per (pair, metric, cutoff) asked, the users of the
    metric's set (n), the listed ones, and the sums, as 64-bit floats: the
    per-user metrics' and the list-level metrics'. -#}
{% macro _stage_comparison_moments(spec) %}
    {%- set parts = [] -%}
    {%- if rankwise._planned(spec, 'pair_sums') %}{% do parts.append(rankwise._user_metric_moments(spec)) %}{% endif -%}
    {%- if rankwise._planned(spec, 'list_pair_sums') %}{% do parts.append(rankwise._list_metric_moments(spec)) %}{% endif -%}
rw_comparison_moments as (
    {{ parts | join('\n    union all\n    ') }}
)
{%- endmacro %}

{#- The moments of the per-user metrics: n is the metric's user set, of whom
    the users without a row under either model differ by 0. -#}
{% macro _user_metric_moments(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set population = {} -%}
    {%- for metric in spec.user_metric_names -%}
        {%- do population.update({metric.key: {'interactions': 'totals.rw_n_truth_users', 'both': 'populations.rw_n_both',
                                                'relevant': 'populations.rw_n_relevant'}[metric.users]}) -%}
    {%- endfor -%}
    select
        {{ rankwise._pair_columns(spec, 'pair', selected=true) }}, grid.rw_key as rw_key, grid.metric as metric, grid.rw_label as rw_label, grid.k as k,
        cast(coalesce({{ rankwise._pick_by_metric(spec, population) }}, 0) as {{ float }}) as rw_n,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_listed__{name}') }}, 0) as {{ float }}) as rw_listed,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_sum_diff__{name}') }}, 0) as {{ float }}) as rw_sum_diff,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_var_listed__{name}') }}, 0) as {{ float }}) as rw_var_listed,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_sum_model__{name}') }}, 0) as {{ float }}) as rw_sum_model,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_sum_baseline__{name}') }}, 0) as {{ float }}) as rw_sum_baseline,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_wins__{name}') }}, 0) as bigint) as rw_wins,
        cast(coalesce({{ rankwise._pick_template(spec, 'sums.rw_losses__{name}') }}, 0) as bigint) as rw_losses
        {%- if 'randomization' in spec.tests %},
        {{ rankwise._randomization_p(rankwise._pick_template(spec, 'randomization.rw_extreme__{name}'), spec) }} as rw_p_randomization
        {%- endif %}
        {%- if 'bootstrap' in spec.tests %},
        {#- no nonzero difference at the cutoff (rw_bootstrap has no row): every
            resampled mean difference is 0, also where users are listed with a
            difference of 0 (the same values under both models) -#}
        coalesce({{ rankwise._pick_template(spec, 'bootstrap.rw_bootstrap_low__{name}') }}, case when bootstrap.rw_limit is null then 0e0 end) as rw_bootstrap_ci_low,
        coalesce({{ rankwise._pick_template(spec, 'bootstrap.rw_bootstrap_high__{name}') }}, case when bootstrap.rw_limit is null then 0e0 end) as rw_bootstrap_ci_high
        {%- endif %}
    from rw_pairs as pair
    cross join rw_user_metric_grid as grid
    left join rw_pair_sums as sums
        on {{ rankwise._pairs_match('sums', 'pair', spec) }} and sums.rw_limit = grid.rw_limit
    left join rw_truth_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'pair', spec) }}
    {%- if rankwise._planned(spec, 'pair_populations') %}
    left join rw_pair_populations as populations
        on {{ rankwise._pairs_match('populations', 'pair', spec) }}
    {%- endif %}
    {%- if 'randomization' in spec.tests %}
    left join rw_randomization as randomization
        on {{ rankwise._pairs_match('randomization', 'pair', spec) }} and randomization.rw_limit = grid.rw_limit
    {%- endif %}
    {%- if 'bootstrap' in spec.tests %}
    left join rw_bootstrap as bootstrap
        on {{ rankwise._pairs_match('bootstrap', 'pair', spec) }} and bootstrap.rw_limit = grid.rw_limit
    {%- endif %}
{%- endmacro %}

{#- The randomization test's p from the resamples at least as extreme as the
    observed sum (`extreme`), (1 + b) / (1 + B); with no listed difference
    (`extreme` NULL) every flipped sum is 0, as extreme as the observed. -#}
{% macro _randomization_p(extreme, spec) %}
    {{ return('cast(1 + coalesce(' ~ extreme ~ ', ' ~ spec.n_resamples ~ ') as ' ~ rankwise.type_float64() ~ ') / '
              ~ (spec.n_resamples + 1)) }}
{% endmacro %}

{#- The moments of the list-level metrics: n is the users with a value under
    both models, every one listed. -#}
{% macro _list_metric_moments(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set metrics = spec.list_metrics -%}
    select
        {{ rankwise._pair_columns(spec, 'pair', selected=true) }}, {{ rankwise._pick_by_position(metrics, "'{position}'") }} as rw_key, grid.metric as metric, grid.rw_label as rw_label, grid.k as k,
        cast(coalesce({{ rankwise._pick_by_position(metrics, 'sums.rw_listed__{position}') }}, 0) as {{ float }}) as rw_n,
        {%- for column in ['listed', 'sum_diff', 'var_listed', 'sum_model', 'sum_baseline'] %}
        cast(coalesce({{ rankwise._pick_by_position(metrics, 'sums.rw_' ~ column ~ '__{position}') }}, 0) as {{ float }}) as rw_{{ column }},
        {%- endfor %}
        cast(coalesce({{ rankwise._pick_by_position(metrics, 'sums.rw_wins__{position}') }}, 0) as bigint) as rw_wins,
        cast(coalesce({{ rankwise._pick_by_position(metrics, 'sums.rw_losses__{position}') }}, 0) as bigint) as rw_losses
        {%- if 'randomization' in spec.tests %},
        {{ rankwise._randomization_p(rankwise._pick_by_position(metrics, 'randomization.rw_extreme__{position}'), spec) }} as rw_p_randomization
        {%- endif %}
        {%- if 'bootstrap' in spec.tests %},
        {{ rankwise._pick_by_position(metrics, 'bootstrap.rw_bootstrap_low__{position}') }} as rw_bootstrap_ci_low,
        {{ rankwise._pick_by_position(metrics, 'bootstrap.rw_bootstrap_high__{position}') }} as rw_bootstrap_ci_high
        {%- endif %}
    from rw_pairs as pair
    cross join ({{ rankwise._metric_grid(metrics) }}) as grid
    left join rw_list_pair_sums as sums
        on {{ rankwise._pairs_match('sums', 'pair', spec) }}
    {%- if 'randomization' in spec.tests %}
    left join rw_list_randomization as randomization
        on {{ rankwise._pairs_match('randomization', 'pair', spec) }}
    {%- endif %}
    {%- if 'bootstrap' in spec.tests %}
    left join rw_list_bootstrap as bootstrap
        on {{ rankwise._pairs_match('bootstrap', 'pair', spec) }}
    {%- endif %}
{%- endmacro %}

{#- rw_comparison_tests: the means, the mean difference and the standard deviation
    of the differences. The listed differences' population variance is combined
    with the n - listed zeros as two samples are (Chan, Golub and LeVeque 1979),
    which keeps the engines' stable one-pass variance instead of
    sum(d^2) - n mean^2, which cancels. Then t = mean / (sd / sqrt(n)) with
    n - 1 degrees of freedom, the half width of the t interval, and d_z. -#}
{% macro _stage_comparison_tests(spec) %}
    {%- set squares = '(moments.rw_var_listed * moments.rw_listed + case when moments.rw_listed > 0 then moments.rw_sum_diff * moments.rw_sum_diff * (moments.rw_n - moments.rw_listed) / (moments.rw_listed * moments.rw_n) else 0e0 end)' -%}
    {%- set p = 0.5 + spec.confidence / 2.0 -%}
    {%- set variables = rankwise._student_t_quantile_variables(p, '(moments.rw_n - 1)') -%}
    {%- set names = ['rw_quantile_x', 'rw_quantile_x_few'] -%}
rw_comparison_tests as (
    select
        stats.*,
        case when stats.rw_sd > 0 then stats.rw_diff / (stats.rw_sd / sqrt(stats.rw_n)) end as rw_t,
        case when stats.rw_n >= 2 then {{ rankwise._student_t_quantile_of(p, 'stats.rw_df', names | map('replace', 'rw_', 'stats.rw_') | list) | indent(8) }} * stats.rw_sd / sqrt(stats.rw_n) end as rw_half_width
    from (
        select
            moments.*,
            moments.rw_sum_model / moments.rw_n as rw_mean,
            moments.rw_sum_baseline / moments.rw_n as rw_baseline_mean,
            moments.rw_sum_diff / moments.rw_n as rw_diff,
            case when moments.rw_n >= 2 then sqrt(greatest({{ squares }}, 0e0) / (moments.rw_n - 1)) end as rw_sd,
            case when moments.rw_n >= 2 then moments.rw_n - 1 end as rw_df,
            {#- the t quantile's variable per piece of its polynomial; none for one
                user, whose 0 degrees would divide by zero (an error in Spark's ANSI mode) #}
            {%- for variable in variables %}
            case when moments.rw_n >= 2 then {{ variable }} end as {{ names[loop.index0] }}{{ ',' if not loop.last }}
            {%- endfor %}
        from rw_comparison_moments as moments
        where moments.rw_n > 0
    ) as stats
)
{%- endmacro %}

{#- rw_comparison_p: the two-sided paired t p-value. With every difference equal
    (sd = 0) there is no t: p is 0 when they differ from 0 and undefined when they
    are all 0 (scipy's ttest_rel gives t = inf and p = 0, or nan). Each t's
    p-value reads its variables, computed once each in the selects below
    (_student_t_p_columns): written in place, they would repeat t and df some
    hundred times. Each select names the columns it carries: Spark's analyzer
    spends a pass more on a select of `*` (docs/statistics.md). -#}
{% macro _stage_comparison_p(spec) %}
    {%- set row = rankwise._comparison_test_columns(spec) -%}
    {%- set statistics = ['rw_t'] -%}
    {%- set layers = [] -%}
    {%- if spec.margin is not none -%}
        {%- do statistics.extend(['rw_t_above_lower', 'rw_t_below_upper']) -%}
        {#- the t statistics of the difference against -margin and +margin -#}
        {%- do layers.append({'carry': row + ['rw_df'], 'columns': [
            ('rw_t_above_lower', 'case when tests.rw_sd > 0 then (tests.rw_diff + ' ~ spec.margin ~ ') / (tests.rw_sd / sqrt(tests.rw_n)) end'),
            ('rw_t_below_upper', 'case when tests.rw_sd > 0 then (tests.rw_diff - ' ~ spec.margin ~ ') / (tests.rw_sd / sqrt(tests.rw_n)) end')]}) -%}
    {%- endif -%}
    {%- set ns = namespace(carry=row + ['rw_df'] + statistics[1:]) -%}
    {%- set variables = [] -%}
    {%- for t in statistics -%}
        {%- do variables.append(rankwise._student_t_p_columns(t, 'rw_df', t, 'tests')) -%}
    {%- endfor -%}
    {%- for layer in rankwise._student_t_p_layers() -%}
        {%- set depth = loop.index0 -%}
        {%- set columns = [] -%}
        {%- for of_statistic in variables -%}
            {%- do columns.extend(of_statistic[depth]) -%}
        {%- endfor -%}
        {%- do layers.append({'carry': ns.carry, 'columns': columns,
                              'comment': "the p-value's variables of each t: " ~ rankwise._student_t_p_layer_contents()[depth]
                                         ~ ' (rankwise._student_t_p_columns)'}) -%}
        {%- set ns.carry = ns.carry + columns | map(attribute=0) | list -%}
    {%- endfor -%}
    {%- set p_values = [('rw_p_value', 'case\n    when tests.rw_sd > 0 then ' ~ rankwise._student_t_p_staged('rw_t', 'rw_df', 'rw_t', 'tests')
                         ~ '\n    when tests.rw_sd = 0 and tests.rw_diff <> 0 then 0e0\nend')] -%}
    {%- if spec.margin is not none -%}
        {%- do p_values.append(('rw_p_above_lower', rankwise._student_t_p_staged('rw_t_above_lower', 'rw_df', 'rw_t_above_lower', 'tests'))) -%}
        {%- do p_values.append(('rw_p_below_upper', rankwise._student_t_p_staged('rw_t_below_upper', 'rw_df', 'rw_t_below_upper', 'tests'))) -%}
    {%- endif -%}
    {%- do layers.append({'carry': row + statistics[1:], 'columns': p_values}) -%}
    {%- if spec.margin is not none -%}
        {%- set one_sided = [] -%}
        {%- set above = rankwise._one_sided_t_p('tests.rw_t_above_lower', 'tests.rw_p_above_lower', 'tests.rw_sd', 'tests.rw_diff + ' ~ spec.margin, 'greater') -%}
        {%- do one_sided.append(('rw_p_non_inferiority', above)) -%}
        {%- if spec.equivalence -%}
            {%- do one_sided.append(('rw_p_equivalence', 'greatest(\n    ' ~ above ~ ',\n    '
                ~ rankwise._one_sided_t_p('tests.rw_t_below_upper', 'tests.rw_p_below_upper', 'tests.rw_sd', 'tests.rw_diff - ' ~ spec.margin, 'less') ~ '\n)')) -%}
        {%- endif -%}
        {%- do layers.append({'carry': row + ['rw_p_value'], 'columns': one_sided}) -%}
    {%- endif %}
rw_comparison_p as (
{{ rankwise._select_layers('tests', 'rw_comparison_tests', layers) | indent(4, first=true) }}
)
{%- endmacro %}

{#- The columns of a comparison row that rw_comparison_p carries from
    rw_comparison_tests: those the output reads (_comparison_row_columns) but
    the p-values and their ranks. -#}
{% macro _comparison_test_columns(spec) %}
    {%- set later = ['rw_p_value', 'rw_p_rank', 'rw_n_tests'] -%}
    {%- for column, source in rankwise._more_p_values(spec) -%}
        {%- do later.extend([source, 'rw_p_rank__' ~ column, 'rw_n_tests__' ~ column]) -%}
    {%- endfor -%}
    {{ return(rankwise._comparison_row_columns(spec) | reject('in', later) | list) }}
{% endmacro %}

{#- The one-sided p-value of the t statistic `t` for the alternative that the
    mean difference is 'greater' (P(T >= t)) or 'less' (P(T <= t)) than the
    hypothesised value, from `two_sided_p`, t's two-sided p-value. With every
    difference equal (sd = 0) there is no t: p is 0 when `shifted` (the
    difference minus the hypothesised value) lies on the alternative's side, 1
    on the other, undefined at 0. -#}
{% macro _one_sided_t_p(t, two_sided_p, sd, shifted, alternative) %}
    {%- set toward = '>' if alternative == 'greater' else '<' -%}
    {%- set away = '<' if alternative == 'greater' else '>' -%}
    {{ return('(case when ' ~ sd ~ ' > 0 then (case when ' ~ t ~ ' ' ~ toward ~ '= 0 then '
              ~ two_sided_p ~ ' / 2 else 1 - ' ~ two_sided_p ~ ' / 2 end)'
              ~ ' when ' ~ sd ~ ' = 0 and (' ~ shifted ~ ') ' ~ toward ~ ' 0 then 0e0'
              ~ ' when ' ~ sd ~ ' = 0 and (' ~ shifted ~ ') ' ~ away ~ ' 0 then 1e0 end)') }}
{% endmacro %}
