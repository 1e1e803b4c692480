{#- A query listing what is wrong with an interactions table, one row per kind of
    problem found: problem, column_name, n_rows, example. Problems: null ids, null,
    NaN, infinite or negative relevance, the same (user, item) twice, with
    `propensity_col` a propensity that is not a number in (0, 1], with
    `user_group_col` a user in two groups; with
    gain='exponential', relevances of 1024 or more, whose gain 2^rel - 1 is past
    the largest double (NDCG would be infinity over infinity). With `partition_by`
    (fold, week...), a pair is a duplicate within one partition only. -#}
{% macro interaction_problems(interactions, user_col='user_id', item_col='item_id', relevance_col=none, gain=none, partition_by=none, propensity_col=none, user_group_col=none) %}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.interaction_problems: argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if gain is not none -%}
        {%- do rankwise._check_choice('interaction_problems', 'gain', gain, rankwise._option_registry().gain.choices) -%}
    {%- endif -%}
    {%- if partition_by is none %}{% set partition_by = [] %}{% elif partition_by is string %}{% set partition_by = [partition_by] %}{% endif -%}
    {{- return(adapter.dispatch('interaction_problems', 'rankwise')(interactions, user_col, item_col, relevance_col, gain, partition_by, propensity_col, user_group_col)) -}}
{% endmacro %}

{% macro default__interaction_problems(interactions, user_col, item_col, relevance_col, gain, partition_by, propensity_col=none, user_group_col=none) -%}
{%- set partitions = [] -%}
{%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set may_repeat_items = rankwise._may_repeat_items('rw_item') -%}
{%- set inline_hint = rankwise._inlined_cte() | trim -%}
with

rw_rows as {{ inline_hint ~ ' ' if inline_hint }}(
    select
        {%- for column in partitions %}
        {{ column }},
        {%- endfor %}
        {{ rankwise.quote_identifier(user_col) }} as rw_user,
        {{ rankwise.quote_identifier(item_col) }} as rw_item,
        {%- if relevance_col is not none %}
        cast({{ rankwise.quote_identifier(relevance_col) }} as {{ rankwise.type_float64() }}) as rw_relevance
        {%- else %}
        cast(1 as {{ rankwise.type_float64() }}) as rw_relevance
        {%- endif %}
        {%- if propensity_col is not none %},
        cast({{ rankwise.quote_identifier(propensity_col) }} as {{ rankwise.type_float64() }}) as rw_propensity
        {%- endif %}
        {%- if user_group_col is not none %},
        {{ rankwise.quote_identifier(user_group_col) }} as rw_user_group
        {%- endif %}
    from {{ interactions }}
),

{%- if may_repeat_items is not none %}

-- A user whose items fill as many hash buckets as there are items holds no item
-- twice: only the other users need the exact (user, item) grouping.
rw_lists_to_check as (
    select {% for column in partitions %}{{ column }}, {% endfor %}rw_user, 1 as rw_check_items
    from rw_rows
    where rw_user is not null
    group by {% for column in partitions %}{{ column }}, {% endfor %}rw_user
    having {{ may_repeat_items }} = 1
),
{%- endif %}

rw_repeated_pairs as (
    {{ rankwise._repeated_in_list('rw_item', partitions + ['rw_user'], partitions, 'rw_check_items' if may_repeat_items is not none else none) }}
),

rw_problems as (
    {{ rankwise._problem_row('null_user_id', user_col, 'rw_rows', 'rw_user is null', 'rw_item') }}
    union all
    {{ rankwise._problem_row('null_item_id', item_col, 'rw_rows', 'rw_item is null', 'rw_user') }}
    union all
    {{ rankwise._problem_row('duplicate_interaction', item_col, 'rw_repeated_pairs', '1 = 1', 'rw_user', 'rw_item', 'rw_n') }}
    {%- if relevance_col is not none %}
    union all
    {#- one read of the relevance column for its nulls, NaN and infinities #}
    {%- set too_large_for_gain = gain == 'exponential' %}
    {{ rankwise._problem_rows_by_kind(relevance_col, 'rw_rows', rankwise._invalid_number('rw_relevance') ~ (' or ' ~ rankwise._too_large_for_exponential_gain('rw_relevance') if too_large_for_gain else ''), [
        ('null_relevance', 'rw_relevance is null', ['rw_user', 'rw_item']),
        ('non_finite_relevance', rankwise._not_finite('rw_relevance') if too_large_for_gain else none, ['rw_user', 'rw_item'])]
        + ([('relevance_too_large_for_exponential_gain', none, ['rw_user', 'rw_item'])] if too_large_for_gain else [])) }}
    union all
    {#- -infinity is reported as not finite, not also as negative #}
    {{ rankwise._problem_row('negative_relevance', relevance_col, 'rw_rows', 'rw_relevance < 0 and not ' ~ rankwise._not_finite('rw_relevance'), 'rw_user', 'rw_item') }}
    {%- endif %}
    {%- if propensity_col is not none %}
    union all
    {#- a probability of being observed: NaN fails every comparison, so is caught too #}
    {{ rankwise._problem_row('invalid_propensity', propensity_col, 'rw_rows', 'rw_propensity is null or not (rw_propensity > 0 and rw_propensity <= 1)', 'rw_user', 'rw_item') }}
    {%- endif %}
    {%- if user_group_col is not none %}
    union all
    {#- one group per user (per partition): a list is scored in its user's group #}
    {{ rankwise._problem_row('user_in_two_groups', user_group_col,
        '(select ' ~ rankwise._group_columns(partitions) ~ 'rw_user from rw_rows group by ' ~ rankwise._group_columns(partitions) ~ 'rw_user having count(distinct rw_user_group) > 1) as rw_regrouped',
        '1 = 1', 'rw_user') }}
    {%- endif %}
)

select problem, column_name, n_rows, example
from rw_problems
where n_rows > 0
{%- endmacro %}
