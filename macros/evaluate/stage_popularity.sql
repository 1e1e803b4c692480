{#- Stages of the list-level metrics (novelty, arp, long_tail_share): each
    recommended item's popularity in the train table, each list's mean over its
    top k of an item value, and the means over the lists. One GROUP BY of the
    train table and one of the top-k rows joined to it, for every metric and
    cutoff. With partition_by, the train table has the partition columns and
    each partition's popularity is its own. -#}

{#- rw_train_items: per (partition, item), the users and interactions of the
    item in train, and for long_tail_share whether it is in the head (rw_in_head);
    rw_train_totals: per partition, the users and interactions of train. -#}
{% macro _stage_train_popularity(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
    {%- set group_partitions = rankwise._group_by_groups(spec.partitions) -%}
rw_train_totals as (
    select
        {{ partitions }}count(distinct {{ spec.user }}) as rw_train_users,
        count(*) as rw_train_interactions
    from {{ spec.train_relation }}
    {{ group_partitions }}
),

{% if spec.needs_head -%}
rw_train_item_counts as (
    select
        {{ partitions }}{{ spec.item }} as rw_item,
        count(distinct {{ spec.user }}) as rw_item_users,
        count(*) as rw_item_interactions
    from {{ spec.train_relation }}
    group by {{ partitions }}{{ spec.item }}
),

{#- The head: the most popular items that together hold head_share of the
    interactions. An item is in it when the items with more interactions than
    it hold less than that share; items tied with it add the same, so ties
    are all in or all out. -#}
rw_train_items as (
    select
        {{ rankwise._group_columns(spec.partitions, 'counts') }}counts.rw_item,
        counts.rw_item_users,
        counts.rw_item_interactions,
        case when counts.rw_more_popular < {{ rankwise._number_literal('evaluate', 'head_share', spec.head_share) }} * totals.rw_train_interactions
             then 1 else 0 end as rw_in_head
    from (
        select
            {{ partitions }}rw_item,
            rw_item_users,
            rw_item_interactions,
            sum(rw_item_interactions) over (
                {{ 'partition by ' ~ spec.partitions | join(', ') if spec.partitions | length > 0 else '' }}
                order by rw_item_interactions desc range between unbounded preceding and current row
            ) - rw_item_interactions * count(*) over (partition by {{ partitions }}rw_item_interactions) as rw_more_popular
        from rw_train_item_counts
    ) as counts
    inner join rw_train_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'counts', spec) }}
)
{%- else -%}
rw_train_items as (
    select
        {{ partitions }}{{ spec.item }} as rw_item,
        count(distinct {{ spec.user }}) as rw_item_users,
        count(*) as rw_item_interactions
    from {{ spec.train_relation }}
    group by {{ partitions }}{{ spec.item }}
)
{%- endif %}
{%- endmacro %}

{#- rw_list_popularity: per list, for each list-level metric and cutoff, the
    metric's item value summed over the top k (rw_sum__p) and the items in it
    (rw_top__p), their mean its value (rw_value__p). -#}
{% macro _stage_list_popularity(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set columns = {
        'item_users': 'train_item.rw_item_users',
        'item_interactions': 'train_item.rw_item_interactions',
        'train_users': 'totals.rw_train_users',
        'train_interactions': 'totals.rw_train_interactions',
        'in_head': 'train_item.rw_in_head',
    } -%}
    {%- set cutoffs = spec.list_metrics | map(attribute='k') | list -%}
rw_list_popularity as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user
        {%- for entry in spec.list_metrics %},
        rw_top__{{ entry.position }},
        {{ rankwise.safe_divide('rw_sum__' ~ entry.position, 'rw_top__' ~ entry.position) }} as rw_value__{{ entry.position }}
        {%- endfor %}
    from (
        select
            {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
            {%- for entry in spec.list_metrics %},
            count(case when {{ rankwise._within_cutoff('recommendation.rw_rank', entry.k) }} then 1 end) as rw_top__{{ entry.position }},
            sum(case when {{ rankwise._within_cutoff('recommendation.rw_rank', entry.k) }} then {{ rankwise[registry[entry.name].formula](columns, entry.k, spec) }} end) as rw_sum__{{ entry.position }}
            {%- endfor %}
        from rw_recommendations as recommendation
        left join rw_train_items as train_item
            on train_item.rw_item = recommendation.rw_item{{ rankwise._partitions_match('train_item', 'recommendation', spec) }}
        left join rw_train_totals as totals
            on 1 = 1{{ rankwise._partitions_match('totals', 'recommendation', spec) }}
        {%- if none not in cutoffs %}
        where recommendation.rw_rank <= {{ cutoffs | max }}
        {%- endif %}
        group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
    ) as sums
)
{%- endmacro %}

{#- rw_list_means: per group, each list-level metric's mean over the lists with
    an item in the top k, their number and the values' population variance. -#}
{% macro _stage_list_means(spec) %}
rw_list_means as (
    select
        {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_lists
        {%- for entry in spec.list_metrics %},
        avg(rw_value__{{ entry.position }}) as rw_value__{{ entry.position }},
        count(rw_value__{{ entry.position }}) as rw_n__{{ entry.position }},
        var_pop(rw_value__{{ entry.position }}) as rw_var__{{ entry.position }}
        {%- endfor %}
    from rw_list_popularity
    {{ rankwise._group_by_groups(spec.groups) }}
)
{%- endmacro %}
