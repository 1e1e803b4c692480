{#- IDCG under idcg='k_positions': rw_slot_idcg, per finite cutoff, RecTools' IDCG@k, every one of the k slots
    holding a relevant item of gain 1: a sum over a series of positions, not one
    SQL term per position. The whole list has no fixed number of slots: no row
    (NULL); only cutoff-free metrics ask for it, and they read no IDCG. -#}
{% macro _stage_ideal_lists__k_slots(spec) %}
    {%- set finite = spec.cutoffs | reject('none') | list -%}
rw_slot_idcg as (
    select
        cutoff.rw_limit as rw_limit,
        sum({{ rankwise.rank_discount('slot.rw_position') }}) as rw_idcg
    from rw_cutoffs as cutoff
    inner join {{ rankwise._positions(finite | max if finite | length > 0 else 1) }} as slot
        on slot.rw_position <= cutoff.rw_limit
    where cutoff.rw_k is not null
    group by cutoff.rw_limit
)
{%- endmacro %}

{% macro _join_ideal_lists__k_slots(alias, limit, spec) %}
    {{ return('left join rw_slot_idcg as idcg\n        on idcg.rw_limit = ' ~ limit) }}
{% endmacro %}

{% macro _idcg_value__k_slots(limit, spec) %}
    {{ return('idcg.rw_idcg') }}
{% endmacro %}
