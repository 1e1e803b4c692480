{#- Stages of the list-level metrics: an item-value metric averages a value of
    each recommended item over the list's top k; a metric with `pairs` (in the
    registry) averages a distance over the pairs of its top k
    (stage_list_diversity.sql). One GROUP BY of the top-k rows joined to the
    train popularity (stage_train_popularity.sql), for every metric and
    cutoff. -#}

{#- rw_list_values: per list, for each list-level metric and cutoff, its value
    (rw_value__p) and the items in the top k (rw_top__p). An item-value metric
    sums its items' values over the top k (rw_sum__p) and divides by their
    number, counted once per cutoff (rw_within__i) for every metric whose items
    all have a value, and per metric for those that read own_item_count (some
    of their items have no value); a pair metric's `pairs` macro divides its
    distance sum; a reference-list metric's value is its overlap with the
    reference list (stage_reference_overlap.sql); a profile metric's `profile`
    macro compares its item mean with its user's train profile
    (rw_train_profiles); a calibration metric's value is its list's divergence
    (stage_calibration.sql). A metric that reads shown_relevance reads each shown item's
    relevance off rw_interactions, the accuracy metrics' one row per (user,
    item). What an item-value metric's formula reads of an item besides its
    rank comes from the stages whose registry entry has `item_columns`, each
    joined to the recommended rows when a metric asked reads what it names
    (_item_column_joins). -#}
{% macro _stage_list_values(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set joined = rankwise._item_column_joins(spec) -%}
    {%- set columns = rankwise._updated({'rank': 'recommendation.rw_rank'}, joined.columns) -%}
    {%- set cutoffs = spec.list_metrics | map(attribute='k') | list -%}
    {%- set distinct_cutoffs = cutoffs | unique | list -%}
    {#- the metrics some of whose items have no value count their own -#}
    {%- set counts_own_items = [] -%}
    {%- for entry in spec.list_metrics if 'own_item_count' in entry.reads %}{% do counts_own_items.append(entry.position) %}{% endfor -%}
    {%- set items_within = {} -%}
    {%- for entry in spec.list_metrics -%}
        {%- do items_within.update({entry.position: 'sums.rw_top__' ~ entry.position if entry.position in counts_own_items
                                                    else 'sums.rw_within__' ~ (distinct_cutoffs.index(entry.k) + 1)}) -%}
    {%- endfor -%}
rw_list_values as (
    select
        {{ rankwise._selected_columns(spec.groups, 'sums') }}sums.rw_user as rw_user
        {%- for entry in spec.list_metrics %},
        {{ items_within[entry.position] }} as rw_top__{{ entry.position }},
        {%- if entry in spec.reference_metrics %}
        {#- a list whose user has no reference list has no overlap row -#}
        {{ 'coalesce(overlap.rw_value__' ~ entry.position ~ ', 0e0)' if spec.without_reference == 'zero' else 'overlap.rw_value__' ~ entry.position }} as rw_value__{{ entry.position }}
        {%- elif entry in spec.calibration_metrics %}
        {#- a list with no item within k has no distribution to compare -#}
        case when {{ items_within[entry.position] }} > 0 then calibration.rw_value__{{ entry.position }} end as rw_value__{{ entry.position }}
        {%- elif entry in spec.profile_metrics %}
        {%- set profile_columns = {'list_mean': rankwise.safe_divide('sums.rw_sum__' ~ entry.position, items_within[entry.position]),
                                   'profile_items': 'profile.rw_profile_items', 'profile_users': 'profile.rw_profile_users',
                                   'profile_interactions': 'profile.rw_profile_interactions'} %}
        {{ rankwise[registry[entry.name].profile](profile_columns, spec) }} as rw_value__{{ entry.position }}
        {%- elif entry in spec.pair_metrics %}
        {%- set pair_columns = {'distance_sum': 'diversity.rw_distance_sum__' ~ entry.position, 'pairs': 'diversity.rw_pairs__' ~ entry.position,
                                'n_items': items_within[entry.position]} %}
        {{ rankwise[registry[entry.name].pairs](pair_columns, spec) }} as rw_value__{{ entry.position }}
        {%- else %}
        {{ rankwise.safe_divide('sums.rw_sum__' ~ entry.position, items_within[entry.position]) }} as rw_value__{{ entry.position }}
        {%- endif %}
        {%- endfor %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user
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
        {%- for join in joined.joins %}
        {{ join }}
        {%- endfor %}
        {%- if none not in cutoffs %}
        where recommendation.rw_rank <= {{ cutoffs | max }}
        {%- endif %}
        group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
    ) as sums
    {#- the per-list stages of the metrics not summed over the items: one row
        per list (the train profiles one per user of a partition) -#}
    {%- for relation, alias, keys, metrics in [('rw_reference_overlap', 'overlap', spec.groups, spec.reference_metrics),
                                               ('rw_train_profiles', 'profile', spec.partitions, spec.profile_metrics),
                                               ('rw_calibration', 'calibration', spec.groups, spec.calibration_metrics),
                                               ('rw_list_diversity', 'diversity', spec.groups, spec.pair_metrics)]
          if metrics | length > 0 %}
    left join {{ relation }} as {{ alias }}
        on {{ alias }}.rw_user = sums.rw_user{{ rankwise._groups_match(alias, 'sums', keys) }}
    {%- endfor %}
)
{%- endmacro %}

{#- rw_list_means: per group, each list-level metric's mean over the lists with
    an item in the top k, their number and the values' population variance.
    The mean is not named as the values (rw_value__p): ClickHouse reads a name
    in a select list as the alias of that select when there is one, so the
    count and the variance would read the mean. -#}
{% macro _stage_list_means(spec) %}
rw_list_means as (
    select
        {{ rankwise._group_columns(spec.groups) }}count(*) as rw_n_lists
        {%- for entry in spec.list_metrics %},
        avg(rw_value__{{ entry.position }}) as rw_mean__{{ entry.position }},
        count(rw_value__{{ entry.position }}) as rw_n__{{ entry.position }},
        {{ rankwise._var_pop('rw_value__' ~ entry.position) }} as rw_var__{{ entry.position }}
        {%- endfor %}
    from rw_list_values
    {{ rankwise._group_by_groups(spec.groups) }}
)
{%- endmacro %}

{#- What the item-value metrics asked read of each recommended item: every
    planned stage whose registry entry has `item_columns` ({'when': a read,
    'alias', 'on': 'item', 'user_item', 'user' (the list's row, matched on
    every group column), 'partition' or 'all', 'columns': the macro naming its
    columns, columns(alias, spec), and optionally 'covers': a macro that says
    whether the stage answers the read for every item-value metric asked,
    covers(spec)}) and whose `when` one of those metrics reads, as the joins to
    rw_recommendations (`recommendation`) and the columns each adds for the
    formulas. A stage with `covers` is joined only when it answers the read,
    and then the other stages offering that read are not joined for it. -#}
{% macro _item_column_joins(spec) %}
    {%- set reads = [] -%}
    {%- for entry in spec.item_value_metrics %}{% do reads.extend(entry.reads) %}{% endfor -%}
    {%- set offering = [] -%}
    {%- set covered = [] -%}
    {%- for name in spec.stages -%}
        {%- set item_columns = spec.stage_plan[name].get('item_columns') -%}
        {%- if item_columns is not none and item_columns.when in reads -%}
            {%- set covers = none if item_columns.covers is not defined else rankwise[item_columns.covers](spec) -%}
            {%- do offering.append((name, covers)) -%}
            {%- if covers %}{% do covered.append(item_columns.when) %}{% endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set columns = {} -%}
    {%- set joins = [] -%}
    {#- a stage that can cover a read is joined when it does; the others when none does -#}
    {%- for name, covers in offering -%}
        {%- set stage = spec.stage_plan[name] -%}
        {%- set item_columns = stage.item_columns -%}
        {%- if covers or (covers is none and item_columns.when not in covered) -%}
            {%- set alias, on = item_columns.alias, item_columns.on -%}
            {%- do columns.update(rankwise[item_columns.columns](alias, spec)) -%}
            {%- if on == 'all' -%}
                {%- do joins.append('cross join ' ~ stage.cte ~ ' as ' ~ alias) -%}
            {%- elif on == 'user' -%}
                {%- do joins.append('left join ' ~ stage.cte ~ ' as ' ~ alias ~ '\n            on ' ~ alias ~ '.rw_user = recommendation.rw_user'
                                    ~ rankwise._groups_match(alias, 'recommendation', spec.groups)) -%}
            {%- else -%}
                {%- set keys = {'item': alias ~ '.rw_item = recommendation.rw_item',
                                'user_item': alias ~ '.rw_user = recommendation.rw_user and ' ~ alias ~ '.rw_item = recommendation.rw_item',
                                'partition': '1 = 1'}[on] -%}
                {%- do joins.append('left join ' ~ stage.cte ~ ' as ' ~ alias ~ '\n            on ' ~ keys
                                    ~ rankwise._partitions_match(alias, 'recommendation', spec)) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return({'columns': columns, 'joins': joins}) }}
{% endmacro %}

{#- The columns of the stages an item-value formula reads: the train
    popularity of the item (rw_train_items) and of its partition
    (rw_train_totals), the catalog's size, and whether the user's
    interactions hold the item as relevant. -#}
{% macro _train_item_columns(alias, spec) %}
    {{ return({'item_users': alias ~ '.rw_item_users', 'item_interactions': alias ~ '.rw_item_interactions',
               'in_head': alias ~ '.rw_in_head', 'popularity_rank': alias ~ '.rw_popularity_rank'}) }}
{% endmacro %}

{% macro _train_total_columns(alias, spec) %}
    {{ return({'train_users': alias ~ '.rw_train_users', 'train_interactions': alias ~ '.rw_train_interactions'}) }}
{% endmacro %}

{% macro _catalog_columns(alias, spec) %}
    {{ return({'catalog_size': alias ~ '.rw_catalog_size'}) }}
{% endmacro %}

{% macro _shown_relevance_columns(alias, spec) %}
    {%- set relevant = alias ~ '.rw_item is not null' if spec.relevance is none else rankwise._is_relevant(alias ~ '.rw_relevance', spec) -%}
    {{ return({'relevant': 'case when ' ~ relevant ~ ' then 1 else 0 end'}) }}
{% endmacro %}

{#- Whether a shown item is relevant, read off its list's relevant ranks
    (rw_list_bits, rank_bits.sql): the bit of its rank. Reading the list's one
    row replaces a second join of every recommended row to the interactions by
    (user, item), which the judged components' join has already made. -#}
{% macro _shown_relevance_bit_columns(alias, spec) %}
    {%- set relevant = '(' ~ alias ~ '.rw_relevant_ranks & ' ~ rankwise._rank_bit('recommendation.rw_rank') ~ ') <> 0' -%}
    {{ return({'relevant': 'case when ' ~ relevant ~ ' then 1 else 0 end'}) }}
{% endmacro %}

{#- Whether rw_list_bits holds every shown item's relevance that an item-value
    metric asked reads: each such metric's cutoff is within the ranks the bits
    hold (the largest cutoff of the per-user metrics). Their relevance is the
    shown items' (_shown_relevance_columns): without a relevance column every
    interaction is relevant, and the threshold is at most 1 (_resolved_options). -#}
{% macro _list_bits_hold_shown_relevance(spec) %}
    {%- set held = spec.cutoffs | reject('none') | list -%}
    {%- if held | length == 0 -%}
        {{ return(false) }}
    {%- endif -%}
    {%- for entry in spec.item_value_metrics if 'shown_relevance' in entry.reads and (entry.k is none or entry.k > held | max) -%}
        {{ return(false) }}
    {%- endfor -%}
    {{ return(true) }}
{% endmacro %}
