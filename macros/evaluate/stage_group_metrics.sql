{#- Stages of the group-level metrics (entropy): how often each item fills a
    top-k slot in its group, its share of those slots, and the metric per group. -#}

{#- rw_item_exposures: per (group, item), its top-k slots at every cutoff at once. -#}
{% macro _stage_item_exposures(spec) %}
rw_item_exposures as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_item
        {%- for entry in spec.group_metrics %},
        count(case when {{ rankwise._within_cutoff('rw_rank', entry.k) }} then 1 end) as rw_exposures__{{ entry.position }}
        {%- endfor %}
    from rw_recommendations
    group by {{ rankwise._group_columns(spec.groups) }}rw_item
)
{%- endmacro %}

{#- rw_item_shares: per (group, item), its share of the group's top-k slots. -#}
{% macro _stage_item_shares(spec) %}
    {%- set over_group = 'over (' ~ ('partition by ' ~ spec.groups | join(', ') if spec.groups | length > 0 else '') ~ ')' -%}
rw_item_shares as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_item
        {%- for entry in spec.group_metrics %},
        {{ rankwise.safe_divide('rw_exposures__' ~ entry.position, 'sum(rw_exposures__' ~ entry.position ~ ') ' ~ over_group) }} as rw_share__{{ entry.position }}
        {%- endfor %}
    from rw_item_exposures
)
{%- endmacro %}

{#- rw_group_metrics: per group, each group-level metric and the number of lists. -#}
{% macro _stage_group_metrics(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
rw_group_metrics as (
    select
        shares.*,
        lists.rw_n_users
    from (
        select
            {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_items
            {%- for entry in spec.group_metrics %},
            cast({{ rankwise[registry[entry.name].formula]({'share': 'rw_share__' ~ entry.position}, entry.k, spec) }} as {{ rankwise.type_float64() }}) as rw_value__{{ entry.position }}
            {%- endfor %}
        from rw_item_shares
        {{ rankwise._group_by_groups(spec.groups) }}
    ) as shares
    inner join (
        select {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_users
        from rw_list_rows
        {{ rankwise._group_by_groups(spec.groups) }}
    ) as lists
        on 1 = 1{{ rankwise._groups_match('shares', 'lists', spec.groups) }}
)
{%- endmacro %}
