{#- Stages over the recommendations: each list's rows with their rank, and one
    row per list. -#}

{#- rw_recommendations: (groups, rw_user, rw_item, rw_rank). With a score column
    the rank is derived; the tie rule is the `ties` option. -#}
{% macro _stage_recommendations(recommendations, spec) %}
    {%- set list = rankwise._group_columns(spec.groups) ~ spec.user -%}
rw_recommendations as {{ (rankwise._inlined_cte() | trim) ~ ' ' if spec.inlined_recommendations and rankwise._inlined_cte() | trim }}(
    select
        {{ rankwise._group_columns(spec.groups) }}{{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.score is none %}
        {{ spec.rank }} as rw_rank
        {%- elif spec.ties == 'shared' %}
        -- tied scores share the truncated mean of their positions, as pandas'
        -- rank(method='average').astype(int) gives them (Evidently)
        rank() over (partition by {{ list }} order by {{ spec.score }} desc nulls last)
            + cast(floor((count(*) over (partition by {{ list }}, {{ spec.score }}) - 1) / 2.0) as bigint) as rw_rank
        {%- else %}
        -- trec_eval's order: score descending, then item id descending
        row_number() over (
            partition by {{ list }}
            order by {{ spec.score }} desc nulls last, {{ spec.item }} {{ 'desc' if spec.ties == 'item_desc' else 'asc' }} nulls last
        ) as rw_rank
        {%- endif %}
    from {{ recommendations }}
)
{%- endmacro %}

{#- rw_list_rows: one row per list, with its length within each cutoff. -#}
{% macro _stage_list_rows(spec) %}
rw_list_rows as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user
        {{- rankwise._component_aggregates(spec.components_from.list_rows, spec) }}
    from rw_recommendations
    group by {{ spec.list_keys | join(', ') }}
)
{%- endmacro %}
