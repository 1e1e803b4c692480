{#- An aggregate over one list's rows: how many distinct non-null values
    `value` takes, counted exactly in the list's own aggregate, or none where
    the engine has no such aggregate short of a grouping by (list, value). Where
    it has one, a value twice in a list is found in the pass over the lists
    alone: no list needs the exact grouping (_may_repeat_items,
    _may_repeat_ranks, stage_input_guard.sql). -#}
{% macro _exact_distinct_count(value) %}
    {{- return(adapter.dispatch('_exact_distinct_count', 'rankwise')(value)) -}}
{% endmacro %}

{% macro default___exact_distinct_count(value) %}
    {{- return(none) -}}
{% endmacro %}

{#- Spark: the size of the list's set of values (collect_set drops nulls, as
    count(value) does):
    https://spark.apache.org/docs/latest/api/sql/index.html#collect_set -#}
{% macro spark___exact_distinct_count(value) %}
    {{- return('size(collect_set(' ~ value ~ '))') -}}
{% endmacro %}

{#- ClickHouse:
    https://clickhouse.com/docs/sql-reference/aggregate-functions/reference/uniqexact -#}
{% macro clickhouse___exact_distinct_count(value) %}
    {{- return('uniqExact(' ~ value ~ ')') -}}
{% endmacro %}
