{#- Stages over every recommended row, for map_to_full_recall only; the judged
    rows (the recommended rows found in the interactions) are the judged
    strategy's (macros/evaluate/strategies/). -#}

{#- rw_all_running: every recommended row of a user with truth, with the running
    count of hits; map_to_full_recall averages P@i over non-relevant ranks too. -#}
{% macro _stage_all_running(spec) %}
rw_all_running as (
    select
        recommendation.*,
        truth.rw_n_relevant as rw_n_relevant,
        sum(recommendation.rw_is_relevant) over (
            {{ rankwise._over_list_in_rank_order(spec, 'recommendation') }}
        ) as rw_hits_so_far
    from (
        select
            all_rows.*,
            case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end as rw_is_relevant
        from rw_recommendations as all_rows
        left join rw_interactions as judgement
            on all_rows.rw_user = judgement.rw_user
            and all_rows.rw_item = judgement.rw_item{{ rankwise._partitions_match('all_rows', 'judgement', spec) }}
    ) as recommendation
    inner join rw_user_truth_counts as truth
        on recommendation.rw_user = truth.rw_user{{ rankwise._partitions_match('recommendation', 'truth', spec) }}
)
{%- endmacro %}

{#- rw_all_running_lists: per (list, cutoff), the components read off
    rw_all_running. -#}
{% macro _stage_all_running_lists(spec) %}
rw_all_running_lists as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        cutoff.rw_limit as rw_limit
        {{- rankwise._component_aggregates(spec.components_from.all_running, spec) }}
    from rw_all_running
    inner join rw_cutoffs as cutoff
        on rw_all_running.rw_rank <= cutoff.rw_limit
    group by {{ rankwise._group_columns(spec.groups) }}rw_user, cutoff.rw_limit
)
{%- endmacro %}

{#- A relation with a row per (list, ...) of the lists with a judged row within
    the largest cutoff: rw_judged_lists (a row per cutoff), or with the rank_bits
    strategy the lists' bit sets, the same lists once each. -#}
{% macro _judged_list_rows(spec) %}
    {{- return('rw_list_bits' if spec.strategies.judged == 'rank_bits' else 'rw_judged_lists') -}}
{% endmacro %}
