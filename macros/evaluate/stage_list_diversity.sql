{#- Stages of the pair metrics (intra_list_diversity): every unordered pair of items within the
    largest cutoff of each list (one self-join of the top-k rows), each pair's
    distance, and per list the distances summed over the pairs within each
    cutoff. A pair is within k when both its items are, so the pair's cutoff is
    the larger of their ranks. The distance reads the catalog's vectors or
    features (item_distance 'cosine' or 'hamming'), or how many train users two
    items share ('cooccurrence'). -#}
{#- rw_list_pairs: per list, each unordered pair of its items (the smaller id
    first) and the larger of their ranks. -#}
{% macro _stage_list_pairs(spec) %}
    {%- set cutoffs = spec.pair_metrics | map(attribute='k') | list -%}
rw_list_pairs as (
    select
        {{ rankwise._selected_columns(spec.groups, 'first_item') }}first_item.rw_user as rw_user,
        first_item.rw_item as rw_first_item,
        second_item.rw_item as rw_second_item,
        case when first_item.rw_rank >= second_item.rw_rank then first_item.rw_rank else second_item.rw_rank end as rw_pair_rank
    from rw_recommendations as first_item
    inner join rw_recommendations as second_item
        on second_item.rw_user = first_item.rw_user{{ rankwise._groups_match('second_item', 'first_item', spec.groups) }}
        and first_item.rw_item < second_item.rw_item
    {%- if none not in cutoffs %}
    where first_item.rw_rank <= {{ cutoffs | max }} and second_item.rw_rank <= {{ cutoffs | max }}
    {%- endif %}
)
{%- endmacro %}

{#- rw_item_features: per catalog item, the columns its distance reads, with
    the norm of its vector for 'cosine'. -#}
{% macro _stage_item_features(spec) %}
    {%- set float = rankwise.type_float64() -%}
rw_item_features as (
    select
        {{ spec.item }} as rw_item
        {%- if spec.item_vector is not none %},
        {{ spec.item_vector }} as rw_vector,
        sqrt({{ rankwise.vector_dot_product(spec.item_vector, spec.item_vector) }}) as rw_norm
        {%- else %}
        {%- for column in spec.item_features %},
        {{ 'cast(' ~ column ~ ' as ' ~ float ~ ')' if spec.item_distance == 'cosine' else column }} as rw_feature__{{ loop.index }}
        {%- endfor %}
        {%- if spec.item_distance == 'cosine' %},
        sqrt({{ rankwise._feature_dot_product(spec, none, none, true) }}) as rw_norm
        {%- endif %}
        {%- endif %}
    from {{ spec.items_relation }}
)
{%- endmacro %}

{#- The dot product of two items' feature columns (`first` and `second` the
    aliases; with `cast`, of one item's own columns, unqualified and cast). -#}
{% macro _feature_dot_product(spec, first, second, cast=false) %}
    {%- set terms = [] -%}
    {%- for column in spec.item_features -%}
        {%- if cast -%}
            {%- set value = 'cast(' ~ column ~ ' as ' ~ rankwise.type_float64() ~ ')' -%}
            {%- do terms.append(value ~ ' * ' ~ value) -%}
        {%- else -%}
            {%- do terms.append(first ~ '.rw_feature__' ~ loop.index ~ ' * ' ~ second ~ '.rw_feature__' ~ loop.index) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return('(' ~ terms | join(' + ') ~ ')') }}
{% endmacro %}

{#- rw_pair_cooccurrence: per (partition, pair of items recommended together),
    the train users who interacted with both. Only the pairs some list holds
    are counted: each train user's items are paired only where a list pairs
    them. -#}
{% macro _stage_pair_cooccurrence(spec) %}
    {%- set partitions = rankwise._partition_columns(spec) -%}
rw_pair_cooccurrence as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'pairs') }}pairs.rw_first_item as rw_first_item,
        pairs.rw_second_item as rw_second_item,
        count(*) as rw_users_of_both
    from (
        select distinct {{ partitions }}rw_first_item, rw_second_item
        from rw_list_pairs
    ) as pairs
    inner join rw_train_pairs as first_train
        on first_train.rw_item = pairs.rw_first_item{{ rankwise._partitions_match('first_train', 'pairs', spec) }}
    inner join rw_train_pairs as second_train
        on second_train.rw_user = first_train.rw_user and second_train.rw_item = pairs.rw_second_item{{ rankwise._partitions_match('second_train', 'pairs', spec) }}
    group by {{ rankwise._group_columns(spec.partitions, 'pairs') }}pairs.rw_first_item, pairs.rw_second_item
)
{%- endmacro %}

