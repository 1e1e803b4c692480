{#- The chance p^(rank-1) that a user reading on with chance p at each rank
    reaches rank `rank` (RBP's weight; LensKit's GeometricRankWeight); NULL for
    a NULL rank. 0 below
    e^-700: PostgreSQL raises an error where a power underflows to 0, and such a
    weight adds nothing a double can hold beside the first ranks'. -#}
{% macro rank_biased_weight(rank, p=0.8) %}
    {%- do rankwise._check_probability('rank_biased_weight', 'p', p) -%}
    {{- return(adapter.dispatch('rank_biased_weight', 'rankwise')(rank, p)) -}}
{% endmacro %}

{% macro default__rank_biased_weight(rank, p) -%}
    {%- set literal = rankwise._double_literal(p) -%}
    (case when (({{ rank }}) - 1) * ln({{ literal }}) < -7e2 then 0e0 else power({{ literal }}, ({{ rank }}) - 1) end)
{%- endmacro %}
