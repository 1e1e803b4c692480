{#- The long output: one row per (group, metric, k), or per (group, user, metric,
    k) with per_user, sorted for reading whatever the connection's default order. -#}

{#- The (metric, k) pairs asked for, with the rw_limit of their cutoff: the
    metrics asked at the cutoffs of `k` times those cutoffs, then the others one
    literal row each, so that the query grows with the metrics and cutoffs asked,
    not with their product. Each row carries the metric's key (the column of its
    values), its name and its label (the name with its parameters). -#}
{% macro _requested_user_metrics(spec) %}
    {%- set by_default = [] -%}
    {%- set keys_by_default = {} -%}
    {%- for metric in spec.user_metric_names if metric.at_default_cutoffs -%}
        {%- do by_default.append([rankwise._string_literal(metric.key), rankwise._string_literal(metric.name), rankwise._string_literal(metric.label)]) -%}
        {%- do keys_by_default.update({metric.key: true}) -%}
    {%- endfor -%}
    {%- set one_by_one = [] -%}
    {%- for entry in spec.user_metrics if entry.key not in keys_by_default -%}
        {%- do one_by_one.append([rankwise._string_literal(entry.key), rankwise._string_literal(entry.name), rankwise._string_literal(entry.label),
                                  entry.k if entry.k is not none else 'null']) -%}
    {%- endfor -%}
    {%- set parts = [] -%}
    {%- if by_default | length > 0 -%}
        {%- do parts.append('select names.rw_key as rw_key, names.metric as metric, names.rw_label as rw_label, cutoff.rw_k as k, cutoff.rw_limit as rw_limit from ('
            ~ rankwise._literal_rows(['rw_key', 'metric', 'rw_label'], by_default) ~ ') as names cross join rw_cutoffs as cutoff where cutoff.rw_is_default = 1') -%}
    {%- endif -%}
    {%- if one_by_one | length > 0 -%}
        {%- do parts.append('select rw_key, metric, rw_label, cast(k as bigint) as k, coalesce(cast(k as bigint), cast(' ~ spec.whole_list ~ ' as bigint)) as rw_limit from ('
            ~ rankwise._literal_rows(['rw_key', 'metric', 'rw_label', 'k'], one_by_one) ~ ') as asked') -%}
    {%- endif -%}
    {{ return('(\n    ' ~ parts | join('\n    union all\n    ') ~ '\n) as grid') }}
{% endmacro %}

