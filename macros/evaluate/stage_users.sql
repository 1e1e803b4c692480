{#- Stages per user: the components of each list, the users each metric is
    averaged over, and the metric values. -#}

{#- rw_user_lists: every component of every list; a list with no judged row has
    no hit. -#}
{% macro _stage_user_lists(spec) %}
    {%- set registry = rankwise._component_registry() -%}
rw_user_lists as (
    select
        list.*
        {%- for component in spec.components_from.judged + spec.components_from.all_running %}
        {%- set source = registry[component].source %}
        {%- for cutoff in rankwise._component_cutoffs(component, spec) %}
        {%- set column = rankwise._component_column(component, cutoff) %},
        coalesce({{ source }}.{{ column }}, {{ registry[component].without_list }}) as {{ column }}
        {%- endfor %}
        {%- endfor %}
    from rw_list_rows as list
    left join rw_judged_lists as judged
        on list.rw_user = judged.rw_user{{ rankwise._groups_match('list', 'judged', spec.groups) }}
    {%- if spec.needs_all_running %}
    left join rw_all_running_lists as all_running
        on list.rw_user = all_running.rw_user{{ rankwise._groups_match('list', 'all_running', spec.groups) }}
    {%- endif %}
)
{%- endmacro %}

{#- rw_user_components: one row per (group, user) the metrics are computed for:
    the users with a list and truth. Only the per-user output under
    users='interactions' lists every truth user in every group (a user without a
    list has the components of a list with no hit); the means count those users
    instead of listing them (see _stage_group_means). -#}
{% macro _stage_user_components(spec) %}
    {%- set registry = rankwise._component_registry() -%}
rw_user_components as (
    {%- if spec.materialise_missing_users %}
    select
        {{ rankwise._group_columns(spec.groups, 'rw_group_keys') }}truth.*,
        case when list.rw_user is null then 0 else 1 end as rw_has_list
        {%- for component in spec.components if registry[component].source != 'truth' %}
        {%- for cutoff in rankwise._component_cutoffs(component, spec) %}
        {%- set column = rankwise._component_column(component, cutoff) %},
        coalesce(list.{{ column }}, {{ registry[component].without_list }}) as {{ column }}
        {%- endfor %}
        {%- endfor %}
    from rw_user_truth as truth
    {%- if spec.groups | length > 0 %}
    cross join (select distinct {{ spec.groups | join(', ') }} from rw_list_rows) as rw_group_keys
    {%- endif %}
    left join rw_user_lists as list
        on truth.rw_user = list.rw_user{{ rankwise._groups_match('list', 'rw_group_keys', spec.groups) }}
    {%- else %}
    select
        list.*,
        1 as rw_has_list,
        truth.rw_n_relevant
        {%- if 'idcg' in spec.components %}
        {%- for cutoff in spec.cutoffs %},
        truth.{{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
        {%- endif %}
    from rw_user_lists as list
    inner join rw_user_truth as truth
        on list.rw_user = truth.rw_user
    {%- endif %}
)
{%- endmacro %}

{#- rw_user_metrics: each metric's value for the users of its set; NULL (left out
    of the mean) for the others. The formulas are never NULL for a user of the set. -#}
{% macro _stage_user_metrics(spec) %}
rw_user_metrics as (
    select
        rw_user_components.*
        {%- for entry in spec.user_metrics %},
        {%- set condition = spec.user_set_conditions[entry.position] %}
        {%- set value = 'cast(' ~ rankwise._metric_expression(entry, spec) ~ ' as ' ~ rankwise.type_float64() ~ ')' %}
        {{ value if condition is none else 'case when ' ~ condition ~ ' then ' ~ value ~ ' end' }} as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_user_components
)
{%- endmacro %}
