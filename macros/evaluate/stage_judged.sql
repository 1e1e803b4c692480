{#- Stages over the recommended rows found in the interactions (the judged rows),
    and, for map_to_full_recall only, over every recommended row. -#}

{#- rw_judged: each judged row with its relevance and, where the components need
    them, R and the running count of hits (P@rank for every cutoff at once). -#}
{% macro _stage_judged(spec) %}
    {{- return(adapter.dispatch('_stage_judged', 'rankwise')(spec)) -}}
{% endmacro %}

{% macro default___stage_judged(spec) %}
rw_judged as (
    select
        {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user,
        recommendation.rw_rank,
        judgement.rw_relevance,
        case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then 1 else 0 end as rw_is_relevant
        {%- if spec.needs_n_relevant_on_rows %},
        truth.rw_n_relevant
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

{#- rw_judged_lists: per (list, cutoff) with a judged row within the cutoff, the
    judged components: the rows are joined to the cutoffs, so one GROUP BY
    computes every cutoff. -#}
{% macro _stage_judged_lists(spec) %}
    {{- return(adapter.dispatch('_stage_judged_lists', 'rankwise')(spec)) -}}
{% endmacro %}

{% macro default___stage_judged_lists(spec) %}
rw_judged_lists as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        cutoff.rw_limit,
        cutoff.rw_k
        {{- rankwise._component_aggregates(spec.components_from.judged, spec) }}
    from rw_judged
    inner join rw_cutoffs as cutoff
        on rw_judged.rw_rank <= cutoff.rw_limit
    group by {{ rankwise._group_columns(spec.groups) }}rw_user, cutoff.rw_limit, cutoff.rw_k
)
{%- endmacro %}

{#- rw_all_running: every recommended row of a user with truth, with the running
    count of hits; map_to_full_recall averages P@i over non-relevant ranks too. -#}
{% macro _stage_all_running(spec) %}
rw_all_running as (
    select
        recommendation.*,
        truth.rw_n_relevant,
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
        cutoff.rw_limit
        {{- rankwise._component_aggregates(spec.components_from.all_running, spec) }}
    from rw_all_running
    inner join rw_cutoffs as cutoff
        on rw_all_running.rw_rank <= cutoff.rw_limit
    group by {{ rankwise._group_columns(spec.groups) }}rw_user, cutoff.rw_limit
)
{%- endmacro %}

{#- DuckDB, when every cutoff is at most 62 (plan: `ranks_as_bits`): the judged
    components read off two bit sets per list, aggregated in the one GROUP BY over
    the join, instead of a window of running hits and a GROUP BY per (list,
    cutoff). Bit r - 1 of rw_relevant_ranks is set when rank r holds a relevant
    item, so the hits within rank p are the set bits below bit p: P@rank for AP
    without a sort. DCG is a sum per cutoff. On data where a quarter of the
    recommended rows are relevant this halves the metric query (docs/benchmarks.md). -#}
{% macro duckdb___stage_judged(spec) %}
    {%- if not spec.ranks_as_bits -%}{{ return(rankwise.default___stage_judged(spec)) }}{%- endif -%}
rw_list_bits as (
    select
        {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user,
        bit_or({{ rankwise._rank_bit('recommendation.rw_rank') }}) as rw_judged_ranks,
        bit_or(case when {{ rankwise._is_relevant('judgement.rw_relevance', spec) }} then {{ rankwise._rank_bit('recommendation.rw_rank') }} else 0 end) as rw_relevant_ranks
        {%- if 'dcg' in spec.components_from.judged %}
        {%- for cutoff in spec.cutoffs %},
        sum(case when recommendation.rw_rank <= {{ cutoff }} then {{ rankwise.relevance_gain('judgement.rw_relevance', spec.gain, spec.min_gain_relevance) }} * {{ rankwise.rank_discount('recommendation.rw_rank') }} else 0 end) as rw_dcg_at_{{ cutoff }}
        {%- endfor %}
        {%- endif %}
    from rw_recommendations as recommendation
    inner join rw_interactions as judgement
        on recommendation.rw_user = judgement.rw_user
        and recommendation.rw_item = judgement.rw_item{{ rankwise._partitions_match('recommendation', 'judgement', spec) }}
    where recommendation.rw_rank <= {{ spec.cutoffs | max }}
    group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user
)
{%- endmacro %}

{% macro duckdb___stage_judged_lists(spec) %}
    {%- if not spec.ranks_as_bits -%}{{ return(rankwise.default___stage_judged_lists(spec)) }}{%- endif -%}
    {%- set relevant = 'bits.rw_relevant_ranks' -%}
    {%- set within = '(' ~ relevant ~ ' & ' ~ rankwise._ranks_up_to('cutoff.rw_limit') ~ ')' -%}
    {%- set components = spec.components_from.judged -%}
rw_judged_lists as (
    select
        {{ rankwise._group_columns(spec.groups, 'bits') }}bits.rw_user,
        cutoff.rw_limit,
        cutoff.rw_k
        {%- if 'hits' in components %},
        bit_count({{ within }}) as {{ rankwise._component_column('hits') }}
        {%- endif %}
        {%- if 'precision_sum' in components %},
        case cutoff.rw_limit{% for cutoff in spec.cutoffs %} when {{ cutoff }} then bits.rw_precision_sum_at_{{ cutoff }}{% endfor %} end as {{ rankwise._component_column('precision_sum') }}
        {%- endif %}
        {#- the lowest set bit, x & -x, has as many bits below it as the rank before it #}
        {%- if 'first_relevant_rank' in components %},
        case when {{ within }} <> 0 then bit_count(({{ relevant }} & -{{ relevant }}) - 1) + 1 end as {{ rankwise._component_column('first_relevant_rank') }}
        {%- endif %}
        {%- if 'dcg' in components %},
        case cutoff.rw_limit{% for cutoff in spec.cutoffs %} when {{ cutoff }} then bits.rw_dcg_at_{{ cutoff }}{% endfor %} end as {{ rankwise._component_column('dcg') }}
        {%- endif %}
    from (
        select
            rw_list_bits.*
            {%- if 'precision_sum' in components %}
            {%- for cutoff in spec.cutoffs %},
            {% for position in range(1, cutoff + 1) %}{{ ' + ' if not loop.first }}{{ rankwise._precision_at_relevant_rank('rw_relevant_ranks', position) }}{% endfor %} as rw_precision_sum_at_{{ cutoff }}
            {%- endfor %}
            {%- endif %}
        from rw_list_bits
    ) as bits
    inner join rw_cutoffs as cutoff
        on (bits.rw_judged_ranks & {{ rankwise._ranks_up_to('cutoff.rw_limit') }}) <> 0
)
{%- endmacro %}

{#- A relation with a row per (list, ...) of the lists with a judged row within
    the largest cutoff: rw_judged_lists (a row per cutoff), or on DuckDB with the
    ranks as bits the lists' bit sets, the same lists once each. -#}
{% macro _judged_list_rows(spec) %}
    {{- return(adapter.dispatch('_judged_list_rows', 'rankwise')(spec)) -}}
{% endmacro %}

{% macro default___judged_list_rows(spec) %}
    {{- return('rw_judged_lists') -}}
{% endmacro %}

{% macro duckdb___judged_list_rows(spec) %}
    {{- return('rw_list_bits' if spec.ranks_as_bits else 'rw_judged_lists') -}}
{% endmacro %}

{#- The bit of rank `rank` (bit rank - 1), 0 outside ranks 1..62. -#}
{% macro _rank_bit(rank) %}
    {{ return('(case when ' ~ rank ~ ' between 1 and 62 then cast(1 as bigint) << cast(' ~ rank ~ ' - 1 as integer) else 0 end)') }}
{% endmacro %}

{#- The bits of ranks 1..`limit`. -#}
{% macro _ranks_up_to(limit) %}
    {{ return('((cast(1 as bigint) << cast(' ~ limit ~ ' as integer)) - 1)') }}
{% endmacro %}

{#- P@position when `position` holds a relevant item, else 0: the relevant ranks
    up to it over the position, as the running hits over the rank gave it. -#}
{% macro _precision_at_relevant_rank(relevant_ranks, position) %}
    {{ return('(case when (' ~ relevant_ranks ~ ' >> ' ~ (position - 1) ~ ') & 1 = 1 then cast(bit_count(' ~ relevant_ranks ~ ' & ' ~ ((2 ** position) - 1) ~ ') as ' ~ rankwise.type_float64() ~ ') / ' ~ position ~ ' else 0 end)') }}
{% endmacro %}
