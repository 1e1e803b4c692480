{#- Stages of the metrics that read the item groups (registry `reads`
    'item_groups': exposure_disparity) and of rankwise.exposure_by_item_group:
    per group of the output and item group g (item_group_col of the catalog),
    the exposure share E_g, the items' exposure within k (rw_item_exposures,
    the one GROUP BY of the recommendations that gini and entropy read too)
    summed over g over the group's; and the relevance share R_g, the relevant
    (user, item) pairs of the interactions (per partition) whose item is in g
    over all of them. The checks refuse an item with two groups or none, and a
    relevant item missing from the catalog, so every share has one group and
    each side sums to 1. -#}

{#- rw_item_groups: each catalog item's group. -#}
{% macro _stage_item_groups(spec) %}
rw_item_groups as (
    select distinct {{ spec.item }} as rw_item, {{ spec.item_group }} as rw_item_group
    from {{ spec.items_relation }}
)
{%- endmacro %}

{#- rw_relevant_by_item_group: per partition and item group, the relevant
    (user, item) pairs of the interactions. -#}
{% macro _stage_relevant_by_item_group(spec) %}
rw_relevant_by_item_group as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'truth') }}item_group.rw_item_group as rw_item_group,
        count(*) as rw_relevant_pairs
    from rw_interactions as truth
    inner join rw_item_groups as item_group
        on item_group.rw_item = truth.rw_item
    where {{ rankwise._is_relevant('truth.rw_relevance', spec) }}
    group by {{ rankwise._group_columns(spec.partitions, 'truth') }}item_group.rw_item_group
)
{%- endmacro %}

{#- rw_item_group_shares: per group and item group of the catalog (an item
    group never shown, or without a relevant pair, has its row with 0), the
    items of the group in the catalog, and per metric entry (a cutoff) the
    exposure and its share; the relevant pairs and their share. A share is
    NULL when its side has nothing to share (no exposure within k, no
    relevant pair in the partition). -#}
{% macro _stage_item_group_shares(spec) %}
    {%- set over_group = 'over (' ~ ('partition by ' ~ rankwise._group_columns(spec.groups, 'lists')[:-2] if spec.groups | length > 0 else '') ~ ')' -%}
rw_item_group_shares as (
    select
        {{ rankwise._selected_columns(spec.groups, 'lists') }}catalog.rw_item_group as rw_item_group,
        catalog.rw_n_items as rw_n_items
        {%- for entry in spec.item_group_metrics %},
        coalesce(exposed.rw_exposure__{{ entry.position }}, 0e0) as rw_exposure__{{ entry.position }},
        {{ rankwise.safe_divide('coalesce(exposed.rw_exposure__' ~ entry.position ~ ', 0e0)',
                                'sum(coalesce(exposed.rw_exposure__' ~ entry.position ~ ', 0e0)) ' ~ over_group) }} as rw_exposure_share__{{ entry.position }}
        {%- endfor %},
        cast(coalesce(relevant.rw_relevant_pairs, 0) as bigint) as rw_relevant_pairs,
        {{ rankwise.safe_divide('cast(coalesce(relevant.rw_relevant_pairs, 0) as ' ~ rankwise.type_float64() ~ ')',
                                'sum(cast(coalesce(relevant.rw_relevant_pairs, 0) as ' ~ rankwise.type_float64() ~ ')) ' ~ over_group) }} as rw_relevance_share
    from (
        select {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_lists
        from rw_list_rows
        {{ rankwise._group_by_groups(spec.groups) }}
    ) as lists
    cross join (
        select rw_item_group, count(*) as rw_n_items
        from rw_item_groups
        group by rw_item_group
    ) as catalog
    left join (
        select
            {{ rankwise._selected_columns(spec.groups, 'exposures') }}item_group.rw_item_group as rw_item_group
            {%- for entry in spec.item_group_metrics %},
            sum(exposures.rw_exposures__{{ entry.position }}) as rw_exposure__{{ entry.position }}
            {%- endfor %}
        from rw_item_exposures as exposures
        inner join rw_item_groups as item_group
            on item_group.rw_item = exposures.rw_item
        group by {{ rankwise._group_columns(spec.groups, 'exposures') }}item_group.rw_item_group
    ) as exposed
        on exposed.rw_item_group = catalog.rw_item_group{{ rankwise._groups_match('exposed', 'lists', spec.groups) }}
    left join rw_relevant_by_item_group as relevant
        on relevant.rw_item_group = catalog.rw_item_group{{ rankwise._partitions_match('relevant', 'lists', spec) }}
)
{%- endmacro %}

{#- rw_item_group_disparity: per group, exposure_disparity at each cutoff,
    1/2 sum_g |E_g - R_g| (Singh & Joachims 2018's disparate treatment as a
    total variation distance). When one side has nothing to share, its shares
    are all NULL in the group, and so is the sum. -#}
{% macro _stage_item_group_disparity(spec) %}
rw_item_group_disparity as (
    select
        {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_item_groups
        {%- for entry in spec.item_group_metrics %},
        0.5e0 * sum(abs(rw_exposure_share__{{ entry.position }} - rw_relevance_share)) as rw_disparity__{{ entry.position }}
        {%- endfor %}
    from rw_item_group_shares
    {{ rankwise._group_by_groups(spec.groups) }}
)
{%- endmacro %}
