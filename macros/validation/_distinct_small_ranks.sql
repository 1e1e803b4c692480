{#- An aggregate over one list's rows: the number of distinct ranks among those
    that are whole numbers in 1..63, or none where the engine has no cheap way to
    count them (the exact grouping is used instead). -#}
{% macro _distinct_small_ranks(rank) %}
    {{- return(adapter.dispatch('_distinct_small_ranks', 'rankwise')(rank)) -}}
{% endmacro %}

{#- Whether a rank is a whole number in 1..63: a bit of a BIGINT. -#}
{% macro _is_small_whole_rank(rank) %}
    {{- return('(' ~ rank ~ ') between 1 and 63 and (' ~ rank ~ ') = floor(' ~ rank ~ ')') -}}
{% endmacro %}

{% macro default___distinct_small_ranks(rank) %}
    {{- return(none) -}}
{% endmacro %}

{#- OR the bits 1 << (rank - 1) together and count the set bits. -#}
{% macro _distinct_small_ranks_as_bits(rank) %}
    {%- set bit = rankwise._shift_left('cast(1 as bigint)', 'cast((' ~ rank ~ ') - 1 as integer)') -%}
    {{- return('bit_count(bit_or(case when ' ~ rankwise._is_small_whole_rank(rank) ~ ' then ' ~ bit ~ ' end))') -}}
{% endmacro %}

{% macro duckdb___distinct_small_ranks(rank) %}
    {{- return(rankwise._distinct_small_ranks_as_bits(rank)) -}}
{% endmacro %}

{#- Spark's, and Databricks' (which dispatches here after its own). -#}
{% macro spark___distinct_small_ranks(rank) %}
    {{- return(rankwise._distinct_small_ranks_as_bits(rank)) -}}
{% endmacro %}
