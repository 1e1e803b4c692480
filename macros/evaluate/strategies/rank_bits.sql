{#- The judged components read off two bit sets per list, aggregated in the one
    GROUP BY over the join, instead of a window of running hits and a GROUP BY
    per (list, cutoff) (running_hits.sql): the plan picks it on an engine with
    bit operations on BIGINT (_engine_has_rank_bits) when every cutoff is at
    most 62. Bit r - 1 of rw_relevant_ranks is set when rank r holds a relevant
    item, so the hits within rank p are the set bits below bit p: P@rank for AP
    without a sort. DCG is the public dcg_at_k at each cutoff. Its cost against
    the window is in docs/benchmarks.md. -#}
{% macro _stage_list_bits(spec) %}
rw_list_bits as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        bit_or(rw_rank_bit) as rw_judged_ranks,
        bit_or(case when {{ rankwise._is_relevant('rw_relevance', spec) }} then rw_rank_bit else 0 end) as rw_relevant_ranks
        {%- if 'dcg' in spec.components_from.judged %}
        {%- for cutoff in spec.cutoffs %},
        {{ rankwise.dcg_at_k('rw_rank', 'rw_relevance', cutoff, spec.gain, spec.min_gain_relevance) }} as rw_dcg_at_{{ cutoff }}
        {%- endfor %}
        {%- endif %}
    from (
        select
            {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
            recommendation.rw_rank as rw_rank,
            judgement.rw_relevance as rw_relevance,
            {{ rankwise._rank_bit('recommendation.rw_rank') }} as rw_rank_bit
        from rw_recommendations as recommendation
        inner join rw_interactions as judgement
            on recommendation.rw_user = judgement.rw_user
            and recommendation.rw_item = judgement.rw_item{{ rankwise._partitions_match('recommendation', 'judgement', spec) }}
        where recommendation.rw_rank <= {{ spec.cutoffs | max }}
    ) as judged
    group by {{ rankwise._group_columns(spec.groups) }}rw_user
)
{%- endmacro %}

{% macro _stage_judged_lists__rank_bits(spec) %}
    {%- set relevant = 'bits.rw_relevant_ranks' -%}
    {%- set within = '(' ~ relevant ~ ' & ' ~ rankwise._ranks_up_to('cutoff.rw_limit') ~ ')' -%}
    {%- set components = spec.components_from.judged -%}
rw_judged_lists as (
    select
        {{ rankwise._selected_columns(spec.groups, 'bits') }}bits.rw_user as rw_user,
        cutoff.rw_limit as rw_limit,
        cutoff.rw_k as rw_k
        {%- if 'hits' in components %},
        {{ rankwise._bit_count(within) }} as {{ rankwise._component_column('hits') }}
        {%- endif %}
        {%- if 'n_judged' in components %},
        {{ rankwise._bit_count('(bits.rw_judged_ranks & ' ~ rankwise._ranks_up_to('cutoff.rw_limit') ~ ')') }} as {{ rankwise._component_column('n_judged') }}
        {%- endif %}
        {%- if 'precision_sum' in components %},
        case cutoff.rw_limit{% for cutoff in spec.cutoffs %} when {{ cutoff }} then bits.rw_precision_sum_at_{{ cutoff }}{% endfor %} end as {{ rankwise._component_column('precision_sum') }}
        {%- endif %}
        {#- the lowest set bit, x & -x, has as many bits below it as the rank before it #}
        {%- if 'first_relevant_rank' in components %},
        case when {{ within }} <> 0 then {{ rankwise._bit_count('(' ~ relevant ~ ' & -' ~ relevant ~ ') - 1') }} + 1 end as {{ rankwise._component_column('first_relevant_rank') }}
        {%- endif %}
        {%- if 'dcg' in components %},
        case cutoff.rw_limit{% for cutoff in spec.cutoffs %} when {{ cutoff }} then bits.rw_dcg_at_{{ cutoff }}{% endfor %} end as {{ rankwise._component_column('dcg') }}
        {%- endif %}
    {%- if 'precision_sum' in components %}
    from (
        select
            rw_list_bits.*
            {%- for cutoff in spec.cutoffs %},
            {% for position in range(1, cutoff + 1) %}{{ '\n                + ' if not loop.first }}{{ rankwise._precision_at_relevant_rank('rw_relevant_ranks', position) }}{% endfor %} as rw_precision_sum_at_{{ cutoff }}
            {%- endfor %}
        from rw_list_bits
    ) as bits
    {%- else %}
    from rw_list_bits as bits
    {%- endif %}
    inner join rw_cutoffs as cutoff
        on (bits.rw_judged_ranks & {{ rankwise._ranks_up_to('cutoff.rw_limit') }}) <> 0
)
{%- endmacro %}

{#- The bit of rank `rank` (bit rank - 1), 0 outside ranks 1..62. -#}
{% macro _rank_bit(rank) %}
    {{ return('(case when ' ~ rank ~ ' between 1 and 62 then ' ~ rankwise._shift_left('cast(1 as bigint)', 'cast(' ~ rank ~ ' - 1 as integer)') ~ ' else 0 end)') }}
{% endmacro %}

{#- The bits of ranks 1..`limit`. -#}
{% macro _ranks_up_to(limit) %}
    {{ return('((' ~ rankwise._shift_left('cast(1 as bigint)', 'cast(' ~ limit ~ ' as integer)') ~ ') - 1)') }}
{% endmacro %}

{#- P@position when `position` holds a relevant item, else 0: the relevant ranks
    up to it over the position, as the running hits over the rank gave it. -#}
{% macro _precision_at_relevant_rank(relevant_ranks, position) %}
    {{ return('(case when (' ~ relevant_ranks ~ ' >> ' ~ (position - 1) ~ ') & 1 = 1 then cast(' ~ rankwise._bit_count(relevant_ranks ~ ' & ' ~ ((2 ** position) - 1)) ~ ' as ' ~ rankwise.type_float64() ~ ') / ' ~ position ~ ' else 0 end)') }}
{% endmacro %}
