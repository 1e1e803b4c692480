{#- IDCG when every interaction has relevance 1 (no relevance column): a user's
    ideal list is min(n, k) items of one gain, n the user's interactions, so
    IDCG@k is the sum of the gain of relevance 1 times the public rank_discount
    over the positions 1..min(n, k),
    the same sums for every user. They are computed once per number of slots, up
    to the largest cutoff, and a (user, cutoff) row reads the one for its
    min(n, k): no row of the truth is sorted or listed per user, and the truth
    is read once, by rw_user_truth_counts. The plan picks it when every cutoff
    is finite and at most 10000, so the slots stay fewer than the rows of the
    truth they replace. -#}
{% macro _stage_ideal_lists__equal_gains(spec) %}
    {#- relevance 1's gain, known when the SQL is rendered: 1, or 0 under a
        threshold above 1 (every gain function gives 1 for relevance 1) -#}
    {%- set earns_gain = 1 >= spec.min_gain_relevance if spec.min_gain_relevance is not none else true -%}
    {%- set term = rankwise.rank_discount('slot.rw_position') if earns_gain else '0e0' -%}
rw_equal_gain_idcg as (
    select
        slot.rw_position as rw_slots,
        sum({{ term }}) over (
            order by slot.rw_position rows between unbounded preceding and current row
        ) as rw_idcg
    from {{ rankwise._positions(spec.cutoffs | max) }} as slot
)
{%- endmacro %}

{#- The truth user's row: `alias` carries rw_n_truth_items (rw_user_truth_counts). -#}
{% macro _join_ideal_lists__equal_gains(alias, limit, spec) %}
    {{ return('left join rw_equal_gain_idcg as idcg\n        on idcg.rw_slots = least(' ~ alias ~ '.rw_n_truth_items, ' ~ limit ~ ')') }}
{% endmacro %}

{% macro _idcg_value__equal_gains(limit, spec) %}
    {{ return('coalesce(idcg.rw_idcg, 0)') }}
{% endmacro %}
