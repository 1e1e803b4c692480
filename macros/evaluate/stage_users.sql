{#- Stages per (user, cutoff): the rows the metrics are computed on, with every
    component, and the metric values. -#}

{#- The rows of rw_user_components before the components are joined on: for the
    means, the (list, cutoff) pairs with a judged row (every other pair scores 0
    and is counted, not listed: see stage_means.sql); for the per-user output,
    every list of a truth user at every cutoff, and under users='interactions'
    every truth user in every group, with or without a list; the same for the
    means of a metric not 0 without a judged row (the means strategy 'listed'). -#}
{% macro _user_component_rows(spec) %}
    {%- if not spec.every_user_rows -%}
    {{ return('rw_judged_lists as judged
    inner join rw_user_truth_counts as truth
        on truth.rw_user = judged.rw_user' ~ rankwise._partitions_match('truth', 'judged', spec)) }}
    {%- endif -%}
    {%- set rows -%}
    (
        select
            {%- if spec.rows_for_users_without_list %}
            {{ rankwise._selected_columns(spec.groups, 'rw_group_keys') }}truth.rw_user as rw_user,
            case when list.rw_user is null then 0 else 1 end as rw_has_list,
            {%- else %}
            {{ rankwise._selected_columns(spec.groups, 'list') }}list.rw_user as rw_user,
            1 as rw_has_list,
            {%- endif %}
            truth.rw_n_relevant as rw_n_relevant,
            {%- if spec.propensity is not none %}
            truth.rw_weighted_relevant as rw_weighted_relevant,
            {%- endif %}
            truth.rw_n_truth_items as rw_n_truth_items,
            {%- if spec.strategies.ideal == 'ranked_truth' %}
            {%- for column in rankwise._idcg_column_names__ranked_truth(spec) %}
            truth.{{ column }} as {{ column }},
            {%- endfor %}
            {%- endif %}
            cutoff.rw_limit as rw_limit,
            cutoff.rw_k as rw_k
        from rw_user_truth_counts as truth
        {%- if spec.rows_for_users_without_list %}
        {%- if spec.groups | length > 0 %}
        {#- every group of the truth user's partition #}
        inner join (select distinct {{ spec.groups | join(', ') }} from rw_list_rows) as rw_group_keys
            on 1 = 1{{ rankwise._partitions_match('rw_group_keys', 'truth', spec) }}
        {%- endif %}
        left join rw_list_rows as list
            on list.rw_user = truth.rw_user{{ rankwise._groups_match('list', 'rw_group_keys', spec.groups) }}
        {%- else %}
        inner join rw_list_rows as list
            on list.rw_user = truth.rw_user{{ rankwise._partitions_match('list', 'truth', spec) }}
        {%- endif %}
        cross join rw_cutoffs as cutoff
    ) as truth
    left join rw_judged_lists as judged
        on judged.rw_user = truth.rw_user
        and judged.rw_limit = truth.rw_limit{{ rankwise._groups_match('judged', 'truth', spec.groups) }}
    {%- endset -%}
    {{ return(rows) }}
{% endmacro %}

{#- rw_user_components: per (group, user, cutoff), every component the formulas
    read; a list with no judged row within the cutoff has no hit. -#}
{% macro _stage_user_components(spec) %}
    {%- set registry = rankwise._component_registry() -%}
    {%- set keys = 'judged' if not spec.every_user_rows else 'truth' -%}
rw_user_components as (
    select
        {{ rankwise._selected_columns(spec.groups, keys) }}{{ keys }}.rw_user as rw_user,
        {{ keys }}.rw_limit as rw_limit,
        {{ keys }}.rw_k as rw_k,
        {{ '1' if not spec.every_user_rows else 'truth.rw_has_list' }} as rw_has_list,
        truth.rw_n_relevant as rw_n_relevant
        {%- if spec.propensity is not none %},
        truth.rw_weighted_relevant as rw_weighted_relevant
        {%- endif %}
        {%- for instance in spec.components_from.judged %},
        coalesce(judged.{{ rankwise._component_column(instance) }}, {{ registry[spec.component_instances[instance].component].without_list }}) as {{ rankwise._component_column(instance) }}
        {%- endfor %}
        {%- for instance in spec.components_from.all_running %},
        coalesce(all_running.{{ rankwise._component_column(instance) }}, {{ registry[spec.component_instances[instance].component].without_list }}) as {{ rankwise._component_column(instance) }}
        {%- endfor %}
        {%- if rankwise._planned(spec, 'list_lengths') %},
        coalesce(lengths.rw_n_recommended, 0) as rw_n_recommended
        {%- elif 'n_recommended' in spec.components %},
        {#- only the whole list's row would have a length, and there is none #}
        cast(0 as bigint) as rw_n_recommended
        {%- endif %}
        {%- if 'idcg' in spec.components %},
        {{ rankwise._idcg_value(keys ~ '.rw_limit', spec) }} as rw_idcg
        {%- endif %}
    from {{ rankwise._user_component_rows(spec) }}
    {%- if rankwise._planned(spec, 'all_running_lists') %}
    left join rw_all_running_lists as all_running
        on all_running.rw_user = {{ keys }}.rw_user
        and all_running.rw_limit = {{ keys }}.rw_limit{{ rankwise._groups_match('all_running', keys, spec.groups) }}
    {%- endif %}
    {%- if rankwise._planned(spec, 'list_lengths') %}
    left join rw_list_lengths as lengths
        on lengths.rw_user = {{ keys }}.rw_user
        and lengths.rw_limit = {{ keys }}.rw_limit{{ rankwise._groups_match('lengths', keys, spec.groups) }}
    {%- endif %}
    {%- if 'idcg' in spec.components %}
    {{ rankwise._join_idcg('truth', keys ~ '.rw_limit', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- rw_user_metrics: each metric's value, once per metric key (its cutoff is the
    row's); NULL, left out of the mean, for a user outside the metric's user set.
    The formulas are never NULL for a user of the set. -#}
{% macro _stage_user_metrics(spec) %}
rw_user_metrics as (
    select
        rw_user_components.*
        {%- for metric in spec.user_metric_names %},
        {%- set condition = rankwise._in_user_set(metric.users) if spec.strategies.means != 'counted' or metric.users == 'relevant' else none %}
        {%- set value = 'cast(' ~ rankwise._metric_expression(metric, spec) ~ ' as ' ~ rankwise.type_float64() ~ ')' %}
        {{ value if condition is none else 'case when ' ~ condition ~ ' then ' ~ value ~ ' end' }} as rw_value__{{ metric.key }}
        {%- endfor %}
    from rw_user_components
)
{%- endmacro %}
