{#- Stages of the list-level metrics: novelty, arp, long_tail_share and
    serendipity average a value of each recommended item over the list's top k;
    intra_list_diversity averages a distance over the pairs of its top k
    (stage_list_diversity.sql). One GROUP BY of the train table and one of the
    top-k rows joined to it, for every metric and cutoff. With partition_by, the
    train table has the partition columns and each partition's popularity is
    its own. -#}

{#- rw_train_pairs: per (partition, user, item) of train, its rows;
    rw_train_item_counts: per (partition, item), its users and rows;
    rw_train_totals: per partition, the users and rows of train. Distinct users
    are counted as the rows of a GROUP BY, not with count(distinct) beside
    count(*): DuckDB plans that pair as two aggregates joined on the group keys,
    and the join's estimate then made the 20M recommended rows the build side
    of their join to the 50k items (4 s and 7 GB at 1M users). -#}
{% macro _stage_train_popularity(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
    {%- set over_partition = 'partition by ' ~ spec.partitions | join(', ') if spec.partitions | length > 0 else '' -%}
rw_train_pairs as (
    select {{ partitions }}{{ spec.user }} as rw_user, {{ spec.item }} as rw_item, count(*) as rw_rows
    from {{ spec.train_relation }}
    group by {{ partitions }}{{ spec.user }}, {{ spec.item }}
),

rw_train_item_counts as (
    select
        {{ partitions }}rw_item,
        count(*) as rw_item_users,
        sum(rw_rows) as rw_item_interactions
    from rw_train_pairs
    group by {{ partitions }}rw_item
),

rw_train_totals as (
    select
        {{ rankwise._group_columns(spec.partitions, 'interactions') }}users.rw_train_users,
        interactions.rw_train_interactions
    from (
        select {{ partitions }}sum(rw_item_interactions) as rw_train_interactions
        from rw_train_item_counts
        {{ rankwise._group_by_groups(spec.partitions) }}
    ) as interactions
    inner join (
        select {{ partitions }}count(*) as rw_train_users
        from (select distinct {{ partitions }}rw_user from rw_train_pairs) as train_users
        {{ rankwise._group_by_groups(spec.partitions) }}
    ) as users
        on 1 = 1{{ rankwise._partitions_match('users', 'interactions', spec) }}
),

{#- The head: the most popular items that together hold head_share of the
    interactions. An item is in it when the items with more interactions than
    it hold less than that share; items tied with it add the same, so ties
    are all in or all out. The popularity rank is RecTools': items by
    interactions, most first, tied items sharing a rank (a dense rank). -#}
rw_train_items as (
    select
        {{ rankwise._group_columns(spec.partitions, 'counts') }}counts.rw_item,
        counts.rw_item_users,
        counts.rw_item_interactions
        {%- if spec.needs_head %},
        case when counts.rw_more_popular < {{ rankwise._number_literal('evaluate', 'head_share', spec.head_share) }} * totals.rw_train_interactions
             then 1 else 0 end as rw_in_head
        {%- endif %}
        {%- if spec.needs_serendipity %},
        counts.rw_popularity_rank
        {%- endif %}
    from (
        select
            {{ partitions }}rw_item,
            rw_item_users,
            rw_item_interactions
            {%- if spec.needs_head %},
            sum(rw_item_interactions) over (
                {{ over_partition }}
                order by rw_item_interactions desc range between unbounded preceding and current row
            ) - rw_item_interactions * count(*) over (partition by {{ partitions }}rw_item_interactions) as rw_more_popular
            {%- endif %}
            {%- if spec.needs_serendipity %},
            dense_rank() over ({{ over_partition }} order by rw_item_interactions desc) as rw_popularity_rank
            {%- endif %}
        from rw_train_item_counts
    ) as counts
    {%- if spec.needs_head %}
    inner join rw_train_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'counts', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- rw_list_values: per list, for each list-level metric and cutoff, its value
    (rw_value__p) and the items in the top k (rw_top__p). An item-value metric
    sums its items' values over the top k (rw_sum__p) and divides by their
    number, counted once per cutoff (rw_within__i) for every metric whose items
    all have a value, and per metric for novelty with novelty_unseen='dropped',
    whose unseen items have none; intra_list_diversity divides its distance
    sum over the pairs by the pairs, or by the items with
    diversity_denominator='list_length'. Serendipity reads each shown item's
    relevance off rw_interactions, the accuracy metrics' one row per (user,
    item). -#}
{% macro _stage_list_values(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set columns = {
        'item_users': 'train_item.rw_item_users',
        'item_interactions': 'train_item.rw_item_interactions',
        'train_users': 'totals.rw_train_users',
        'train_interactions': 'totals.rw_train_interactions',
        'in_head': 'train_item.rw_in_head',
        'popularity_rank': 'train_item.rw_popularity_rank',
        'rank': 'recommendation.rw_rank',
        'catalog_size': 'catalog.rw_catalog_size',
        'relevant': 'case when ' ~ ('truth.rw_item is not null' if spec.relevance is none else rankwise._is_relevant('truth.rw_relevance', spec)) ~ ' then 1 else 0 end',
    } -%}
    {%- set cutoffs = spec.list_metrics | map(attribute='k') | list -%}
    {%- set distinct_cutoffs = cutoffs | unique | list -%}
    {#- the metrics some of whose items have no value count their own -#}
    {%- set counts_own_items = spec.list_metrics | selectattr('name', 'equalto', 'novelty') | map(attribute='position') | list
                               if spec.novelty_unseen == 'dropped' else [] -%}
    {%- set items_within = {} -%}
    {%- for entry in spec.list_metrics -%}
        {%- do items_within.update({entry.position: 'sums.rw_top__' ~ entry.position if entry.position in counts_own_items
                                                    else 'sums.rw_within__' ~ (distinct_cutoffs.index(entry.k) + 1)}) -%}
    {%- endfor -%}
rw_list_values as (
    select
        {{ rankwise._group_columns(spec.groups, 'sums') }}sums.rw_user
        {%- for entry in spec.list_metrics %},
        {{ items_within[entry.position] }} as rw_top__{{ entry.position }},
        {%- if entry.name == 'intra_list_diversity' %}
        {%- if spec.diversity_denominator == 'list_length' %}
        {#- a list of one item has no pair: 0 over its one item -#}
        {{ rankwise.safe_divide('coalesce(diversity.rw_distance_sum__' ~ entry.position ~ ', 0e0)', items_within[entry.position]) }} as rw_value__{{ entry.position }}
        {%- else %}
        {#- a list of one item has no pair, and no value -#}
        {{ rankwise.safe_divide('diversity.rw_distance_sum__' ~ entry.position, 'diversity.rw_pairs__' ~ entry.position) }} as rw_value__{{ entry.position }}
        {%- endif %}
        {%- else %}
        {{ rankwise.safe_divide('sums.rw_sum__' ~ entry.position, items_within[entry.position]) }} as rw_value__{{ entry.position }}
        {%- endif %}
        {%- endfor %}
    from (
        select
            {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
            {%- for cutoff in distinct_cutoffs %},
            count(case when {{ rankwise._within_cutoff('recommendation.rw_rank', cutoff) }} then 1 end) as rw_within__{{ loop.index }}
            {%- endfor %}
            {%- for entry in spec.item_value_metrics %}
            {%- set value = rankwise[registry[entry.name].formula](columns, entry.k, spec) %}
            {%- if entry.position in counts_own_items %},
            {#- an unseen item has no value, and is not counted -#}
            count(case when {{ rankwise._within_cutoff('recommendation.rw_rank', entry.k) }} then {{ value }} end) as rw_top__{{ entry.position }}
            {%- endif %},
            sum(case when {{ rankwise._within_cutoff('recommendation.rw_rank', entry.k) }} then {{ value }} end) as rw_sum__{{ entry.position }}
            {%- endfor %}
        from rw_recommendations as recommendation
        {%- if spec.item_value_metrics | length > 0 %}
        left join rw_train_items as train_item
            on train_item.rw_item = recommendation.rw_item{{ rankwise._partitions_match('train_item', 'recommendation', spec) }}
        left join rw_train_totals as totals
            on 1 = 1{{ rankwise._partitions_match('totals', 'recommendation', spec) }}
        {%- endif %}
        {%- if spec.needs_serendipity %}
        cross join rw_catalog as catalog
        left join rw_interactions as truth
            on truth.rw_user = recommendation.rw_user and truth.rw_item = recommendation.rw_item{{ rankwise._partitions_match('truth', 'recommendation', spec) }}
        {%- endif %}
        {%- if none not in cutoffs %}
        where recommendation.rw_rank <= {{ cutoffs | max }}
        {%- endif %}
        group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
    ) as sums
    {%- if spec.diversity_metrics | length > 0 %}
    left join rw_list_diversity as diversity
        on diversity.rw_user = sums.rw_user{{ rankwise._groups_match('diversity', 'sums', spec.groups) }}
    {%- endif %}
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
    from rw_list_values
    {{ rankwise._group_by_groups(spec.groups) }}
)
{%- endmacro %}
