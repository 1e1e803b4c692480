{#- The judged components from a window: each judged row with its relevance
    and, where the components need them, R and the running count of hits (P@rank
    for every cutoff at once); then per (list, cutoff) with a judged row within
    the cutoff, the components, the rows joined to the cutoffs so that one GROUP
    BY computes every cutoff. Runs on every engine. -#}
{% macro _stage_judged__running_hits(spec) %}
rw_judged as (
    select
        {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
        recommendation.rw_rank as rw_rank,
        judgement.rw_relevance as rw_relevance,
        case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end as rw_is_relevant
        {%- if spec.needs_n_relevant_on_rows %},
        truth.rw_n_relevant as rw_n_relevant
        {%- endif %}
        {%- if spec.needs_running_hits %},
        sum(case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_hits_so_far
        {%- endif %}
    from rw_recommendations as recommendation
    inner join rw_interactions as judgement
        on recommendation.rw_user = judgement.rw_user
        and recommendation.rw_item = judgement.rw_item{{ rankwise._partitions_match('recommendation', 'judgement', spec) }}
    {%- if spec.needs_n_relevant_on_rows %}
    inner join rw_user_truth_counts as truth
        on recommendation.rw_user = truth.rw_user{{ rankwise._partitions_match('recommendation', 'truth', spec) }}
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
