{#- What makes a value of the inputs invalid, stated once for the check queries
    (recommendation_problems, interaction_problems) and for the checks fused
    into the metric query (stage_input_guard.sql). Each is a condition on one
    value; the check queries split it into the problems they name. -#}

{#- A rank that is null, NaN or infinite, or not a whole number: x - floor(x) is
    0 for a whole number only. (Below 1 is a problem of its own.) -#}
{% macro _invalid_rank(rank) %}
    {{- return(rankwise._invalid_number(rank) ~ ' or ' ~ rank ~ ' <> floor(' ~ rank ~ ')') -}}
{% endmacro %}

{#- A score or a relevance that is null, NaN or infinite. -#}
{% macro _invalid_number(value) %}
    {{- return(value ~ ' is null or ' ~ rankwise._not_finite(value)) -}}
{% endmacro %}

{#- A relevance whose exponential gain 2^rel - 1 is past the largest double
    (NDCG would be infinity over infinity). -#}
{% macro _too_large_for_exponential_gain(relevance) %}
    {{- return(relevance ~ ' >= 1024') -}}
{% endmacro %}

{#- An aggregate over one list's rows: 1 when it may hold an item twice, 0 when
    it cannot (_exact_distinct_count, else _distinct_item_buckets); none where
    the engine cannot tell in one pass. -#}
{% macro _may_repeat_items(item) %}
    {%- set distinct = rankwise._exact_distinct_count(item) -%}
    {%- set distinct = rankwise._distinct_item_buckets(item) if distinct is none else distinct -%}
    {{- return(none if distinct is none else rankwise._fewer_than_counted(distinct, item)) -}}
{% endmacro %}

{#- 1 when `distinct` (an aggregate: the distinct values of `value`, or the
    buckets they fall in) is below the list's count of `value`, else 0. -#}
{% macro _fewer_than_counted(distinct, value) %}
    {{- return('case when ' ~ distinct ~ ' < count(' ~ value ~ ') then 1 else 0 end') -}}
{% endmacro %}

{#- An aggregate over one list's rows: 1 when it may hold a rank twice, 0 when
    its ranks are distinct (_exact_distinct_count), or else when they are
    distinct whole numbers in 1..63 (_distinct_small_ranks); none where the
    engine cannot tell in one pass. NaN and infinite ranks stay out of the
    bits: DuckDB trusts Parquet's statistics, which leave NaN out, and drops
    the test that keeps a NaN from its cast to integer. -#}
{% macro _may_repeat_ranks(rank) %}
    {%- set exact = rankwise._exact_distinct_count(rank) -%}
    {%- if exact is not none -%}
        {{- return(rankwise._fewer_than_counted(exact, rank)) -}}
    {%- endif -%}
    {%- set distinct = rankwise._distinct_small_ranks('(case when ' ~ rankwise._not_finite(rank) ~ ' then null else ' ~ rank ~ ' end)') -%}
    {%- if distinct is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return('case when count(case when ' ~ rankwise._is_small_whole_rank(rank) ~ ' then 1 end) < count(' ~ rank ~ ')'
               ~ ' or ' ~ distinct ~ ' < count(' ~ rank ~ ') then 1 else 0 end') -}}
{% endmacro %}
