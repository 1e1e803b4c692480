{#- The long output: one row per (group, metric, k), or per (group, user, metric,
    k) with per_user, sorted for reading whatever the connection's default order. -#}

{#- rw_user_metric_grid: the (metric, k) pairs asked for, with the rw_limit of
    their cutoff: the metrics asked at the cutoffs of `k` times those cutoffs,
    then the others one literal row each, so that the query grows with the
    metrics and cutoffs asked, not with their product. Each row carries the
    metric's key (the column of its values), its name and its label (the name
    with its parameters). -#}
{% macro _stage_user_metric_grid(spec) %}
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
        {%- do parts.append('select names.rw_key as rw_key, names.metric as metric, names.rw_label as rw_label, cutoff.rw_k as k, cutoff.rw_limit as rw_limit\n'
            ~ '    from (' ~ rankwise._literal_rows(['rw_key', 'metric', 'rw_label'], by_default) ~ ') as names\n'
            ~ '    ' ~ rankwise._each_cutoff(spec, 'cutoff') ~ '\n    where cutoff.rw_is_default = 1') -%}
    {%- endif -%}
    {%- if one_by_one | length > 0 -%}
        {%- do parts.append('select rw_key, metric, rw_label, cast(k as bigint) as k, coalesce(cast(k as bigint), cast(' ~ spec.whole_list ~ ' as bigint)) as rw_limit\n'
            ~ '    from (' ~ rankwise._literal_rows(['rw_key', 'metric', 'rw_label', 'k'], one_by_one) ~ ') as asked') -%}
    {%- endif -%}
    {{ return('rw_user_metric_grid as (\n    ' ~ parts | join('\n    union all\n    ') ~ '\n)') }}
{% endmacro %}

{#- The column of the grid row's metric, among one column per metric key. -#}
{% macro _pick_metric(spec, template) %}
    {%- if spec.user_metric_names | length == 1 -%}
        {{ return(template | replace('{name}', spec.user_metric_names[0].key)) }}
    {%- endif -%}
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
inner join rw_user_metric_grid as grid
    on grid.rw_limit = rw_user_metrics.rw_limit
where {{ rankwise._pick_metric(spec, 'rw_user_metrics.rw_value__{name}') }} is not null
{%- endmacro %}

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
    {{ rankwise._pick_by_position(metrics, 'intervals.rw_high__{position}') }} as ci_high,
    -- a percentile of values in the metric's range is in it
    case when {{ rankwise._pick_by_position(metrics, 'intervals.rw_low__{position}') }} is not null then false end as ci_clipped
    {%- elif spec.confidence is not none %},
    -- nor has one value per user to average: no t interval, a bootstrap's when asked
    cast(null as {{ rankwise.type_float64() }}) as ci_low,
    cast(null as {{ rankwise.type_float64() }}) as ci_high,
    -- a boolean NULL without a cast (BigQuery spells the type BOOL)
    case when 1 = 0 then false end as ci_clipped
    {%- endif %}
from rw_group_metrics
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
{%- if spec.confidence is not none and spec.group_bootstrap is not none %}
left join rw_group_intervals as intervals
    on 1 = 1{{ rankwise._groups_match('intervals', 'rw_group_metrics', spec.groups) }}
{%- endif %}
{%- endmacro %}

{#- The hint of the outermost SELECT of the result (_one_partition_hint): its
    means are few rows, per-user output is many. -#}
{% macro _sorted_result_hint(spec) %}
    {{- return('' if spec.per_user else rankwise._one_partition_hint()) -}}
{% endmacro %}

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
