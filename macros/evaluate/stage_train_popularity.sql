{#- The train popularity the list-level metrics read: one GROUP BY of the train
    table for every metric and cutoff. With partition_by, the train table has
    the partition columns and each partition's popularity is its own. -#}

{#- rw_train_pairs: per (partition, user, item) of train, its rows;
    rw_train_item_counts: per (partition, item), its users and rows;
    rw_train_totals: per partition, the users and rows of train. Distinct users
    are counted as the rows of a GROUP BY, not with count(distinct) beside
    count(*): DuckDB plans that pair as two aggregates joined on the group keys,
    and the join's estimate then made the recommended rows the build side of
    their join to the items (docs/benchmarks.md, "Beyond accuracy"). -#}
{% macro _stage_train_pairs(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
rw_train_pairs as (
    select {{ partitions }}{{ spec.user }} as rw_user, {{ spec.item }} as rw_item, count(*) as rw_rows
    from {{ spec.train_relation }}
    group by {{ partitions }}{{ spec.user }}, {{ spec.item }}
)
{%- endmacro %}

{% macro _stage_train_item_counts(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
rw_train_item_counts as (
    select
        {{ partitions }}rw_item,
        count(*) as rw_item_users,
        sum(rw_rows) as rw_item_interactions
    from rw_train_pairs
    group by {{ partitions }}rw_item
)
{%- endmacro %}

{% macro _stage_train_totals(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
rw_train_totals as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'interactions') }}users.rw_train_users as rw_train_users,
        interactions.rw_train_interactions as rw_train_interactions
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
)
{%- endmacro %}

{#- rw_train_items: each item's popularity; with 'head' demanded, whether it
    is in the head: the most popular items that together hold head_share of the
    interactions. An item is in it when the items with more interactions than
    it hold less than that share; items tied with it add the same, so ties
    are all in or all out. The interactions of the items more popular: a
    running sum over ROWS ordered by interactions then item, less the tied
    items summed up to this one (this one's interactions times its number
    among its ties); a RANGE frame would say it at once, but Redshift has
    ROWS frames only (https://docs.aws.amazon.com/redshift/latest/dg/r_Window_function_synopsis.html).
    With 'popularity_rank' demanded, RecTools' popularity rank: items by
    interactions, most first, tied items sharing a rank (a dense rank). -#}
{% macro _stage_train_items(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
    {%- set over_partition = 'partition by ' ~ spec.partitions | join(', ') if spec.partitions | length > 0 else '' -%}
    {%- set head = 'head' in spec.demands -%}
    {%- set popularity_rank = 'popularity_rank' in spec.demands -%}
rw_train_items as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'counts') }}counts.rw_item as rw_item,
        counts.rw_item_users as rw_item_users,
        counts.rw_item_interactions as rw_item_interactions
        {%- if head %},
        case when counts.rw_more_popular < {{ rankwise._number_literal('evaluate', 'head_share', spec.head_share) }} * totals.rw_train_interactions
             then 1 else 0 end as rw_in_head
        {%- endif %}
        {%- if popularity_rank %},
        counts.rw_popularity_rank as rw_popularity_rank
        {%- endif %}
    from (
        select
            {{ partitions }}rw_item,
            rw_item_users,
            rw_item_interactions
            {%- if head %},
            sum(rw_item_interactions) over (
                {{ over_partition }}
                order by rw_item_interactions desc, rw_item rows between unbounded preceding and current row
            ) - rw_item_interactions * row_number() over (partition by {{ partitions }}rw_item_interactions order by rw_item) as rw_more_popular
            {%- endif %}
            {%- if popularity_rank %},
            dense_rank() over ({{ over_partition }} order by rw_item_interactions desc) as rw_popularity_rank
            {%- endif %}
        from rw_train_item_counts
    ) as counts
    {%- if head %}
    inner join rw_train_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'counts', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- rw_train_profiles: per (partition, user) of train, the user's distinct
    train items and the sums of their popularity counts (users, rows), from the
    pairs and item counts the popularity already grouped: no second read of
    train. popularity_lift divides the list's mean popularity by the profile's
    (each train item of the user counts once, as Abdollahpouri et al. average
    over the user's profile). -#}
{% macro _stage_train_profiles(spec) %}
rw_train_profiles as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'pair') }}pair.rw_user as rw_user,
        count(*) as rw_profile_items,
        sum(item.rw_item_users) as rw_profile_users,
        sum(item.rw_item_interactions) as rw_profile_interactions
    from rw_train_pairs as pair
    inner join rw_train_item_counts as item
        on item.rw_item = pair.rw_item{{ rankwise._partitions_match('item', 'pair', spec) }}
    group by {{ rankwise._partition_columns(spec, 'pair') }}pair.rw_user
)
{%- endmacro %}