{#- rw_list_diversity: per list, for each pair metric and cutoff, the
    pairs within it and the sum of their distances. -#}
{% macro _stage_list_diversity(spec) %}
    {%- set first, second = 'first_features', 'second_features' -%}
    {%- if spec.item_distance == 'cooccurrence' -%}
        {%- set columns = {'users_of_both': 'cooccurrence.rw_users_of_both', 'users_of_first': 'first_train.rw_item_users',
                           'users_of_second': 'second_train.rw_item_users'} -%}
    {%- elif spec.item_distance == 'hamming' -%}
        {%- set first_columns, second_columns = [], [] -%}
        {%- for column in spec.item_features -%}
            {%- do first_columns.append(first ~ '.rw_feature__' ~ loop.index) -%}
            {%- do second_columns.append(second ~ '.rw_feature__' ~ loop.index) -%}
        {%- endfor -%}
        {%- set columns = {'first_features': first_columns, 'second_features': second_columns} -%}
    {%- else -%}
        {%- set dot = rankwise.vector_dot_product(first ~ '.rw_vector', second ~ '.rw_vector') if spec.item_vector is not none
                      else rankwise._feature_dot_product(spec, first, second) -%}
        {%- set columns = {'dot_product': dot, 'first_norm': first ~ '.rw_norm', 'second_norm': second ~ '.rw_norm'} -%}
    {%- endif -%}
    {%- set registry = rankwise._metric_registry() -%}
rw_list_diversity as (
    select
        {{ rankwise._selected_columns(spec.groups, 'pairs') }}pairs.rw_user as rw_user
        {%- for entry in spec.pair_metrics %}
        {%- set distance = rankwise[registry[entry.name].formula](columns, entry.k, spec) %},
        count(case when {{ rankwise._within_cutoff('pairs.rw_pair_rank', entry.k) }} then 1 end) as rw_pairs__{{ entry.position }},
        sum(case when {{ rankwise._within_cutoff('pairs.rw_pair_rank', entry.k) }} then {{ distance }} end) as rw_distance_sum__{{ entry.position }}
        {%- endfor %}
    from rw_list_pairs as pairs
    {%- if spec.item_distance == 'cooccurrence' %}
    left join rw_pair_cooccurrence as cooccurrence
        on cooccurrence.rw_first_item = pairs.rw_first_item and cooccurrence.rw_second_item = pairs.rw_second_item{{ rankwise._partitions_match('cooccurrence', 'pairs', spec) }}
    left join rw_train_items as first_train
        on first_train.rw_item = pairs.rw_first_item{{ rankwise._partitions_match('first_train', 'pairs', spec) }}
    left join rw_train_items as second_train
        on second_train.rw_item = pairs.rw_second_item{{ rankwise._partitions_match('second_train', 'pairs', spec) }}
    {%- else %}
    inner join rw_item_features as {{ first }}
        on {{ first }}.rw_item = pairs.rw_first_item
    inner join rw_item_features as {{ second }}
        on {{ second }}.rw_item = pairs.rw_second_item
    {%- endif %}
    group by {{ rankwise._group_columns(spec.groups, 'pairs') }}pairs.rw_user
)
{%- endmacro %}
