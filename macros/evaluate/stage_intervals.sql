{#- The means of the per-user and list-level metrics in one relation, and
    each mean's Student t interval, its half-width computed once. -#}

{#- rw_means: per (group, metric, cutoff), the mean of a per-user metric (over
    its user set: rw_group_means) or of a list-level one (over the lists with
    an item within k: rw_list_means), the users it is over, and for the
    interval, the standard deviation of the values it averages (rw_sd). The
    counts of users are BIGINT on every engine (ClickHouse counts in UInt64,
    which shares no type with a BIGINT in a UNION or a CASE). -#}
{% macro _stage_means(spec) %}
    {%- set parts = [] -%}
    {%- if rankwise._planned(spec, 'group_means') -%}
        {%- set part -%}
    select
        {{ rankwise._selected_columns(spec.groups, 'rw_group_means') }}grid.metric as metric,
        grid.k as k,
        {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
        {{ rankwise._pick_metric(spec, 'rw_group_means.rw_value__{name}') }} as value,
        cast({{ rankwise._pick_metric(spec, 'rw_group_means.rw_n_users__{name}') }} as bigint) as n_users,
        cast(rw_group_means.rw_n_users_without_list as bigint) as n_users_without_list
        {%- if spec.confidence is not none %},
        {{ rankwise._pick_metric(spec, 'rw_group_means.rw_listed__{name}') }} as rw_listed,
        {{ rankwise._pick_metric(spec, 'rw_group_means.rw_var__{name}') }} as rw_var
        {%- endif %}
    from rw_group_means
    inner join rw_user_metric_grid as grid
        on grid.rw_limit = rw_group_means.rw_limit
    where {{ rankwise._pick_metric(spec, 'rw_group_means.rw_n_users__{name}') }} > 0
        {%- endset -%}
        {%- do parts.append(part) -%}
    {%- endif -%}
    {%- if rankwise._planned(spec, 'list_means') -%}
        {%- set metrics = spec.list_metrics -%}
        {%- set part -%}
    select
        {{ rankwise._selected_columns(spec.groups, 'rw_list_means') }}grid.metric as metric,
        grid.k as k,
        {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
        {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_mean__{position}') }} as value,
        cast({{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_n__{position}') }} as bigint) as n_users,
        -- a list-level metric reads no interactions
        cast(null as bigint) as n_users_without_list
        {%- if spec.confidence is not none %},
        {#- every list counted has a value: none is left unlisted -#}
        {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_n__{position}') }} as rw_listed,
        {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_var__{position}') }} as rw_var
        {%- endif %}
    from rw_list_means
    cross join ({{ rankwise._metric_grid(metrics) }}) as grid
    where {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_n__{position}') }} > 0
        {%- endset -%}
        {%- do parts.append(part) -%}
    {%- endif -%}
    {%- if spec.confidence is none -%}
        {{ return('rw_means as (\n' ~ parts | join('\n    union all\n') ~ '\n)') }}
    {%- endif -%}
    {%- set float = rankwise.type_float64() -%}
    {%- set variables = rankwise._student_t_quantile_variables(0.5 + spec.confidence / 2.0, 'cast(n_users - 1 as ' ~ float ~ ')') -%}
rw_means as (
    select
        {{ (spec.groups + ['metric', 'k', 'metric_label', 'value', 'n_users', 'n_users_without_list']) | join(',\n        ') }},
        cast(n_users - 1 as {{ float }}) as rw_df,
        {#- the polynomial's variable of the t quantile, from 4 degrees of freedom up; none
            for one user, whose 0 degrees would divide by zero (an error in Spark's ANSI mode) #}
        case when n_users >= 2 then {{ variables[0] }} end as rw_quantile_x,
        {{ rankwise._standard_deviation_with_zeros('value', 'n_users', 'rw_listed', 'rw_var') }} as rw_sd
    from (
{{ parts | join('\n    union all\n') | indent(4, first=true) }}
    ) as rw_means
)
{%- endmacro %}

{#- The standard deviation (n - 1 in the denominator) of n values of mean
    `mean`, `listed` of which have the population variance `var` and the other
    n - listed are 0: their sums of squared deviations combined as two
    samples' are (Chan, Golub and LeVeque 1979), which keeps the engines'
    stable variance rather than sum(x^2) - n mean^2, which cancels. NULL for
    fewer than 2 values, and for a NULL variance (a total or a geometric mean:
    the registry's `summary`). -#}
{% macro _standard_deviation_with_zeros(mean, n, listed, var) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set n_float = 'cast(' ~ n ~ ' as ' ~ float ~ ')' -%}
    {%- set listed_float = 'cast(' ~ listed ~ ' as ' ~ float ~ ')' -%}
    {#- the listed values' mean is n mean / listed: (n mean / listed)^2 listed (n - listed) / n -#}
    {%- set zeros = 'case when ' ~ listed ~ ' > 0\n                then ' ~ mean ~ ' * ' ~ mean ~ ' * ' ~ n_float ~ ' * (' ~ n_float ~ ' - ' ~ listed_float ~ ') / '
        ~ listed_float ~ '\n                else 0e0 end' -%}
    {{ return('case when ' ~ n ~ ' >= 2 and ' ~ var ~ ' is not null then sqrt(greatest(\n            ' ~ var ~ ' * ' ~ listed_float ~ '\n            + ' ~ zeros
              ~ ',\n            0e0) / (' ~ n_float ~ ' - 1)) end') }}
{% endmacro %}

{#- The means of rw_means, each with its Student t interval at level
    `confidence`, the half-width computed once per row. A bound past the
    metric's range (the registry's `range`: a mean of values in [0, 1] is in
    [0, 1]) is clipped to it and the row says so: ci_clipped is true. The t
    interval assumes a mean near normal, which a few users' values of 0 and 1
    are not; the clipped bound is the range's, which the true mean cannot pass
    (docs/statistics.md, "Intervals within a metric's range"). -#}
{% macro _output_means(spec) %}
    {%- set columns = [] -%}
    {%- for column in spec.groups + ['metric', 'k', 'metric_label', 'value', 'n_users', 'n_users_without_list'] -%}
        {%- do columns.append(column) -%}
    {%- endfor -%}
    {%- if spec.confidence is none -%}
        {{ return('select\n    ' ~ columns | join(',\n    ') ~ '\nfrom rw_means') }}
    {%- endif -%}
    {%- set p = 0.5 + spec.confidence / 2.0 -%}
    {%- set quantile = rankwise._student_t_quantile_of(p, 'rw_df', ['rw_quantile_x'], whole_degrees=true) -%}
    {%- set lowest = rankwise._metric_range_bound(spec, 0) -%}
    {%- set highest = rankwise._metric_range_bound(spec, 1) -%}
    {%- set below = 'value - rw_half_width < ' ~ lowest if lowest is not none else none -%}
    {%- set above = 'value + rw_half_width > ' ~ highest if highest is not none else none -%}
select
    {{ columns | join(',\n    ') }},
    {%- if below is not none %}
    case when {{ below }} then {{ lowest }} else value - rw_half_width end as ci_low,
    {%- else %}
    value - rw_half_width as ci_low,
    {%- endif %}
    {%- if above is not none %}
    case when {{ above }} then {{ highest }} else value + rw_half_width end as ci_high,
    {%- else %}
    value + rw_half_width as ci_high,
    {%- endif %}
    {#- a bound of a metric without one compares to NULL: not clipped #}
    case when rw_half_width is null then null
         {%- for bound in [below, above] if bound is not none %}
         when {{ bound }} then true
         {%- endfor %}
         else false end as ci_clipped
from (
    select
        rw_means.*,
        {{ quantile | indent(8) }} * rw_sd / sqrt(cast(n_users as {{ rankwise.type_float64() }})) as rw_half_width
    from rw_means
) as rw_intervals
{%- endmacro %}

{#- The lowest (`end` 0) or highest (1) value the metrics of the plan's means
    can take (the registry's `range`), as SQL over the output's `metric`: a
    literal when every metric has the same, a CASE when they differ, none when
    none has one. -#}
{% macro _metric_range_bound(spec, end) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set bounds = {} -%}
    {%- for entry in spec.user_metrics + spec.list_metrics -%}
        {%- set bound = registry[entry.name].get('range', [none, none])[end] -%}
        {%- do bounds.update({entry.name: none if bound is none else rankwise._double_literal(bound)}) -%}
    {%- endfor -%}
    {%- set distinct = bounds.values() | unique | list -%}
    {%- if distinct | length == 1 -%}
        {{ return(distinct[0]) }}
    {%- endif -%}
    {%- set cases = [] -%}
    {%- for name, bound in bounds.items() if bound is not none -%}
        {%- do cases.append('when ' ~ rankwise._string_literal(name) ~ ' then ' ~ bound) -%}
    {%- endfor -%}
    {{ return('(case metric ' ~ cases | join(' ') ~ ' end)') }}
{% endmacro %}
