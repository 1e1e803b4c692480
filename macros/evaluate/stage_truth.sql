{#- Stages over the interactions: relevance per (user, item), R per user, and
    the ideal order for IDCG. -#}

{#- rw_interactions: (rw_user, rw_item, rw_relevance); duplicate_interactions='max'
    keeps the highest relevance of a pair listed twice. -#}
{% macro _stage_interactions(interactions, spec) %}
    {%- set relevance = 'cast(' ~ (spec.relevance if spec.relevance is not none else 1) ~ ' as ' ~ rankwise.type_float64() ~ ')' -%}
{{ rankwise._cte_as('rw_interactions', spec.duplicate_interactions != 'max') }}
    select
        {{ rankwise._partition_columns(spec) }}{{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.duplicate_interactions == 'max' %}
        max({{ relevance }}) as rw_relevance
    from {{ interactions }}
    group by {{ rankwise._partition_columns(spec) }}{{ spec.user }}, {{ spec.item }}
        {%- else %}
        {{ relevance }} as rw_relevance
    from {{ interactions }}
        {%- endif %}
)
{%- endmacro %}

{#- rw_user_truth_counts: per user of the truth (per partition), R, the number of
    relevant items. -#}
{% macro _stage_user_truth_counts(spec) %}
rw_user_truth_counts as (
    select
        {{ rankwise._partition_columns(spec) }}rw_user,
        count(case when {{ rankwise._is_relevant('rw_relevance', spec) }} then 1 end) as rw_n_relevant
    from rw_interactions
    group by {{ rankwise._partition_columns(spec) }}rw_user
)
{%- endmacro %}

{#- rw_ideal_lists: per (user, cutoff), IDCG, the DCG of the user's whole truth
    sorted by relevance. Only a user with a judged row can have a DCG above 0, and
    NDCG is 0 for the others whatever their IDCG, so unless IDCG itself is asked
    for, only those users' truth is sorted. -#}
{% macro _stage_ideal_lists(spec) %}
    {{- return(adapter.dispatch('_stage_ideal_lists', 'rankwise')(spec)) -}}
{% endmacro %}

{% macro default___stage_ideal_lists(spec) %}
rw_ideal_lists as (
    select
        {{ rankwise._partition_columns(spec, 'ideal') }}ideal.rw_user,
        cutoff.rw_limit,
        {{ rankwise.idcg_at_k('ideal.rw_ideal_rank', 'ideal.rw_relevance', none, spec.gain, spec.min_gain_relevance) }} as rw_idcg
    from (
        select
            {{ rankwise._partition_columns(spec) }}rw_user,
            rw_relevance,
            row_number() over (partition by {{ rankwise._partition_columns(spec) }}rw_user order by rw_relevance desc nulls last) as rw_ideal_rank
        from rw_interactions
        {%- if not spec.every_idcg %}
        where {{ rankwise._with_judged_list('rw_interactions', spec) }}
        {%- endif %}
    ) as ideal
    inner join rw_cutoffs as cutoff
        on ideal.rw_ideal_rank <= cutoff.rw_limit
    group by {{ rankwise._partition_columns(spec, 'ideal') }}ideal.rw_user, cutoff.rw_limit
)
{%- endmacro %}

{#- DuckDB: each user's relevances in descending order from one aggregate (the top
    k of them, by a heap, when every cutoff is finite) instead of a window over
    every interaction, turned into the gains of the ideal ranks once per user;
    IDCG@k is the sum of the first k of them (`_idcg_value`), read where a (user,
    cutoff) row joins its user's row, so no row per (user, cutoff) is built here.
    As on the other engines, only the users with a judged list, unless IDCG itself
    is asked for: at 1% hit density (18% of the lists judged) the semi-join takes
    the metric query at 1M users from 1.5 to 1.3 s, and at 30% it costs as much as
    it saves (docs/benchmarks.md, "Second pass").
    https://duckdb.org/docs/stable/sql/functions/aggregates#maxarg-n -#}
{% macro duckdb___stage_ideal_lists(spec) %}
    {%- set finite = spec.cutoffs | reject('none') | list -%}
    {%- set top = 'max(rw_relevance, ' ~ (finite | max) ~ ')' if none not in spec.cutoffs else 'list(rw_relevance order by rw_relevance desc)' -%}
rw_ideal_lists as (
    select
        {{ rankwise._partition_columns(spec) }}rw_user,
        list_transform({{ top }},
            lambda rw_ideal_relevance, rw_ideal_rank: {{ rankwise.relevance_gain('rw_ideal_relevance', spec.gain, spec.min_gain_relevance) }} * {{ rankwise.rank_discount('rw_ideal_rank') }}) as rw_ideal_gains
    from rw_interactions
    {%- if not spec.every_idcg %}
    where {{ rankwise._with_judged_list('rw_interactions', spec) }}
    {%- endif %}
    group by {{ rankwise._partition_columns(spec) }}rw_user
)
{%- endmacro %}

{#- rw_slot_idcg: per finite cutoff, RecTools' IDCG@k, every one of the k slots
    holding a relevant item of gain 1: a sum over a series of positions, not one
    SQL term per position. The whole list has no fixed number of slots: no row
    (NULL); only cutoff-free metrics ask for it, and they read no IDCG. -#}
{% macro _stage_slot_idcg(spec) %}
    {%- set finite = spec.cutoffs | reject('none') | list -%}
rw_slot_idcg as (
    select
        cutoff.rw_limit,
        sum({{ rankwise.rank_discount('slot.rw_position') }}) as rw_idcg
    from rw_cutoffs as cutoff
    inner join {{ rankwise._positions(finite | max if finite | length > 0 else 1) }} as slot
        on slot.rw_position <= cutoff.rw_limit
    where cutoff.rw_k is not null
    group by cutoff.rw_limit
)
{%- endmacro %}

{#- The IDCG of a (user, cutoff) row of relation `alias`: the join that brings
    it, and its value at the row's cutoff `limit` (`_idcg_value`). -#}
{% macro _join_idcg(alias, limit, spec) %}
    {%- if spec.needs_slot_idcg -%}
    {{ return('left join rw_slot_idcg as idcg on idcg.rw_limit = ' ~ limit) }}
    {%- endif -%}
    {{ return(adapter.dispatch('_join_ideal_lists', 'rankwise')(alias, limit, spec)) }}
{% endmacro %}

{% macro default___join_ideal_lists(alias, limit, spec) %}
    {{ return('left join rw_ideal_lists as idcg on idcg.rw_user = ' ~ alias ~ '.rw_user and idcg.rw_limit = ' ~ limit
              ~ rankwise._partitions_match('idcg', alias, spec)) }}
{% endmacro %}

{% macro duckdb___join_ideal_lists(alias, limit, spec) %}
    {{ return('left join rw_ideal_lists as idcg on idcg.rw_user = ' ~ alias ~ '.rw_user' ~ rankwise._partitions_match('idcg', alias, spec)) }}
{% endmacro %}

{% macro _idcg_value(limit, spec) %}
    {%- if spec.needs_slot_idcg -%}
    {{ return('idcg.rw_idcg') }}
    {%- endif -%}
    {{ return(adapter.dispatch('_ideal_lists_value', 'rankwise')(limit, spec)) }}
{% endmacro %}

{% macro default___ideal_lists_value(limit, spec) %}
    {{ return('idcg.rw_idcg') }}
{% endmacro %}

{% macro duckdb___ideal_lists_value(limit, spec) %}
    {{ return('(case when idcg.rw_ideal_gains is not null then coalesce(list_sum(list_slice(idcg.rw_ideal_gains, 1, ' ~ limit ~ ')), 0) end)') }}
{% endmacro %}

{#- Whether a row of `relation` (of the truth) belongs to a user with a judged
    list, the only users whose IDCG a mean reads when idcg itself is not asked. -#}
{% macro _with_judged_list(relation, spec) %}
    {%- set judged_lists = rankwise._judged_list_rows(spec) -%}
    {%- if spec.partitions | length == 0 -%}
    {{ return('rw_user in (select rw_user from ' ~ judged_lists ~ ')') }}
    {%- endif -%}
    {{ return('exists (select 1 from ' ~ judged_lists ~ ' as judged where judged.rw_user = ' ~ relation ~ '.rw_user'
              ~ rankwise._partitions_match('judged', relation, spec) ~ ')') }}
{% endmacro %}
