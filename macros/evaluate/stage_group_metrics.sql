{#- Stages of the group-level metrics: how often each item fills a top-k slot in
    its group, its share of those slots, and the metrics per group from
    aggregates over the group's items (each metric's `aggregates` in the
    registry): one GROUP BY of the recommendations, none per metric. -#}

{#- rw_item_exposures: per (group, item), its top-k slots at every cutoff at
    once; for the metrics of browsing_exposure, the sum of those slots' weights
    under exposure_model (rankwise.rank_exposure) instead of their count. -#}
{% macro _stage_item_exposures(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
rw_item_exposures as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_item
        {%- for entry in spec.group_metrics %},
        {%- if registry[entry.name].get('browsing_exposure') %}
        sum(case when {{ rankwise._within_cutoff('rw_rank', entry.k) }} then {{ rankwise.rank_exposure('rw_rank', spec.exposure_model, spec.exposure_persistence) }} else 0e0 end) as rw_exposures__{{ entry.position }}
        {%- else %}
        count(case when {{ rankwise._within_cutoff('rw_rank', entry.k) }} then 1 end) as rw_exposures__{{ entry.position }}
        {%- endif %}
        {%- endfor %}
    from rw_recommendations
    group by {{ rankwise._group_columns(spec.groups) }}rw_item
)
{%- endmacro %}

{#- rw_item_shares: per (group, item), its top-k slots and their share of the
    group's; for the metrics that read item_order, the item's place when the
    group's items are numbered in ascending order of their slots. -#}
{% macro _stage_item_shares(spec) %}
    {%- set over_group = 'over (' ~ ('partition by ' ~ spec.groups | join(', ') if spec.groups | length > 0 else '') ~ ')' -%}
rw_item_shares as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_item
        {%- for entry in spec.group_metrics %},
        rw_exposures__{{ entry.position }},
        {{ rankwise.safe_divide('rw_exposures__' ~ entry.position, 'sum(rw_exposures__' ~ entry.position ~ ') ' ~ over_group) }} as rw_share__{{ entry.position }}
        {%- if 'item_order' in entry.reads %},
        row_number() over ({{ 'partition by ' ~ spec.groups | join(', ') if spec.groups | length > 0 else '' }} order by rw_exposures__{{ entry.position }} asc) as rw_ascending__{{ entry.position }}
        {%- endif %}
        {%- endfor %}
    from rw_item_exposures
)
{%- endmacro %}

{#- rw_train_item_set: the distinct items of train, per partition: coverage's
    catalog for the metrics that read train_item_set (registry `reads`). -#}
{% macro _stage_train_item_set(spec) %}
rw_train_item_set as (
    select distinct {{ rankwise._partition_columns(spec) }}{{ spec.item }} as rw_item
    from {{ spec.train_relation }}
)
{%- endmacro %}

{#- rw_catalog: the number of items in the catalog (evaluate's `items`). -#}
{% macro _stage_catalog(spec) %}
rw_catalog as (
    select count(distinct {{ spec.item }}) as rw_catalog_size
    from {{ spec.items_relation }}
)
{%- endmacro %}

{#- The aggregates of one group-level metric over its group's items, as
    (column, SQL) pairs (its registry entry's `aggregates`); its formula reads
    them by name. `share` names the column of each item's share of the slots. -#}
{% macro _group_aggregates(entry, spec, share='rw_share__' ~ entry.position) %}
    {%- set items = {'exposures': 'rw_exposures__' ~ entry.position, 'share': share,
                     'ascending': 'rw_ascending__' ~ entry.position, 'in_train': 'train_item.rw_item is not null'} -%}
    {{ return(rankwise[rankwise._metric_registry()[entry.name].aggregates](items, spec)) }}
{% endmacro %}

{#- rw_group_metrics: per group, each group-level metric from its aggregates over
    the group's items, the number of lists, and the catalog's size. -#}
{% macro _stage_group_metrics(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
rw_group_metrics as (
    select
        {{ rankwise._selected_columns(spec.groups, 'aggregates') }}lists.rw_n_users as rw_n_users
        {%- for entry in spec.group_metrics %}
        {%- set columns = {'n_items': 'aggregates.rw_n_items', 'n_lists': 'lists.rw_n_users', 'catalog_size': 'catalog.rw_catalog_size',
                           'train_items': 'train_catalog.rw_n_train_items', 'item_group_disparity': 'disparity.rw_disparity__' ~ entry.position} -%}
        {%- for name, sql in rankwise._group_aggregates(entry, spec) %}{% do columns.update({name: 'aggregates.rw_' ~ name ~ '__' ~ entry.position}) %}{% endfor %},
        cast({{ rankwise[registry[entry.name].formula](columns, entry.k, spec) }} as {{ rankwise.type_float64() }}) as rw_value__{{ entry.position }}
        {%- endfor %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'rw_item_shares') }}count(*) as rw_n_items
            {%- for entry in spec.group_metrics %}
            {%- for name, sql in rankwise._group_aggregates(entry, spec) %},
            {{ sql }} as rw_{{ name }}__{{ entry.position }}
            {%- endfor %}
            {%- endfor %}
        from rw_item_shares
        {%- if rankwise._planned(spec, 'train_item_set') %}
        left join rw_train_item_set as train_item
            on train_item.rw_item = rw_item_shares.rw_item{{ rankwise._partitions_match('train_item', 'rw_item_shares', spec) }}
        {%- endif %}
        {{ rankwise._group_by_groups(spec.groups, 'rw_item_shares') }}
    ) as aggregates
    inner join (
        select {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_users
        from rw_list_rows
        {{ rankwise._group_by_groups(spec.groups) }}
    ) as lists
        on 1 = 1{{ rankwise._groups_match('aggregates', 'lists', spec.groups) }}
    {%- if rankwise._planned(spec, 'catalog') %}
    cross join rw_catalog as catalog
    {%- endif %}
    {%- if rankwise._planned(spec, 'item_group_disparity') %}
    left join rw_item_group_disparity as disparity
        on 1 = 1{{ rankwise._groups_match('disparity', 'aggregates', spec.groups) }}
    {%- endif %}
    {%- if rankwise._planned(spec, 'train_item_set') %}
    left join (
        select {{ rankwise._partition_columns(spec) }}count(*) as rw_n_train_items
        from rw_train_item_set
        {{ rankwise._group_by_groups(spec.partitions) }}
    ) as train_catalog
        on 1 = 1{{ rankwise._partitions_match('train_catalog', 'aggregates', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- The bootstrap interval of each group-level metric (evaluate's
    bootstrap_resamples): the users of each partition with a list, numbered in
    byte order of their ids (rw_bootstrap_user_keys); per resample, every top-k slot
    weighted by its user's Poisson(1) count (rankwise.poisson_one_weight of
    rankwise.resample_draw, the same on every engine), the metric recomputed
    from the weighted shares, and its percentile interval over the resamples
    (rw_group_intervals). It costs one row per (top-k slot, resample). -#}
{% macro _stage_bootstrap_user_keys(spec) %}
    {{ return(rankwise._user_keys_cte('rw_bootstrap_user_keys', '(select distinct ' ~ rankwise._partition_columns(spec) ~ 'rw_user from rw_list_rows)', spec)) }}
{% endmacro %}

{% macro _stage_group_resamples(spec) %}
rw_group_resamples as (
    select rw_position as rw_resample from {{ rankwise._positions(spec.group_bootstrap) }} as rw_positions
)
{%- endmacro %}

{% macro _stage_resampled_exposures(spec) %}
rw_resampled_exposures as (
    select
        {{ rankwise._selected_columns(spec.groups, 'weighted') }}weighted.rw_item as rw_item, weighted.rw_resample as rw_resample
        {%- for entry in spec.group_metrics %},
        sum(case when {{ rankwise._within_cutoff('weighted.rw_rank', entry.k) }} then weighted.rw_weight end) as rw_exposures__{{ entry.position }}
        {%- endfor %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'drawn') }}drawn.rw_item as rw_item, drawn.rw_rank as rw_rank, drawn.rw_resample as rw_resample,
            {{ rankwise.poisson_one_weight('drawn.rw_draw') }} as rw_weight
        from (
            select
                {{ rankwise._selected_columns(spec.groups, 'slots') }}slots.rw_item as rw_item, slots.rw_rank as rw_rank, resample.rw_resample as rw_resample,
                {{ rankwise.resample_draw('keys.rw_user_key', 'resample.rw_resample', spec.seed) }} as rw_draw
            from rw_recommendations as slots
            inner join rw_bootstrap_user_keys as keys
                on keys.rw_user = slots.rw_user{{ rankwise._partitions_match('keys', 'slots', spec) }}
            cross join rw_group_resamples as resample
        ) as drawn
    ) as weighted
    group by {{ rankwise._group_columns(spec.groups, 'weighted') }}weighted.rw_item, weighted.rw_resample
)
{%- endmacro %}

{% macro _stage_group_intervals(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set tail = (1.0 - spec.confidence) / 2.0 -%}
rw_group_intervals as (
    select
        {{ rankwise._selected_columns(spec.groups, 'resampled') }}count(*) as rw_n_resamples
        {%- for entry in spec.group_metrics %},
        {{ rankwise._percentile('resampled.rw_value__' ~ entry.position, tail) }} as rw_low__{{ entry.position }},
        {{ rankwise._percentile('resampled.rw_value__' ~ entry.position, 1.0 - tail) }} as rw_high__{{ entry.position }}
        {%- endfor %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'shares') }}shares.rw_resample as rw_resample
            {%- for entry in spec.group_metrics %}
            {%- set columns = {} %}
            {%- for name, sql in rankwise._group_aggregates(entry, spec, 'shares.rw_share__' ~ entry.position) %}{% do columns.update({name: sql}) %}{% endfor %},
            cast({{ rankwise[registry[entry.name].formula](columns, entry.k, spec) }} as {{ rankwise.type_float64() }}) as rw_value__{{ entry.position }}
            {%- endfor %}
        from (
            select
                {{ rankwise._group_columns(spec.groups) }}rw_resample
                {%- for entry in spec.group_metrics %},
                {{ rankwise.safe_divide('rw_exposures__' ~ entry.position, 'sum(rw_exposures__' ~ entry.position ~ ') over (partition by ' ~ rankwise._group_columns(spec.groups) ~ 'rw_resample)') }} as rw_share__{{ entry.position }}
                {%- endfor %}
            from rw_resampled_exposures
        ) as shares
        group by {{ rankwise._group_columns(spec.groups, 'shares') }}shares.rw_resample
    ) as resampled
    {{ rankwise._group_by_groups(spec.groups, 'resampled') }}
)
{%- endmacro %}
