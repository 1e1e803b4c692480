{#- A query of facts about a pair of tables that are not errors but change what a
    mean covers, one row per kind found (problem, column_name, n_rows, example):
    users_only_in_recommendations, users_only_in_interactions (see the `users`
    option), users_without_relevant_item, lists_shorter_than_k (for the largest
    cutoff asked), tied_scores (ranks then follow the `ties` option). -#}
{% macro evaluation_notes(recommendations, interactions, user_col='user_id', item_col='item_id', score_col=none,
                          relevance_col=none, relevance_threshold=1, k=none, group_by=none, partition_by=none) %}
    {%- do rankwise._check_cutoff('evaluation_notes', k) -%}
    {%- set relevance_threshold = rankwise._number_literal('evaluation_notes', 'relevance_threshold', relevance_threshold) -%}
    {%- if group_by is none %}{% set group_by = [] %}{% elif group_by is string %}{% set group_by = [group_by] %}{% endif -%}
    {%- if partition_by is none %}{% set partition_by = [] %}{% elif partition_by is string %}{% set partition_by = [partition_by] %}{% endif -%}
    {{- return(adapter.dispatch('evaluation_notes', 'rankwise')(recommendations, interactions, user_col, item_col, score_col,
                                                               relevance_col, relevance_threshold, k, group_by, partition_by)) -}}
{% endmacro %}

{% macro default__evaluation_notes(recommendations, interactions, user_col, item_col, score_col, relevance_col,
                                   relevance_threshold, k, group_by, partition_by) -%}
{%- set partitions = [] -%}
{%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set groups = [] -%}
{%- for column in group_by %}{% do groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set groups = partitions + groups -%}
{%- set list_key = groups + ['rw_user'] -%}
{%- set truth_key = partitions + ['rw_user'] -%}
{%- set same_partition = [] -%}
{%- for column in partitions %}{% do same_partition.append(' and ' ~ rankwise.null_safe_equals('t.' ~ column, 'l.' ~ column)) %}{% endfor -%}
with

rw_lists as (
    select {{ list_key | join(', ') }}, count(*) as rw_length
        {%- if score_col is not none %}, count(distinct rw_score) as rw_distinct_scores{% endif %}
    from (
        select
            {%- for column in groups %}
            {{ column }},
            {%- endfor %}
            {{ rankwise.quote_identifier(user_col) }} as rw_user
            {%- if score_col is not none %},
            {{ rankwise.quote_identifier(score_col) }} as rw_score
            {%- endif %}
        from {{ recommendations }}
    ) as rw_rows
    group by {{ list_key | join(', ') }}
),

rw_truth as (
    select
        {%- for column in partitions %}
        {{ column }},
        {%- endfor %}
        {{ rankwise.quote_identifier(user_col) }} as rw_user,
        count(case when {{ rankwise.quote_identifier(relevance_col) if relevance_col is not none else 1 }} >= {{ relevance_threshold }} then 1 end) as rw_n_relevant
    from {{ interactions }}
    group by {% for column in partitions %}{{ column }}, {% endfor %}{{ rankwise.quote_identifier(user_col) }}
),

rw_notes as (
    {{ rankwise._problem_row('users_only_in_recommendations', user_col,
        '(select distinct ' ~ truth_key | join(', ') ~ ' from rw_lists) as l', 'not exists (select 1 from rw_truth as t where t.rw_user = l.rw_user' ~ same_partition | join('') ~ ')', 'rw_user') }}
    union all
    {{ rankwise._problem_row('users_only_in_interactions', user_col,
        'rw_truth as t', 'not exists (select 1 from rw_lists as l where l.rw_user = t.rw_user' ~ same_partition | join('') ~ ')', 'rw_user') }}
    union all
    {{ rankwise._problem_row('users_without_relevant_item', user_col, 'rw_truth', 'rw_n_relevant = 0', 'rw_user') }}
    {%- if k is not none %}
    union all
    {{ rankwise._problem_row('lists_shorter_than_k', user_col, 'rw_lists', 'rw_length < ' ~ k, 'rw_user') }}
    {%- endif %}
    {%- if score_col is not none %}
    union all
    {{ rankwise._problem_row('tied_scores', score_col, 'rw_lists', 'rw_distinct_scores < rw_length', 'rw_user') }}
    {%- endif %}
)

{#- in the order of _note_descriptions: a UNION ALL has no order of its own #}
select problem, column_name, n_rows, example
from rw_notes
where n_rows > 0
{{ rankwise._in_order_of('problem', rankwise._note_descriptions().keys()) }}
{%- endmacro %}
