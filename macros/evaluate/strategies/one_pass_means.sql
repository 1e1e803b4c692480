{#- The means of the user_arrays strategy, in one pass over its rows
    (strategies/user_arrays.sql): the sums, the users of each set and the
    input guard's counts in one aggregate. -#}

{#- Whether the one pass counts the truth's users itself in groups: each on
    the row of its first list (rw_is_first_list) or on its row without one
    (rw_counts_truth_user), where rw_truth_totals would read the interactions
    once more, a scan, a count and its broadcast on Spark. Not under
    partition_by: a truth user's row without a list has no partition to be
    counted in. -#}
{% macro _truth_users_counted_in_one_pass(spec) %}
    {{ return(spec.strategies.means == 'one_pass' and spec.groups | length > 0 and spec.partitions | length == 0) }}
{% endmacro %}

{#- rw_group_sums when the means are one pass over a row per list (or truth
    user without one) and cutoff (the user_arrays strategy: every metric 0
    without a list): per (group, cutoff) the sums over the truth's users, the
    counts of rw_group_counts, the truth's users (each once over the groups:
    without groups each is a row once) and the input guard's counts. In
    groups, the truth's users without a list are a row apart (rw_has_list 0),
    which only the guard and the truth's users read. -#}
{% macro _stage_group_sums__one_pass(spec) %}
    {%- set keys = rankwise._group_columns(spec.groups) ~ 'rw_limit' ~ (', rw_has_list' if spec.groups | length > 0 else '') -%}
rw_group_sums as (
    select
        {{ keys }}
        {%- for metric in spec.user_metric_names %}
        {%- set value = 'case when rw_has_truth = 1 then rw_value__' ~ metric.key ~ ' end' %},
        sum({{ value }}) as rw_sum__{{ metric.key }}
        {%- if spec.confidence is not none %},
        count({{ value }}) as rw_listed__{{ metric.key }},
        {{ rankwise._var_pop(value) }} as rw_var__{{ metric.key }}
        {%- endif %}
        {%- endfor %},
        count(case when {{ 'rw_counts_truth_user' if rankwise._truth_users_counted_in_one_pass(spec) else 'rw_has_truth' }} = 1 then 1 end) as rw_n_truth_users,
        count(case when rw_has_truth = 1 and rw_has_list = 1 then 1 end) as rw_n_both,
        count(case when rw_has_truth = 1 and rw_has_list = 1 and rw_n_relevant > 0 then 1 end) as rw_n_relevant
        {%- if spec.input_guard %},
        count(case when rw_has_list = 1 then 1 end) as rw_n_lists,
        sum(rw_problem_rows) as rw_problem_rows
        {%- endif %}
    from rw_user_metrics
    group by {{ keys }}
)
{%- endmacro %}

{#- rw_group_means in the one pass: the sums' row carries the counts, its cutoff
    and, without groups, the users of the interactions; the input guard's
    totals over every group and the truth's users without a list (each list and
    truth user has a row at every cutoff), and in groups the truth's users,
    each counted on one of its rows (or, under partition_by, rw_truth_totals'
    count of its partition). -#}
{% macro _stage_group_means__one_pass(spec) %}
    {%- set counted = rankwise._truth_users_counted_in_one_pass(spec) -%}
    {%- set truth_users = 'sums.rw_n_truth_users' if spec.groups | length == 0 else ('sums.rw_all_truth_users' if counted else 'totals.rw_n_truth_users') -%}
rw_group_means as (
    select
        {{ rankwise._selected_columns(spec.groups, 'sums') }}sums.rw_limit as rw_limit
        {{- rankwise._group_mean_columns(spec, 'sums', truth_users) }}
    from (
        select
            rw_group_sums.*{% if spec.input_guard or counted %},
            sum(rw_n_truth_users) over (partition by rw_limit) as rw_all_truth_users
            {%- endif %}
            {%- if spec.input_guard %},
            sum(rw_n_lists) over (partition by rw_limit) as rw_all_lists,
            sum(rw_problem_rows) over (partition by rw_limit) as rw_all_problem_rows
            {%- endif %}
        from rw_group_sums
    ) as sums
    {%- if spec.groups | length > 0 and not counted %}
    left join rw_truth_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'sums', spec) }}
    {%- endif %}
    {%- set conditions = (['sums.rw_has_list = 1'] if spec.groups | length > 0 else [])
                         + ([rankwise._inputs_pass('sums.rw_all_lists', 'sums.rw_all_truth_users', ['sums.rw_all_problem_rows'])] if spec.input_guard else []) %}
    {%- if conditions | length > 0 %}
    where {{ conditions | join(' and ') }}
    {%- endif %}
)
{%- endmacro %}
