{#- IDCG from a window: per (user, cutoff), the DCG of the user's whole truth
    sorted by relevance (each row numbered by a window), through the public
    idcg_at_k; with propensity_col, of the weighted gains in their best order. Only a user with a judged row can have a DCG above 0, and NDCG is
    0 for the others whatever their IDCG, so unless a metric reads every user's
    IDCG (the plan's idcg_of_every_user), only those users' truth is sorted. Runs on every engine. -#}
{% macro _stage_ideal_lists__ideal_ranks(spec) %}
rw_ideal_lists as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'ideal') }}ideal.rw_user as rw_user,
        cutoff.rw_limit as rw_limit,
        {%- if spec.propensity is none %}
        {{ rankwise.idcg_at_k('ideal.rw_ideal_rank', 'ideal.rw_relevance', none, spec.gain, spec.min_gain_relevance) }} as rw_idcg
        {%- else %}
        sum({{ rankwise.dcg_term('ideal.rw_ideal_rank', 'ideal.rw_relevance', spec.gain, spec.min_gain_relevance) }} * ideal.rw_weight) as rw_idcg
        {%- endif %}
    from (
        select
            {{ rankwise._partition_columns(spec) }}rw_user,
            rw_relevance,
            {%- if spec.propensity is none %}
            row_number() over (partition by {{ rankwise._partition_columns(spec) }}rw_user order by rw_relevance desc nulls last) as rw_ideal_rank
            {%- else %}
            rw_weight,
            {#- the best order of the weighted gains -#}
            row_number() over (partition by {{ rankwise._partition_columns(spec) }}rw_user
                               order by {{ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) }} * rw_weight desc, rw_item asc) as rw_ideal_rank
            {%- endif %}
        from rw_interactions
        {%- if not spec.idcg_of_every_user %}
        where {{ rankwise._with_judged_list('rw_interactions', spec) }}
        {%- endif %}
    ) as ideal
    inner join rw_cutoffs as cutoff
        on ideal.rw_ideal_rank <= cutoff.rw_limit
    group by {{ rankwise._partition_columns(spec, 'ideal') }}ideal.rw_user, cutoff.rw_limit
)
{%- endmacro %}

{% macro _join_ideal_lists__ideal_ranks(alias, limit, spec) %}
    {{ return('left join rw_ideal_lists as idcg\n        on idcg.rw_user = ' ~ alias ~ '.rw_user and idcg.rw_limit = ' ~ limit
              ~ rankwise._partitions_match('idcg', alias, spec)) }}
{% endmacro %}

{% macro _idcg_value__ideal_ranks(limit, spec) %}
    {{ return('idcg.rw_idcg') }}
{% endmacro %}
