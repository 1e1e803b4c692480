{#- A query of the warnings an evaluation's means call for, read off the output of
    rankwise.evaluate (`evaluation`: a relation or subquery of its means), one row
    per warning: warning, message.
    - different_user_sets: within one partition, the groups' means are over
      different numbers of users, so they are not compared on one population
      (users='both' or 'relevant' leave out different users per group); one row
      per partition and user set, not per metric.
    - few_users_with_lists: a group has lists for fewer than half of the users
      with ground truth (of its partition); they score 0, or under users='both'
      its means leave them out.
    `users` is the evaluation's resolved `users` option: a set name, or a mapping
    of metric names to sets with a 'default'.
    Every warning here needs a user without a list or means over different
    numbers of users: the Python wrapper reads the means' counts and runs this
    query only when one of the two holds (rankwise._checks.may_warn_of_coverage;
    tests/unit/test_fixed_cost_paths.py holds the two together). -#}
{% macro coverage_warnings(evaluation, group_by=none, partition_by=none, users='interactions') %}
    {%- if group_by is none %}{% set group_by = [] %}{% elif group_by is string %}{% set group_by = [group_by] %}{% endif -%}
    {%- if partition_by is none %}{% set partition_by = [] %}{% elif partition_by is string %}{% set partition_by = [partition_by] %}{% endif -%}
    {%- set sets = users if users is mapping else {'default': users} -%}
    {%- for name, value in sets.items() -%}
        {%- do rankwise._check_choice('coverage_warnings', 'users', value, ['both', 'interactions', 'relevant']) -%}
    {%- endfor -%}
    {{- return(adapter.dispatch('coverage_warnings', 'rankwise')(evaluation, group_by, partition_by, sets)) -}}
{% endmacro %}

{% macro default__coverage_warnings(evaluation, group_by, partition_by, sets) -%}
{%- set string = dbt.type_string() -%}
{%- set partitions = [] -%}
{%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set groups = [] -%}
{%- for column in group_by %}{% do groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{#- 'model b, fold 2' for a row: each column's name and value -#}
{%- set labels = {'partition': [], 'group': []} -%}
{%- for kind, names, quoted in [('partition', partition_by, partitions), ('group', group_by, groups)] -%}
    {%- for column in quoted -%}
        {%- do labels[kind].append(rankwise._string_literal(names[loop.index0] ~ ' ') ~ " || coalesce(cast(" ~ column ~ " as " ~ string ~ "), 'NULL')") -%}
    {%- endfor -%}
{%- endfor -%}
{%- set partition_label = labels.partition | join(" || ', ' || ") if labels.partition else none -%}
{%- set group_label = labels.group | join(" || ', ' || ") if labels.group else "'the evaluation'" -%}
{%- set set_cases = [] -%}
{%- for name, value in sets.items() if name != 'default' -%}
    {%- do set_cases.append('when ' ~ rankwise._string_literal(name) ~ ' then ' ~ rankwise._string_literal(value)) -%}
{%- endfor -%}
with

rw_means as (
    select
        {{ rankwise._group_columns(partitions + groups) }}metric,
        k,
        n_users,
        n_users_without_list,
        {{ ('case metric ' ~ set_cases | join(' ') ~ ' else ' if set_cases else '') ~ rankwise._string_literal(sets.default) ~ (' end' if set_cases else '') }} as rw_user_set
    from {{ evaluation }}
    -- group-level metrics (entropy) read no interactions
    where n_users_without_list is not null
),

rw_truth_users as (
    select distinct
        {{ rankwise._group_columns(partitions + groups) }}rw_user_set,
        n_users_without_list,
        case rw_user_set when 'interactions' then n_users else n_users + n_users_without_list end as rw_n_truth
    from rw_means
    where rw_user_set <> 'relevant'
)

{#- the union ordered as a whole: ClickHouse would order its last branch only #}
select * from (
select
    'different_user_sets' as warning,
    'rankwise: ' || {{ "'in ' || " ~ partition_label ~ " || ', ' || " if partition_label else '' }}'the groups are scored on different users: a mean is over '
        || cast(min(n_users) as {{ string }}) || ' users in one group and ' || cast(max(n_users) as {{ string }})
        || {{ rankwise._string_literal(" in another (users='") }} || rw_user_set
        || {{ rankwise._string_literal("' leaves out different users per group). Compare groups on one population: users='interactions', the default.") }} as message
from rw_means
where rw_user_set <> 'interactions'
group by {{ rankwise._group_columns(partitions) }}rw_user_set
having min(n_users) < max(n_users)

union all

select
    'few_users_with_lists' as warning,
    'rankwise: ' || {{ group_label }} || ' has lists for ' || cast(rw_n_truth - n_users_without_list as {{ string }})
        || ' of the ' || cast(rw_n_truth as {{ string }}) || ' users with ground truth'
        {{- " || ' in ' || " ~ partition_label if partition_label else '' }} || '; '
        || case rw_user_set when 'interactions' then 'the others score 0 in its means.'
           else 'its means leave the others out, so they describe few of the users.' end as message
from rw_truth_users
where n_users_without_list * 2 > rw_n_truth
) as rw_warnings
order by warning, message
{%- endmacro %}
