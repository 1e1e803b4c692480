{#- Stages of the metrics that compare a list with the reference model's list of
    the same user (rbo, intersection): the reference list is the one whose
    model column holds `reference` and whose other groups are the list's. Both
    lists are cut at each cutoff asked; a shared item's depth is the larger of
    its two ranks, and it is shared within k when that depth is. -#}
{#- The groups but the model column: those a list and its reference list share. -#}
{% macro _groups_but_model(spec) %}
    {{ return(spec.groups | reject('equalto', spec.model) | list) }}
{% endmacro %}

{#- rw_overlap_weights: per depth d up to the largest cutoff, for each
    persistence p asked (rw_weight__i, the i-th), the running sum of p^j / j over
    j = 1..d: RBO_ext's weights, summed once for every list. -#}
{% macro _stage_overlap_weights(spec) %}
rw_overlap_weights as (
    select
        rw_position as rw_depth
        {%- for p in spec.overlap_persistences %},
        sum({{ rankwise._overlap_depth_weight('rw_position', p) }}) over (order by rw_position rows between unbounded preceding and current row) as rw_weight__{{ loop.index }}
        {%- endfor %}
    from {{ rankwise._positions(spec.reference_cutoffs | max) }} as rw_depths
)
{%- endmacro %}

{#- rw_reference_depths: per list and cutoff, its depth (the largest rank within
    the cutoff) and its items within it. -#}
{% macro _stage_reference_depths(spec) %}
    {%- set rows = [] -%}
    {%- for cutoff in spec.reference_cutoffs %}{% do rows.append([cutoff]) %}{% endfor -%}
rw_reference_depths as (
    select
        {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
        cutoff.rw_k as rw_k,
        max(recommendation.rw_rank) as rw_depth,
        cast(count(*) as bigint) as rw_n_items
    from rw_recommendations as recommendation
    inner join ({{ rankwise._literal_rows(['rw_k'], rows) }}) as cutoff
        on recommendation.rw_rank <= cutoff.rw_k
    group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user, cutoff.rw_k
)
{%- endmacro %}

{#- rw_reference_pairs: per list whose user has a reference list, and cutoff:
    the shorter and the longer of the two depths, and the list's items. -#}
{% macro _stage_reference_pairs(spec) %}
rw_reference_pairs as (
    select
        {{ rankwise._selected_columns(spec.groups, 'list') }}list.rw_user as rw_user,
        list.rw_k as rw_k,
        case when list.rw_depth <= reference.rw_depth then list.rw_depth else reference.rw_depth end as rw_short_depth,
        case when list.rw_depth <= reference.rw_depth then reference.rw_depth else list.rw_depth end as rw_long_depth,
        list.rw_n_items as rw_n_items
    from rw_reference_depths as list
    inner join (
        select * from rw_reference_depths where {{ spec.model }} = {{ spec.reference_value }}
    ) as reference
        on reference.rw_user = list.rw_user and reference.rw_k = list.rw_k{{ rankwise._groups_match('reference', 'list', rankwise._groups_but_model(spec)) }}
)
{%- endmacro %}

{#- rw_reference_shared: per list, cutoff and item the list shares with its
    reference list within the cutoff: the item's depth, and the depth the
    weights of RBO_ext run to for it (the shorter depth for an item within it,
    the longer for any other). -#}
{% macro _stage_reference_shared(spec) %}
rw_reference_shared as (
    select
        {{ rankwise._selected_columns(spec.groups, 'pair') }}pair.rw_user as rw_user,
        pair.rw_k as rw_k,
        shared.rw_shared_depth as rw_shared_depth,
        shared.rw_shared_depth - 1 as rw_depth_before,
        case when shared.rw_shared_depth <= pair.rw_short_depth then 1 else 0 end as rw_within_short,
        case when shared.rw_shared_depth <= pair.rw_short_depth then pair.rw_short_depth else pair.rw_long_depth end as rw_tail_end
    from rw_reference_pairs as pair
    inner join (
        select
            {{ rankwise._selected_columns(spec.groups, 'list') }}list.rw_user as rw_user,
            case when list.rw_rank >= reference.rw_rank then list.rw_rank else reference.rw_rank end as rw_shared_depth
        from rw_recommendations as list
        inner join (
            select * from rw_recommendations
            where {{ spec.model }} = {{ spec.reference_value }} and rw_rank <= {{ spec.reference_cutoffs | max }}
        ) as reference
            on reference.rw_user = list.rw_user and reference.rw_item = list.rw_item{{ rankwise._groups_match('reference', 'list', rankwise._groups_but_model(spec)) }}
        where list.rw_rank <= {{ spec.reference_cutoffs | max }}
    ) as shared
        on shared.rw_user = pair.rw_user{{ rankwise._groups_match('shared', 'pair', spec.groups) }}
    where shared.rw_shared_depth <= pair.rw_k
)
{%- endmacro %}

{#- rw_reference_overlap: per list whose user has a reference list, the value of
    each reference-list metric (rw_value__<position>), from its cutoff's pair
    and shared items. -#}
{% macro _stage_reference_overlap(spec) %}
    {%- set registry = rankwise._metric_registry() -%}
rw_reference_overlap as (
    select
        {{ rankwise._selected_columns(spec.groups, 'pair') }}pair.rw_user as rw_user
        {%- for entry in spec.reference_metrics %}
        {%- set at_cutoff = rankwise._at_reference_cutoff -%}
        {%- set columns = {'common': at_cutoff(entry.k, 'coalesce(shared.rw_common, 0)'),
                           'common_within_short': at_cutoff(entry.k, 'coalesce(shared.rw_common_within_short, 0)'),
                           'short_depth': at_cutoff(entry.k, 'pair.rw_short_depth'),
                           'long_depth': at_cutoff(entry.k, 'pair.rw_long_depth'),
                           'n_items': at_cutoff(entry.k, 'pair.rw_n_items')} %}
        {%- if entry.parameters.p is defined %}
        {%- do columns.update({'weight_tail': at_cutoff(entry.k, 'coalesce(shared.rw_weight_tail__' ~ (spec.overlap_persistences.index(entry.parameters.p) + 1) ~ ', 0e0)')}) %}
        {%- endif %},
        {{ rankwise[registry[entry.name].reference](columns, spec, entry.parameters) }} as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_reference_pairs as pair
    left join (
        select
            {{ rankwise._selected_columns(spec.groups, 'shared') }}shared.rw_user as rw_user,
            shared.rw_k as rw_k,
            cast(count(*) as bigint) as rw_common,
            cast(sum(shared.rw_within_short) as bigint) as rw_common_within_short
            {%- for p in spec.overlap_persistences %},
            sum(tail_end.rw_weight__{{ loop.index }} - coalesce(before.rw_weight__{{ loop.index }}, 0e0)) as rw_weight_tail__{{ loop.index }}
            {%- endfor %}
        from rw_reference_shared as shared
        {%- if spec.overlap_persistences | length > 0 %}
        inner join rw_overlap_weights as tail_end
            on tail_end.rw_depth = shared.rw_tail_end
        left join rw_overlap_weights as before
            on before.rw_depth = shared.rw_depth_before
        {%- endif %}
        group by {{ rankwise._group_columns(spec.groups, 'shared') }}shared.rw_user, shared.rw_k
    ) as shared
        on shared.rw_user = pair.rw_user and shared.rw_k = pair.rw_k{{ rankwise._groups_match('shared', 'pair', spec.groups) }}
    group by {{ rankwise._group_columns(spec.groups, 'pair') }}pair.rw_user
)
{%- endmacro %}

{#- The value of `expression` on the list's row of cutoff k, for a GROUP BY of
    the list's rows of every cutoff. -#}
{% macro _at_reference_cutoff(k, expression) %}
    {{ return('max(case when pair.rw_k = ' ~ k ~ ' then ' ~ expression ~ ' end)') }}
{% endmacro %}

{#- p^d / d, the weight of depth d in RBO_ext's first sum (p^d as the weight of
    rank d + 1, which no power underflows to an error). -#}
{% macro _overlap_depth_weight(depth, p) %}
    {{ return(rankwise.safe_divide(rankwise.rank_biased_weight('(' ~ depth ~ ') + 1', p), depth)) }}
{% endmacro %}
