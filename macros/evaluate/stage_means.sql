{#- Stages of the means: per group, each per-user metric's mean over its user
    set. A truth user without a list in a group scores what a list with no hit
    scores (0 for every metric but idcg), so under users='interactions' such users
    are counted, not listed: the mean is the sum over the users with a list
    divided by the number of truth users. This keeps many groups as cheap as one
    (no truth user x group rows). -#}

{#- rw_group_sums: per group, each metric's sum and count over the users with a
    list and truth. -#}
{% macro _stage_group_sums(spec) %}
rw_group_sums as (
    select
        {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_users_with_list
        {%- for entry in spec.user_metrics %},
        sum(rw_value__{{ entry.position }}) as rw_sum__{{ entry.position }},
        count(rw_value__{{ entry.position }}) as rw_count__{{ entry.position }}
        {%- endfor %}
    from rw_user_metrics
    {{ rankwise._group_by_groups(spec.groups) }}
)
{%- endmacro %}

{#- rw_truth_totals: the truth users every group is scored on under
    users='interactions', and the truth-wide sums of the metrics that are not 0
    for a user without a list (idcg). -#}
{% macro _stage_truth_totals(spec) %}
rw_truth_totals as (
    select
        count(*) as rw_n_truth_users
        {%- for entry in spec.truth_wide_metrics %},
        sum(cast({{ rankwise._metric_expression(entry, spec) }} as {{ rankwise.type_float64() }})) as rw_truth_sum__{{ entry.position }}
        {%- endfor %}
    from rw_user_truth
)
{%- endmacro %}

{#- rw_group_means: per group, each metric's mean and the number of users it is
    over; a group whose lists reach no truth user still gets a row. -#}
{% macro _stage_group_means(spec) %}
rw_group_means as (
    select
        {{ rankwise._group_columns(spec.groups, 'rw_group_keys') }}1 as rw_one
        {%- for entry in spec.user_metrics %}
        {%- set position = entry.position %}
        {%- if entry.users == 'interactions' %},
        {%- set total = 'totals.rw_truth_sum__' ~ position if entry in spec.truth_wide_metrics else 'coalesce(sums.rw_sum__' ~ position ~ ', 0)' %}
        {{ rankwise.safe_divide(total, 'totals.rw_n_truth_users') }} as rw_value__{{ position }},
        totals.rw_n_truth_users as rw_n_users__{{ position }}
        {%- else %},
        {{ rankwise.safe_divide('sums.rw_sum__' ~ position, 'sums.rw_count__' ~ position) }} as rw_value__{{ position }},
        coalesce(sums.rw_count__{{ position }}, 0) as rw_n_users__{{ position }}
        {%- endif %}
        {%- endfor %}
    from {% if spec.groups | length > 0 %}(select distinct {{ spec.groups | join(', ') }} from rw_list_rows) as rw_group_keys
    left join rw_group_sums as sums
        on 1 = 1{{ rankwise._groups_match('rw_group_keys', 'sums', spec.groups) }}
    {%- else %}rw_group_sums as sums{% endif %}
    {%- if spec.every_truth_user %}
    cross join rw_truth_totals as totals
    {%- endif %}
)
{%- endmacro %}
