{#- Stages over the interactions: relevance per (user, item), R per user, and
    IDCG (by the strategies of macros/evaluate/strategies/). -#}

{#- rw_interactions: (rw_user, rw_item, rw_relevance), and with propensity_col
    each interaction's weight rw_weight; duplicate_interactions='max' keeps the
    highest relevance of a pair listed twice (and takes no propensity_col). -#}
{% macro _stage_interactions(spec) %}
    {%- set interactions = spec.relations.interactions -%}
    {%- set relevance = 'cast(' ~ (spec.relevance if spec.relevance is not none else 1) ~ ' as ' ~ rankwise.type_float64() ~ ')' -%}
{{ rankwise._cte_as('rw_interactions', spec.duplicate_interactions != 'max') }}
    select
        {{ rankwise._partition_columns(spec) }}{{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.duplicate_interactions == 'max' %}
        max({{ relevance }}) as rw_relevance
    from {{ interactions }}
    {{- rankwise._without_pooled_rows(spec) }}
    group by {{ rankwise._partition_columns(spec) }}{{ spec.user }}, {{ spec.item }}
        {%- else %}
        {{ relevance }} as rw_relevance
        {%- if spec.propensity is not none %},
        {{ rankwise._inverse_propensity(spec) }} as rw_weight
        {%- endif %}
    from {{ interactions }}
    {{- rankwise._without_pooled_rows(spec) }}
        {%- endif %}
)
{%- endmacro %}

{#- negative_relevance='pooled': the interactions of negative relevance are
    the pool's unjudged items, which no metric reads as interactions (inf_ap
    reads them apart: rw_pooled_before). -#}
{% macro _without_pooled_rows(spec) %}
    {%- if spec.negative_relevance != 'pooled' or spec.relevance is none -%}
        {{ return('') }}
    {%- endif -%}
    {{ return('\n    where not (' ~ spec.relevance ~ ' < 0)') }}
{% endmacro %}

{#- rw_pooled_before: per recommended item (negative_relevance='pooled', for
    inf_ap), the items of its list ranked before it that are in the judgment
    pool but unjudged (interactions of negative relevance). -#}
{% macro _stage_pooled_before(spec) %}
rw_pooled_before as (
    select
        {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
        recommendation.rw_item as rw_item,
        {{ rankwise._before_rank_in_list('case when pooled.rw_item is null then 0 else 1 end', spec, 'recommendation') }} as rw_pooled_before
    from rw_recommendations as recommendation
    left join (
        select
            {{ rankwise._partition_columns(spec) }}{{ spec.user }} as rw_user,
            {{ spec.item }} as rw_item
        from {{ spec.relations.interactions }}
        where {{ spec.relevance if spec.relevance is not none else 0 }} < 0
    ) as pooled
        on recommendation.rw_user = pooled.rw_user
        and recommendation.rw_item = pooled.rw_item{{ rankwise._partitions_match('recommendation', 'pooled', spec) }}
)
{%- endmacro %}

{#- rw_user_truth_counts: per user of the truth (per partition), R, the number of
    relevant items, and the number of its interactions (IDCG's equal_gains
    strategy reads it; the user_arrays strategy's entries; under ranked_truth,
    IDCG itself), BIGINTs that meet the cutoffs (ClickHouse counts in
    UInt64: see rw_list_rows). -#}
{% macro _stage_user_truth_counts(spec) %}
rw_user_truth_counts as (
    select
        {{ rankwise._partition_columns(spec) }}rw_user,
        cast(count(case when {{ rankwise._is_relevant('rw_relevance', spec) }} then 1 end) as bigint) as rw_n_relevant,
        cast(count(*) as bigint) as rw_n_truth_items
        {%- if 'ideal_prefix_on_rows' in spec.demands %},
        {#- the interactions that earn a DCG gain (ndcg_rel's relevant items) #}
        cast(count(case when {{ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) }} > 0 then 1 end) as bigint) as rw_n_gains
        {%- endif %}
        {%- if 'ideal_costs_on_rows' in spec.demands %},
        {#- G's normaliser: the gains of the ideal list #}
        sum({{ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) }}) as rw_gain_total
        {%- endif %}
        {%- if 'level_weights_on_rows' in spec.demands %},
        {#- Rndcg's R levels: one per distinct gain of the ideal list #}
        cast(count(distinct case when {{ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) }} > 0
            then {{ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) }} end) as bigint) as rw_n_gain_levels
        {%- endif %}
        {%- if spec.propensity is not none %},
        sum(case when {{ rankwise._is_relevant('rw_relevance', spec) }} then rw_weight else 0e0 end) as rw_weighted_relevant
        {%- endif %}
        {%- if spec.strategies.means == 'one_pass' %},
        {{ rankwise._truth_items_aggregate(spec) }} as rw_truth_items
        {%- if rankwise._truth_entries_aggregate(spec) is not none %},
        {{ rankwise._truth_entries_aggregate(spec) }} as rw_truth_entries
        {%- endif %}
        {%- endif %}
        {%- if spec.input_guard %}
        {%- for aggregate in rankwise._input_guard_aggregates(spec, 'truth') %},
        {{ aggregate }}
        {%- endfor %}
        {%- endif %}
        {%- if spec.strategies.ideal == 'ranked_truth' %}
        {%- for column in rankwise._idcg_columns__ranked_truth(spec) %},
        {{ column }}
        {%- endfor %}
    from {{ rankwise._ranked_interactions(spec) }}
        {%- else %}
    from rw_interactions
        {%- endif %}
    group by {{ rankwise._partition_columns(spec) }}rw_user
)
{%- endmacro %}

{#- rw_relevance_scale: per partition, the largest relevance of the
    interactions, which graded gains are read against (RBP's
    gain='graded'). -#}
{% macro _stage_relevance_scale(spec) %}
rw_relevance_scale as (
    select
        {{ rankwise._partition_columns(spec) }}max(rw_relevance) as rw_max_relevance
    from rw_interactions
    {{ rankwise._group_by_groups(spec.partitions) }}
)
{%- endmacro %}

{#- Whether a row of `relation` (of the truth) belongs to a user with a judged
    list, the only users whose IDCG a mean reads when idcg itself is not asked. -#}
{% macro _with_judged_list(relation, spec) %}
    {%- set judged_lists = rankwise._judged_list_rows(spec) -%}
    {%- if spec.partitions | length == 0 -%}
    {{ return('rw_user in (select rw_user from ' ~ judged_lists ~ ')') }}
    {%- endif -%}
    {{ return('exists (select 1 from ' ~ judged_lists ~ ' as judged where judged.rw_user = ' ~ relation ~ '.rw_user'
              ~ rankwise._partitions_match('judged', relation, spec) ~ ')') }}
{% endmacro %}

{#- The IDCG of a (user, cutoff) row of relation `alias`, by the plan's ideal
    strategy (macros/evaluate/strategies/): the join that brings it, and its
    value at the row's cutoff `limit`. -#}
{% macro _join_idcg(alias, limit, spec) %}
    {{ return(rankwise['_join_ideal_lists__' ~ spec.strategies.ideal](alias, limit, spec)) }}
{% endmacro %}

{% macro _idcg_value(limit, spec) %}
    {{ return(rankwise['_idcg_value__' ~ spec.strategies.ideal](limit, spec)) }}
{% endmacro %}

{#- An interaction's inverse-propensity weight, 1 / max(propensity,
    propensity_clip) (Swaminathan & Joachims 2015's clipping), as a double. -#}
{% macro _inverse_propensity(spec) %}
    {%- set propensity = 'cast(' ~ spec.propensity ~ ' as ' ~ rankwise.type_float64() ~ ')' -%}
    {%- if spec.propensity_clip is not none -%}
        {%- set clip = rankwise._double_literal(spec.propensity_clip) -%}
        {%- set propensity = 'case when ' ~ propensity ~ ' < ' ~ clip ~ ' then ' ~ clip ~ ' else ' ~ propensity ~ ' end' -%}
    {%- endif -%}
    {{ return('1e0 / (' ~ propensity ~ ')') }}
{% endmacro %}

{#- rw_ideal_prefixes: per user of the interactions and position p of its ideal
    list (its interactions that earn a gain, by relevance descending), the
    IDCG of the first p positions (ndcg_rel's normaliser at each rank); for G,
    the gains above 1 of those positions (rw_ideal_excess: G's cost of rank p
    is p plus it); for Rndcg, the sum of 1 / IDCG over the ends of the gain
    levels at or after p (rw_level_end_weight: a rank-p item's DCG term enters
    the nDCG of each R level that holds it). -#}
{% macro _stage_ideal_prefixes(spec) %}
    {%- set user = rankwise._partition_columns(spec) ~ 'rw_user' -%}
    {%- set gain = rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) -%}
    {%- set running = 'partition by ' ~ user ~ ' order by rw_position asc rows between unbounded preceding and current row' -%}
    {%- set costs = 'ideal_costs_on_rows' in spec.demands -%}
    {%- set level_weights = 'level_weights_on_rows' in spec.demands -%}
rw_ideal_prefixes as (
    select
        {{ user }},
        rw_position,
        rw_ideal_prefix
        {%- if costs %},
        rw_ideal_excess
        {%- endif %}
        {%- if level_weights %},
        sum(case when rw_ends_level = 1 then 1e0 / rw_ideal_prefix else 0e0 end) over (
            partition by {{ user }} order by rw_position desc rows between unbounded preceding and current row
        ) as rw_level_end_weight
        {%- endif %}
    from (
        select
            {{ user }},
            rw_position,
            sum({{ rankwise.dcg_term('rw_position', 'rw_relevance', spec.gain, spec.min_gain_relevance) }}) over ({{ running }}) as rw_ideal_prefix
            {%- if costs %},
            sum(case when {{ gain }} > 1 then {{ gain }} - 1 else 0e0 end) over ({{ running }}) as rw_ideal_excess
            {%- endif %}
            {%- if level_weights %},
            {#- the last position of its gain #}
            case when rw_position = max(rw_position) over (partition by {{ user }}, {{ gain }}) then 1 else 0 end as rw_ends_level
            {%- endif %}
        from (
            select
                {{ user }},
                rw_relevance,
                row_number() over (partition by {{ user }} order by rw_relevance desc nulls last) as rw_position
            from rw_interactions
            where {{ gain }} > 0
        ) as rw_ideal_positions
    ) as rw_ideal_running
)
{%- endmacro %}
