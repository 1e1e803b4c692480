{#- A query listing what is wrong with a recommendations table, one row per kind
    of problem found: problem, column_name, n_rows, example. Problems: null ids,
    null, NaN or infinite ranks or scores, ranks below 1 or not whole, an item
    twice in one list, a rank twice in one list. An empty result means the table can be evaluated.
    Used by rankwise.check and rankwise.evaluate in Python before any metric SQL
    runs; columns must exist (the Python wrapper checks that first). -#}
{% macro recommendation_problems(recommendations, user_col='user_id', item_col='item_id', rank_col='rank', score_col=none, group_by=none) %}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col), ('rank_col', rank_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.recommendation_problems: argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if group_by is none %}{% set group_by = [] %}{% elif group_by is string %}{% set group_by = [group_by] %}{% endif -%}
    {{- return(adapter.dispatch('recommendation_problems', 'rankwise')(recommendations, user_col, item_col, rank_col, score_col, group_by)) -}}
{% endmacro %}

{% macro default__recommendation_problems(recommendations, user_col, item_col, rank_col, score_col, group_by) -%}
{%- set groups = [] -%}
{%- for column in group_by %}{% do groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set position_col = score_col if score_col is not none else rank_col -%}
{%- set list_key = groups + ['rw_user'] -%}
{%- set may_repeat_items = rankwise._may_repeat_items('rw_item') -%}
{%- set may_repeat_ranks = rankwise._may_repeat_ranks('rw_position') if score_col is none else none -%}
{%- set prefilter = may_repeat_items is not none or may_repeat_ranks is not none -%}
{%- set inline_hint = rankwise._inlined_cte() | trim -%}
with

rw_rows as {{ inline_hint ~ ' ' if inline_hint }}(
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        {{ rankwise.quote_identifier(user_col) }} as rw_user,
        {{ rankwise.quote_identifier(item_col) }} as rw_item,
        {{ rankwise.quote_identifier(position_col) }} as rw_position
    from {{ recommendations }}
),

{%- if prefilter %}

-- The exact (list, item) and (list, rank) groupings below cost as much as the
-- metrics themselves. One pass over the lists first clears most of them: a list
-- whose items fill as many hash buckets as it has items holds no item twice, and
-- a list whose ranks are all whole numbers in 1..63 shows its distinct ranks as
-- the set bits of one integer. Only the other lists are grouped exactly.
rw_lists_to_check as (
    select *
    from (
        select
            {{ list_key | join(', ') }},
            {{ may_repeat_items if may_repeat_items is not none else 1 }} as rw_check_items
            {%- if score_col is none %},
            {{ may_repeat_ranks if may_repeat_ranks is not none else 1 }} as rw_check_ranks
            {%- endif %}
        from rw_rows
        where rw_user is not null
        group by {{ list_key | join(', ') }}
    ) as rw_lists
    where rw_check_items = 1{% if score_col is none %} or rw_check_ranks = 1{% endif %}
),
{%- endif %}

rw_repeated_items as (
    {{ rankwise._repeated_in_list('rw_item', list_key, groups, 'rw_check_items' if may_repeat_items is not none else none) }}
),

{%- if score_col is none %}

rw_repeated_ranks as (
    {{ rankwise._repeated_in_list('rw_position', list_key, groups, 'rw_check_ranks' if may_repeat_ranks is not none else none) }}
),
{%- endif %}

rw_problems as (
    {{ rankwise._problem_row('null_user_id', user_col, 'rw_rows', 'rw_user is null', 'rw_item') }}
    union all
    {{ rankwise._problem_row('null_item_id', item_col, 'rw_rows', 'rw_item is null', 'rw_user') }}
    union all
    {#- One read of the rank or score column finds its nulls, NaN and infinities
        (and ranks that are not whole numbers): x - floor(x) is 0 for a whole
        number only, x - x for a finite one only. -#}
    {%- if score_col is none %}
    {{ rankwise._problem_rows_by_kind(rank_col, 'rw_rows', rankwise._invalid_rank('rw_position'), [
        ('null_rank', 'rw_position is null', ['rw_user']),
        ('non_finite_rank', rankwise._not_finite('rw_position'), ['rw_user', 'rw_position']),
        ('rank_not_integer', none, ['rw_user', 'rw_position'])]) }}
    {%- else %}
    {{ rankwise._problem_rows_by_kind(score_col, 'rw_rows', rankwise._invalid_number('rw_position'), [
        ('null_score', 'rw_position is null', ['rw_user']),
        ('non_finite_score', none, ['rw_user', 'rw_position'])]) }}
    {%- endif %}
    union all
    {{ rankwise._problem_row('duplicate_item', item_col, 'rw_repeated_items', '1 = 1', 'rw_user', 'rw_item', 'rw_n') }}
    {%- if score_col is none %}
    union all
    {#- -infinity is reported as not finite, not also as below 1 #}
    {{ rankwise._problem_row('rank_below_one', rank_col, 'rw_rows', 'rw_position < 1 and not ' ~ rankwise._not_finite('rw_position'), 'rw_user', 'rw_position') }}
    union all
    {{ rankwise._problem_row('duplicate_rank', rank_col, 'rw_repeated_ranks', '1 = 1', 'rw_user', 'rw_position', 'rw_n') }}
    {%- endif %}
)

select problem, column_name, n_rows, example
from rw_problems
where n_rows > 0
{%- endmacro %}
