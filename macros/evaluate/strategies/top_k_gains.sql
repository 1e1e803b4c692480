{#- IDCG from each user's relevances in descending order, from one aggregate
    (the top k of them, by a heap, when every cutoff is finite) instead of a
    window over every interaction (ideal_ranks.sql): the plan picks it on an
    engine with list aggregates (_engine_has_top_k_lists). The relevances become
    the terms of the public dcg_term once per user; IDCG@k is the sum of the
    first k of them, read where a (user, cutoff) row joins its user's row, so no
    row per (user, cutoff) is built here. As with ideal_ranks, only the users
    with a judged list unless a metric reads every user's IDCG; docs/benchmarks-history.md
    ("Second pass") has what that semi-join saves. The heap takes n below 10^6
    (the aggregate refuses more); a larger cutoff is past any user's truth one
    can sort in memory anyway, so it sorts the whole truth as the whole list does.
    https://duckdb.org/docs/stable/sql/functions/aggregates#maxarg-n -#}
{% macro _stage_ideal_lists__top_k_gains(spec) %}
    {%- set finite = spec.cutoffs | reject('none') | list -%}
    {%- set heap = none not in spec.cutoffs and finite | max < 1000000 -%}
    {%- set top = 'max(rw_relevance, ' ~ (finite | max) ~ ')' if heap else 'list(rw_relevance order by rw_relevance desc)' -%}
rw_ideal_lists as (
    select
        {{ rankwise._partition_columns(spec) }}rw_user,
        list_transform({{ top }},
            lambda rw_ideal_relevance, rw_ideal_rank: {{ rankwise.dcg_term('rw_ideal_rank', 'rw_ideal_relevance', spec.gain, spec.min_gain_relevance) }}) as rw_ideal_gains
    from rw_interactions
    {%- if not spec.idcg_of_every_user %}
    where {{ rankwise._with_judged_list('rw_interactions', spec) }}
    {%- endif %}
    group by {{ rankwise._partition_columns(spec) }}rw_user
)
{%- endmacro %}

{% macro _join_ideal_lists__top_k_gains(alias, limit, spec) %}
    {{ return('left join rw_ideal_lists as idcg\n        on idcg.rw_user = ' ~ alias ~ '.rw_user' ~ rankwise._partitions_match('idcg', alias, spec)) }}
{% endmacro %}

{% macro _idcg_value__top_k_gains(limit, spec) %}
    {{ return('(case when idcg.rw_ideal_gains is not null then coalesce(list_sum(list_slice(idcg.rw_ideal_gains, 1, ' ~ limit ~ ')), 0) end)') }}
{% endmacro %}
