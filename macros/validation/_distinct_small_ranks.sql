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

{#- DuckDB: OR the bits 1 << (rank - 1) together and count the set bits. -#}
{% macro duckdb___distinct_small_ranks(rank) %}
    {{- return('bit_count(bit_or(case when ' ~ rankwise._is_small_whole_rank(rank) ~ ' then cast(1 as bigint) << cast((' ~ rank ~ ') - 1 as integer) end))') -}}
{% endmacro %}

{#- Spark: the same bits, shifted by shiftleft (documented on Spark and on
    Databricks, which dispatches here):
    https://spark.apache.org/docs/latest/api/sql/index.html#shiftleft -#}
{% macro spark___distinct_small_ranks(rank) %}
    {{- return('bit_count(bit_or(case when ' ~ rankwise._is_small_whole_rank(rank) ~ ' then shiftleft(cast(1 as bigint), cast((' ~ rank ~ ') - 1 as integer)) end))') -}}
{% endmacro %}
