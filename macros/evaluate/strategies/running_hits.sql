{#- The judged components from a window: each judged row with its relevance
    and, where the components need them, R, the running count of hits (P@rank
    for every cutoff at once) and ERR's chance of reaching the row; then per (list, cutoff) with a judged row within
    the cutoff, the components, the rows joined to the cutoffs so that one GROUP
    BY computes every cutoff. Runs on every engine. -#}
{% macro _stage_judged_rows(spec) %}
rw_judged as (
    select
        {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
        recommendation.rw_rank as rw_rank,
        judgement.rw_relevance as rw_relevance,
        case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end as rw_is_relevant
        {%- if spec.propensity is not none %},
        judgement.rw_weight as rw_weight
        {%- endif %}
        {%- if 'n_relevant_on_rows' in spec.demands %},
        truth.rw_n_relevant as rw_n_relevant
        {%- endif %}
        {%- if 'n_nonrelevant_on_rows' in spec.demands %},
        truth.rw_n_truth_items - truth.rw_n_relevant as rw_n_nonrelevant
        {%- endif %}
        {%- if rankwise._planned(spec, 'relevance_scale') %},
        scale.rw_max_relevance as rw_max_relevance
        {%- endif %}
        {%- if 'continuation' in spec.demands %},
        {#- ERR's cascade: the product over the ranks before the row of the
            chances of reading on, as the exponent of a sum of logarithms; a
            chance of 0 (a relevance far above the rest) is counted apart, as it
            has no logarithm and makes the product 0 #}
        {%- set continuation = rankwise._err_continuation('judgement.rw_relevance', 'scale.rw_max_relevance') %}
        {{ rankwise.err_stop_probability('judgement.rw_relevance', 'scale.rw_max_relevance') }} as rw_stop_probability,
        {{ rankwise._before_rank_in_list('case when ' ~ continuation ~ ' > 0 then ln(' ~ continuation ~ ') else 0e0 end', spec, 'recommendation') }} as rw_log_continuation_before,
        {{ rankwise._before_rank_in_list('case when ' ~ continuation ~ ' > 0 then 0 else 1 end', spec, 'recommendation') }} as rw_stops_before
        {%- endif %}
        {%- if 'hits_so_far' in spec.demands %},
        sum(case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_hits_so_far
        {%- endif %}
        {%- if 'dcg_so_far' in spec.demands %},
        sum({{ rankwise.dcg_term('recommendation.rw_rank', 'judgement.rw_relevance', spec.gain, spec.min_gain_relevance) }}) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_dcg_so_far
        {%- endif %}
        {%- if 'ideal_prefix_on_rows' in spec.demands %},
        truth.rw_n_gains as rw_n_gains,
        prefix.rw_ideal_prefix as rw_ideal_prefix
        {%- endif %}
        {%- if 'ideal_costs_on_rows' in spec.demands %},
        truth.rw_gain_total as rw_gain_total,
        prefix.rw_ideal_excess as rw_ideal_excess,
        sum({{ rankwise.relevance_gain('judgement.rw_relevance', spec.gain, spec.min_gain_relevance) }}) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_gain_so_far
        {%- endif %}
        {%- if 'level_weights_on_rows' in spec.demands %},
        truth.rw_n_gain_levels as rw_n_gain_levels,
        {#- no level ends past the ideal list's end #}
        case when recommendation.rw_rank <= truth.rw_n_gains then prefix.rw_level_end_weight else 0e0 end as rw_level_end_weight
        {%- endif %}
        {%- if 'pooled_before_on_rows' in spec.demands %},
        pool.rw_pooled_before as rw_pooled_before
        {%- endif %}
        {%- if 'judged_so_far' in spec.demands %},
        count(*) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_judged_so_far
        {%- endif %}
    from rw_recommendations as recommendation
    inner join rw_interactions as judgement
        on recommendation.rw_user = judgement.rw_user
        and recommendation.rw_item = judgement.rw_item{{ rankwise._partitions_match('recommendation', 'judgement', spec) }}
    {%- if rankwise._planned(spec, 'relevance_scale') %}
    inner join rw_relevance_scale as scale
        on 1 = 1{{ rankwise._partitions_match('recommendation', 'scale', spec) }}
    {%- endif %}
    {%- if 'n_relevant_on_rows' in spec.demands or 'n_nonrelevant_on_rows' in spec.demands or 'ideal_prefix_on_rows' in spec.demands %}
    inner join rw_user_truth_counts as truth
        on recommendation.rw_user = truth.rw_user{{ rankwise._partitions_match('recommendation', 'truth', spec) }}
    {%- endif %}
    {%- if 'pooled_before_on_rows' in spec.demands %}
    inner join rw_pooled_before as pool
        on pool.rw_user = recommendation.rw_user
        and pool.rw_item = recommendation.rw_item{{ rankwise._groups_match('pool', 'recommendation', spec.groups) }}
    {%- endif %}
    {%- if 'ideal_prefix_on_rows' in spec.demands %}
    {#- the ideal list's IDCG at the row's rank, or at its end past it #}
    left join rw_ideal_prefixes as prefix
        on prefix.rw_user = recommendation.rw_user
        and prefix.rw_position = least(recommendation.rw_rank, truth.rw_n_gains){{ rankwise._partitions_match('recommendation', 'prefix', spec) }}
    {%- endif %}
)
{%- endmacro %}


{% macro _stage_judged_lists__running_hits(spec) %}
rw_judged_lists as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        cutoff.rw_limit as rw_limit,
        cutoff.rw_k as rw_k
        {{- rankwise._component_aggregates(spec.components_from.judged, spec) }}
    from rw_judged
    inner join rw_cutoffs as cutoff
        on rw_judged.rw_rank <= cutoff.rw_limit
    group by {{ rankwise._group_columns(spec.groups) }}rw_user, cutoff.rw_limit, cutoff.rw_k
)
{%- endmacro %}
