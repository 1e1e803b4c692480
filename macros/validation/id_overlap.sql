{#- A query of how the ids of the two tables meet, one row per kind of id
    ('user', 'item'): id_kind, column_name, n_recommendations and n_interactions
    (distinct ids on each side), n_common (ids on both sides; users within the
    same partition), and the smallest id of each side as an example. No common
    user means no list is judged against any truth: every metric would be 0 or
    the result empty, which rankwise reports as an error, not a number. -#}
{% macro id_overlap(recommendations, interactions, user_col='user_id', item_col='item_id', partition_by=none) %}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.id_overlap: argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if partition_by is none %}{% set partition_by = [] %}{% elif partition_by is string %}{% set partition_by = [partition_by] %}{% endif -%}
    {{- return(adapter.dispatch('id_overlap', 'rankwise')(recommendations, interactions, user_col, item_col, partition_by)) -}}
{% endmacro %}

{% macro default__id_overlap(recommendations, interactions, user_col, item_col, partition_by) -%}
{%- set partitions = [] -%}
{%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set string = dbt.type_string() -%}
{%- set sides = {'recommendations': recommendations, 'interactions': interactions} -%}
with
{% for side, relation in sides.items() %}
rw_{{ side }}_users as (
    select distinct {% for column in partitions %}{{ column }}, {% endfor %}{{ rankwise.quote_identifier(user_col) }} as rw_id
    from {{ relation }}
    where {{ rankwise.quote_identifier(user_col) }} is not null
),

rw_{{ side }}_items as (
    select distinct {{ rankwise.quote_identifier(item_col) }} as rw_id
    from {{ relation }}
    where {{ rankwise.quote_identifier(item_col) }} is not null
),
{% endfor %}
rw_common_users as (
    select count(*) as rw_n
    from rw_recommendations_users as recommended
    where exists (
        select 1 from rw_interactions_users as judged
        where judged.rw_id = recommended.rw_id{{ rankwise._groups_match('judged', 'recommended', partitions) }}
    )
),

rw_common_items as (
    select count(*) as rw_n
    from rw_recommendations_items as recommended
    where exists (select 1 from rw_interactions_items as judged where judged.rw_id = recommended.rw_id)
)
{#- users first, then items, the order the wrapper raises them in: a UNION ALL
    has no order of its own, and ClickHouse runs its branches side by side #}
select * from (
{%- for kind, column in [('user', user_col), ('item', item_col)] %}
select
    '{{ kind }}' as id_kind,
    {{ rankwise._string_literal(column) }} as column_name,
    (select count(*) from rw_recommendations_{{ kind }}s) as n_recommendations,
    (select count(*) from rw_interactions_{{ kind }}s) as n_interactions,
    (select rw_n from rw_common_{{ kind }}s) as n_common,
    (select min(cast(rw_id as {{ string }})) from rw_recommendations_{{ kind }}s) as recommendations_example,
    (select min(cast(rw_id as {{ string }})) from rw_interactions_{{ kind }}s) as interactions_example
{%- if not loop.last %}
union all
{%- endif %}
{%- endfor %}
) as rw_id_kinds
order by case id_kind when 'user' then 1 else 2 end
{%- endmacro %}

{#- One row: whether the tables share any user id (within a partition) and any
    item id, as rw_users_shared and rw_items_shared. It answers the common case of
    id_overlap, both shared and nothing to report, without counting the distinct
    ids of either side: an engine can stop at the first match. -#}
{% macro _ids_shared(recommendations, interactions, user_col, item_col, partition_by) -%}
{%- set partitions = [] -%}
{%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
{%- set user = rankwise.quote_identifier(user_col) -%}
{%- set item = rankwise.quote_identifier(item_col) -%}
select
    exists (
        select 1 from {{ recommendations }} as recommended
        where exists (
            select 1 from {{ interactions }} as judged
            where judged.{{ user }} = recommended.{{ user }}{{ rankwise._groups_match('judged', 'recommended', partitions) }}
        )
    ) as rw_users_shared,
    exists (
        select 1 from {{ recommendations }} as recommended
        where exists (select 1 from {{ interactions }} as judged where judged.{{ item }} = recommended.{{ item }})
    ) as rw_items_shared
{%- endmacro %}
