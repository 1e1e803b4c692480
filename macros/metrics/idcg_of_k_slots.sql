{#- RecTools' IDCG@k (NDCG with divide_by_achievable=False): every one of the k
    slots holds a relevant item of gain 1, whatever the user's truth holds. A
    constant: sum over i = 1..k of 1 / log2(i + 1), a sum over a series of
    positions (not one SQL term per position, so a large k stays a short query). -#}
{% macro idcg_of_k_slots(k) %}
    {%- do rankwise._check_cutoff('idcg_of_k_slots', k) -%}
    {%- if k is none -%}
        {{ exceptions.raise_compiler_error("rankwise.idcg_of_k_slots: argument `k` must be a positive integer; the whole list has no fixed number of slots.") }}
    {%- endif -%}
    {{- return(adapter.dispatch('idcg_of_k_slots', 'rankwise')(k)) -}}
{% endmacro %}

{% macro default__idcg_of_k_slots(k) -%}
    (select sum({{ rankwise.rank_discount('rw_position') }}) from {{ rankwise._positions(k) }} as rw_slots)
{%- endmacro %}