{#- The column of the grid row's metric, among one column per metric key. -#}
{% macro _pick_metric(spec, template) %}
    {%- set branches = [] -%}
    {%- for metric in spec.user_metric_names -%}
        {%- do branches.append("when '" ~ metric.key ~ "' then " ~ template | replace('{name}', metric.key)) -%}
    {%- endfor -%}
    {{ return('(case grid.rw_key ' ~ branches | join(' ') ~ ' end)') }}
{% endmacro %}

{#- The metric as BI tools show it: 'ndcg@10', 'rbp(p=0.95)@20', or 'mrr' for
    the whole list; `label` is the metric's name with its parameters. -#}
{% macro _metric_label(label, k) %}
    {{- return('(case when ' ~ k ~ ' is null then ' ~ label ~ ' else ' ~ label ~ " || '@' || cast(" ~ k ~ ' as ' ~ dbt.type_string() ~ ') end)') -}}
{% endmacro %}

{#- The label _metric_label writes, as text: `label`, then @k unless k is none. -#}
{% macro _label_of(label, k) %}
    {{- return(label ~ ('@' ~ k if k is not none else '')) -}}
{% endmacro %}

{#- The per-user rows, with the components of each value for drill-down. -#}
{% macro _output_per_user(spec) %}
select
    rw_user_metrics.rw_user as {{ spec.user }},
    {{ rankwise._selected_columns(spec.groups, 'rw_user_metrics') }}grid.metric as metric,
    grid.k as k,
    {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
    {{ rankwise._pick_metric(spec, 'rw_user_metrics.rw_value__{name}') }} as value,
    cast(rw_user_metrics.rw_n_relevant as bigint) as n_relevant,
    cast(rw_user_metrics.rw_n_recommended as bigint) as n_recommended,
    cast(rw_user_metrics.rw_hits as bigint) as hits,
    rw_user_metrics.rw_dcg as dcg,
    rw_user_metrics.rw_idcg as idcg
from rw_user_metrics
inner join {{ rankwise._requested_user_metrics(spec) }}
    on grid.rw_limit = rw_user_metrics.rw_limit
where {{ rankwise._pick_metric(spec, 'rw_user_metrics.rw_value__{name}') }} is not null
{%- endmacro %}

{#- The means of the per-user metrics, per group, with their intervals. The
    counts of users are BIGINT on every engine (ClickHouse counts in UInt64, which
    shares no type with a BIGINT in a UNION or a CASE). -#}
{% macro _output_user_metric_means(spec) %}
    {%- set means -%}
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
inner join {{ rankwise._requested_user_metrics(spec) }}
    on grid.rw_limit = rw_group_means.rw_limit
where {{ rankwise._pick_metric(spec, 'rw_group_means.rw_n_users__{name}') }} > 0
    {%- endset -%}
    {{ return(rankwise._with_interval(means, 'rw_means.rw_listed', spec)) }}
{%- endmacro %}

{#- `means`, a select of the output's columns and rw_var (and of what `listed`
    reads), with the Student t interval of each mean; as it is without a
    confidence level. -#}
{% macro _with_interval(means, listed, spec) %}
    {%- if spec.confidence is none -%}
        {{ return(means) }}
    {%- endif -%}
    {%- set half_width = rankwise._interval_half_width('rw_means.value', 'rw_means.n_users', listed, 'rw_means.rw_var', spec.confidence) -%}
    {%- set interval -%}
select
    {{ rankwise._selected_columns(spec.groups, 'rw_means') }}rw_means.metric as metric,
    rw_means.k as k,
    rw_means.metric_label as metric_label,
    rw_means.value as value,
    rw_means.n_users as n_users,
    rw_means.n_users_without_list as n_users_without_list,
    rw_means.value - {{ half_width }} as ci_low,
    rw_means.value + {{ half_width }} as ci_high
from (
{{ means }}
) as rw_means
    {%- endset -%}
    {{ return(interval) }}
{%- endmacro %}

{#- The half width of the Student t interval of a mean over n users at level
    `confidence`, when `listed` of them have values of population variance `var`
    and the other n - listed are 0: their sum of squared deviations combined as
    two samples' are (Chan, Golub and LeVeque 1979), which keeps the engines'
    stable variance rather than sum(x^2) - n mean^2, which cancels. NULL for
    fewer than 2 users. -#}
{% macro _interval_half_width(mean, n, listed, var, confidence) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set n_float = 'cast(' ~ n ~ ' as ' ~ float ~ ')' -%}
    {%- set listed_float = 'cast(' ~ listed ~ ' as ' ~ float ~ ')' -%}
    {#- the listed values' mean is n mean / listed: (n mean / listed)^2 listed (n - listed) / n -#}
    {%- set squares = '(' ~ var ~ ' * ' ~ listed_float ~ ' + case when ' ~ listed ~ ' > 0 then ' ~ mean ~ ' * ' ~ mean ~ ' * '
        ~ n_float ~ ' * (' ~ n_float ~ ' - ' ~ listed_float ~ ') / ' ~ listed_float ~ ' else 0e0 end)' -%}
    {{ return('(case when ' ~ n ~ ' >= 2 then ' ~ rankwise.student_t_quantile(0.5 + confidence / 2.0, n_float ~ ' - 1')
              ~ ' * sqrt(greatest(' ~ squares ~ ', 0e0) / (' ~ n_float ~ ' - 1)) / sqrt(' ~ n_float ~ ') end)') }}
{% endmacro %}

{#- The group-level metrics, per group. -#}
{% macro _output_group_metrics(spec) %}
    {%- set metrics = spec.group_metrics -%}
select
    {{ rankwise._selected_columns(spec.groups, 'rw_group_metrics') }}grid.metric as metric,
    grid.k as k,
    {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
    {{ rankwise._pick_by_position(metrics, 'rw_group_metrics.rw_value__{position}') }} as value,
    cast(rw_group_metrics.rw_n_users as bigint) as n_users,
    -- a group-level metric reads no interactions
    cast(null as bigint) as n_users_without_list
    {%- if spec.confidence is not none and spec.group_bootstrap is not none %},
    {{ rankwise._pick_by_position(metrics, 'intervals.rw_low__{position}') }} as ci_low,
    {{ rankwise._pick_by_position(metrics, 'intervals.rw_high__{position}') }} as ci_high
    {%- elif spec.confidence is not none %},
    -- nor has one value per user to average: no t interval, a bootstrap's when asked
    cast(null as {{ rankwise.type_float64() }}) as ci_low,
    cast(null as {{ rankwise.type_float64() }}) as ci_high
    {%- endif %}
from rw_group_metrics
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
{%- if spec.confidence is not none and spec.group_bootstrap is not none %}
left join rw_group_intervals as intervals
    on 1 = 1{{ rankwise._groups_match('intervals', 'rw_group_metrics', spec.groups) }}
{%- endif %}
{%- endmacro %}

{#- ORDER BY of the output: groups, user, metrics in the order asked, k (the whole
    list last), each direction and null order spelled out. -#}
{% macro _output_order(spec) %}
    {%- set keys = [] -%}
    {%- for column in spec.groups + ([spec.user] if spec.per_user else []) -%}
        {%- do keys.append(column ~ ' asc nulls last') -%}
    {%- endfor -%}
    {%- do keys.append(rankwise._metric_order(spec, 'metric_label')) -%}
    {%- do keys.append('k asc nulls last') -%}
    {{ return('order by ' ~ keys | join(', ')) }}
{% endmacro %}

{#- The sort key of the metrics in the order asked, over the output's column
    `label` (metric_label): a metric asked with two sets of parameters is two
    metrics, which the metric column alone does not tell apart. -#}
{% macro _metric_order(spec, label) %}
    {%- set positions = {} -%}
    {%- for entry in spec.every_metric if entry.key not in positions -%}
        {%- do positions.update({entry.key: positions | length + 1}) -%}
    {%- endfor -%}
    {%- set cases = [] -%}
    {%- for entry in spec.every_metric -%}
        {%- do cases.append('when ' ~ rankwise._string_literal(rankwise._label_of(entry.label, entry.k)) ~ ' then ' ~ positions[entry.key]) -%}
    {%- endfor -%}
    {{ return('case ' ~ label ~ ' ' ~ cases | join(' ') ~ ' end asc') }}
{% endmacro %}

{#- The means of the list-level metrics, per group, with their intervals (every
    list counted has a value: no zeros to add, as the per-user means have). -#}
{% macro _output_list_metric_means(spec) %}
    {%- set metrics = spec.list_metrics -%}
    {%- set means -%}
select
    {{ rankwise._selected_columns(spec.groups, 'rw_list_means') }}grid.metric as metric,
    grid.k as k,
    {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
    {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_mean__{position}') }} as value,
    cast({{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_n__{position}') }} as bigint) as n_users,
    -- a list-level metric reads no interactions
    cast(null as bigint) as n_users_without_list
    {%- if spec.confidence is not none %},
    {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_var__{position}') }} as rw_var
    {%- endif %}
from rw_list_means
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
where {{ rankwise._pick_by_position(metrics, 'rw_list_means.rw_n__{position}') }} > 0
    {%- endset -%}
    {{ return(rankwise._with_interval(means, 'rw_means.n_users', spec)) }}
{%- endmacro %}

{#- The per-list values of the list-level metrics, as per-user rows: the items
    within the cutoff as n_recommended, the accuracy components NULL. -#}
{% macro _output_list_metrics_per_user(spec) %}
    {%- set metrics = spec.list_metrics -%}
select
    rw_list_values.rw_user as {{ spec.user }},
    {{ rankwise._selected_columns(spec.groups, 'rw_list_values') }}grid.metric as metric,
    grid.k as k,
    {{ rankwise._metric_label('grid.rw_label', 'grid.k') }} as metric_label,
    {{ rankwise._pick_by_position(metrics, 'rw_list_values.rw_value__{position}') }} as value,
    cast(null as bigint) as n_relevant,
    cast({{ rankwise._pick_by_position(metrics, 'rw_list_values.rw_top__{position}') }} as bigint) as n_recommended,
    cast(null as bigint) as hits,
    cast(null as {{ rankwise.type_float64() }}) as dcg,
    cast(null as {{ rankwise.type_float64() }}) as idcg
from rw_list_values
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
where {{ rankwise._pick_by_position(metrics, 'rw_list_values.rw_value__{position}') }} is not null
{%- endmacro %}
