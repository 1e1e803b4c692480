{#- The select-list entries, over one list's rows, of the one-pass pre-check that
    clears most lists of the exact (list, value) grouping: rw_check_items is 1
    when two of the list's non-null `item`s may be equal, and, with `rank` given,
    rw_check_ranks is 1 when two ranks may be equal. A list whose items fill as
    many hash buckets as it has items holds no item twice; a list whose ranks are
    whole numbers in 1..63 shows its distinct ranks as the set bits of one
    integer. Where the engine has no cheap way to count either, every list is
    flagged and grouped exactly. Shared by recommendation_problems,
    interaction_problems and evaluate with fail_on_problems=true. -#}
{% macro _lists_to_check_flags(item, rank=none) %}
    {%- set distinct_item_buckets = rankwise._distinct_item_buckets(item) -%}
    {%- set entries = [] -%}
    {%- if distinct_item_buckets is none -%}
        {%- do entries.append('1 as rw_check_items') -%}
    {%- else -%}
        {%- do entries.append('case when ' ~ distinct_item_buckets ~ ' < count(' ~ item ~ ') then 1 else 0 end as rw_check_items') -%}
    {%- endif -%}
    {%- if rank is not none -%}
        {%- set distinct_small_ranks = rankwise._distinct_small_ranks(rank) -%}
        {%- if distinct_small_ranks is none -%}
            {%- do entries.append('1 as rw_check_ranks') -%}
        {%- else -%}
            {#- min, max and the fractional count are the same aggregates as
                evaluate's rank checks, which the engine then computes once -#}
            {%- do entries.append('case when min(' ~ rank ~ ') < 1 or max(' ~ rank ~ ') > 63'
                ~ ' or count(case when ' ~ rank ~ ' <> floor(' ~ rank ~ ') then 1 end) > 0'
                ~ '\n            or ' ~ distinct_small_ranks ~ ' < count(' ~ rank ~ ') then 1 else 0 end as rw_check_ranks') -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(entries | join(',\n        ')) }}
{% endmacro %}
