{#- The long output: one row per (group, metric, k), or per (group, user, metric,
    k) with per_user, sorted for reading whatever the connection's default order. -#}

{#- The per-user rows, with the components of each value for drill-down. -#}
{% macro _output_per_user(spec) %}
    {%- set metrics = spec.user_metrics -%}
select
    rw_user_metrics.rw_user as {{ spec.user }},
    {{ rankwise._group_columns(spec.groups, 'rw_user_metrics') }}grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(metrics, 'rw_value__{position}') }} as value,
    cast(rw_user_metrics.rw_n_relevant as bigint) as n_relevant,
    cast({{ rankwise._pick_by_position(metrics, 'rw_n_recommended__{k}') }} as bigint) as n_recommended,
    cast({{ rankwise._pick_by_position(metrics, 'rw_hits__{k}') }} as bigint) as hits,
    {{ rankwise._pick_by_position(metrics, 'rw_dcg__{k}') }} as dcg,
    {{ rankwise._pick_by_position(metrics, 'rw_idcg__{k}') }} as idcg
from rw_user_metrics
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
{%- if spec.some_users_left_out %}
where {{ rankwise._pick_by_position(metrics, 'rw_value__{position}') }} is not null
{%- endif %}
{%- endmacro %}

{#- The means of the per-user metrics, per group. -#}
{% macro _output_user_metric_means(spec) %}
    {%- set metrics = spec.user_metrics -%}
select
    {{ rankwise._group_columns(spec.groups, 'rw_group_means') }}grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(metrics, 'rw_group_means.rw_value__{position}') }} as value,
    {{ rankwise._pick_by_position(metrics, 'rw_group_means.rw_n_users__{position}') }} as n_users
from rw_group_means
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
where {{ rankwise._pick_by_position(metrics, 'rw_group_means.rw_n_users__{position}') }} > 0
{%- endmacro %}

{#- The group-level metrics, per group. -#}
{% macro _output_group_metrics(spec) %}
    {%- set metrics = spec.group_metrics -%}
select
    {{ rankwise._group_columns(spec.groups, 'rw_group_metrics') }}grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(metrics, 'rw_group_metrics.rw_value__{position}') }} as value,
    rw_group_metrics.rw_n_users as n_users
from rw_group_metrics
cross join ({{ rankwise._metric_grid(metrics) }}) as grid
{%- endmacro %}

{#- ORDER BY of the output: groups, user, metrics in the order asked, k (the whole
    list last), each direction and null order spelled out. -#}
{% macro _output_order(spec) %}
    {%- set positions = {} -%}
    {%- for entry in spec.plan if entry.name not in positions -%}
        {%- do positions.update({entry.name: positions | length + 1}) -%}
    {%- endfor -%}
    {%- set keys = [] -%}
    {%- for column in spec.groups + ([spec.user] if spec.per_user else []) -%}
        {%- do keys.append(column ~ ' asc nulls last') -%}
    {%- endfor -%}
    {%- set cases = [] -%}
    {%- for name, position in positions.items() -%}
        {%- do cases.append("when '" ~ name ~ "' then " ~ position) -%}
    {%- endfor -%}
    {%- do keys.append('case metric ' ~ cases | join(' ') ~ ' end asc') -%}
    {%- do keys.append('k asc nulls last') -%}
    {{ return('order by ' ~ keys | join(', ')) }}
{% endmacro %}
