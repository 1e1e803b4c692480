{#- Stages of miscalibration (Steck 2018): per list, KL(p || q~) over the item
    groups of the user's train items, p their shares of the user's distinct
    train items, q their shares of the list's top-k slots. The item groups are
    read once per item (rw_item_groups, stage_item_groups.sql), the train pairs
    are those the popularity already grouped (stage_train_popularity.sql), the
    list's slots are counted per (list, group) at every cutoff in one GROUP
    BY. -#}

{#- rw_train_group_shares, p: each group's share of the user's distinct train
    items (train items missing from the catalog have no group and are left
    out). -#}
{% macro _stage_train_group_shares(spec) %}
    {%- set train_partition = 'partition by ' ~ rankwise._partition_columns(spec) ~ 'rw_user' -%}
rw_train_group_shares as (
    select
        {{ rankwise._partition_columns(spec) }}rw_user,
        rw_item_group,
        {{ rankwise.safe_divide('rw_group_items', 'sum(rw_group_items) over (' ~ train_partition ~ ')') }} as rw_train_share
    from (
        select
            {{ rankwise._selected_columns(spec.partitions, 'pair') }}pair.rw_user as rw_user,
            item_group.rw_item_group as rw_item_group,
            count(*) as rw_group_items
        from rw_train_pairs as pair
        inner join rw_item_groups as item_group
            on item_group.rw_item = pair.rw_item
        group by {{ rankwise._partition_columns(spec, 'pair') }}pair.rw_user, item_group.rw_item_group
    ) as group_items
)
{%- endmacro %}

{#- rw_list_group_shares, q: each group's share of the list's slots within each
    cutoff. -#}
{% macro _stage_list_group_shares(spec) %}
    {%- set cutoffs = spec.calibration_cutoffs -%}
    {%- set list_partition = 'partition by ' ~ rankwise._group_columns(spec.groups) ~ 'rw_user' -%}
rw_list_group_shares as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        rw_item_group
        {%- for cutoff in cutoffs %},
        {{ rankwise.safe_divide('rw_slots__' ~ loop.index, 'sum(rw_slots__' ~ loop.index ~ ') over (' ~ list_partition ~ ')') }} as rw_list_share__{{ loop.index }}
        {%- endfor %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
            item_group.rw_item_group as rw_item_group
            {%- for cutoff in cutoffs %},
            count(case when {{ rankwise._within_cutoff('recommendation.rw_rank', cutoff) }} then 1 end) as rw_slots__{{ loop.index }}
            {%- endfor %}
        from rw_recommendations as recommendation
        inner join rw_item_groups as item_group
            on item_group.rw_item = recommendation.rw_item
        {%- if none not in cutoffs %}
        where recommendation.rw_rank <= {{ cutoffs | max }}
        {%- endif %}
        group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user, item_group.rw_item_group
    ) as slots
)
{%- endmacro %}

{#- rw_calibration: per list, the sum of the terms over its user's train groups
    (p > 0); a group the list lacks has q = 0. A user without train groups has
    no row. -#}
{% macro _stage_calibration(spec) %}
    {%- set cutoffs = spec.calibration_cutoffs -%}
    {%- set registry = rankwise._metric_registry() -%}
rw_calibration as (
    select
        {{ rankwise._selected_columns(spec.groups, 'list') }}list.rw_user as rw_user
        {%- for entry in spec.calibration_metrics %},
        {%- set columns = {'train_share': 'train.rw_train_share',
                           'list_share': 'coalesce(slots.rw_list_share__' ~ (cutoffs.index(entry.k) + 1) ~ ', 0e0)'} %}
        sum({{ rankwise[registry[entry.name].calibration](columns, spec, entry.parameters) }}) as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_list_rows as list
    inner join rw_train_group_shares as train
        on train.rw_user = list.rw_user{{ rankwise._partitions_match('train', 'list', spec) }}
    left join rw_list_group_shares as slots
        on slots.rw_user = list.rw_user and slots.rw_item_group = train.rw_item_group{{ rankwise._groups_match('slots', 'list', spec.groups) }}
    group by {{ rankwise._group_columns(spec.groups, 'list') }}list.rw_user
)
{%- endmacro %}
