{#- A query of the recommended rows that evaluate's options judged_only,
    ignore_identical_ids and duplicate_recommendations='first' drop before
    ranking (macros/evaluate/kept_recommendations.sql), one row: the rows
    dropped for each reason (n_unjudged, n_identical, n_repeated; a row may
    have two), the lists they come from (n_lists) and the lists left with no
    row (n_emptied), which are users without a list. The Python wrapper warns
    with it; in dbt, run it beside an evaluation under those options. The
    arguments are evaluate's (rank_col is read only without score_col, to
    find the first of an item's occurrences). -#}
{% macro dropped_recommendations(recommendations, interactions, user_col='user_id', item_col='item_id', rank_col='rank',
                                 score_col=none, group_by=none, partition_by=none, judged_only=false,
                                 ignore_identical_ids=false, duplicate_recommendations='error') %}
    {%- if group_by is none %}{% set group_by = [] %}{% elif group_by is string %}{% set group_by = [group_by] %}{% endif -%}
    {%- if partition_by is none %}{% set partition_by = [] %}{% elif partition_by is string %}{% set partition_by = [partition_by] %}{% endif -%}
    {%- do rankwise._check_choice('dropped_recommendations', 'duplicate_recommendations', duplicate_recommendations,
                                  rankwise._option_registry().duplicate_recommendations.choices) -%}
    {%- for name, value in [('judged_only', judged_only), ('ignore_identical_ids', ignore_identical_ids)] if value is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise.dropped_recommendations: argument `" ~ name ~ "` must be true or false; got " ~ rankwise._describe(value) ~ ".") }}
    {%- endfor -%}
    {{- return(adapter.dispatch('dropped_recommendations', 'rankwise')(recommendations, interactions, user_col, item_col,
               rank_col if score_col is none else none, score_col, group_by, partition_by, judged_only, ignore_identical_ids,
               duplicate_recommendations)) -}}
{% endmacro %}

{% macro default__dropped_recommendations(recommendations, interactions, user_col, item_col, rank_col, score_col, group_by,
                                          partition_by, judged_only, ignore_identical_ids, duplicate_recommendations) %}
    {%- set quoted = [] -%}
    {%- for column in group_by %}{% do quoted.append(rankwise.quote_identifier(column)) %}{% endfor -%}
    {%- set partitions = [] -%}
    {%- for column in partition_by %}{% do partitions.append(rankwise.quote_identifier(column)) %}{% endfor -%}
    {%- set columns = {'user': rankwise.quote_identifier(user_col), 'item': rankwise.quote_identifier(item_col),
                       'rank': none if rank_col is none else rankwise.quote_identifier(rank_col),
                       'score': none if score_col is none else rankwise.quote_identifier(score_col),
                       'lists': quoted, 'partitions': partitions} -%}
    {%- set drops = {'judged_only': judged_only, 'ignore_identical_ids': ignore_identical_ids, 'duplicate_recommendations': duplicate_recommendations} -%}
    {%- set list = (quoted + [columns.user]) | join(', ') -%}
    {%- set flagged = rankwise._flagged_recommendations(recommendations, interactions, columns, drops) -%}
select
    cast(coalesce(sum(rw_list_unjudged), 0) as bigint) as n_unjudged,
    cast(coalesce(sum(rw_list_identical), 0) as bigint) as n_identical,
    cast(coalesce(sum(rw_list_repeated), 0) as bigint) as n_repeated,
    cast(count(case when rw_dropped_rows > 0 then 1 end) as bigint) as n_lists,
    cast(count(case when rw_dropped_rows = rw_rows then 1 end) as bigint) as n_emptied
from (
    -- one row per list: its rows, and those dropped
    select
        {{ list }}, count(*) as rw_rows, sum(greatest(rw_unjudged, rw_identical, rw_repeated)) as rw_dropped_rows,
        sum(rw_unjudged) as rw_list_unjudged, sum(rw_identical) as rw_list_identical, sum(rw_repeated) as rw_list_repeated
    from (
        {{ flagged }}
    ) as rw_flagged
    group by {{ list }}
) as rw_lists
{%- endmacro %}
