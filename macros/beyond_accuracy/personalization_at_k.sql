{#- Personalization@k of one group (Evidently's): 1 - the mean, over the pairs of
    its U lists, of the items two top-k lists share divided by k. An item in e
    top-k lists is shared by e(e - 1)/2 pairs, so the mean needs no pair of
    users: 1 - sum_i e_i (e_i - 1) / (U (U - 1) k). NULL for fewer than 2 lists. -#}
{% macro personalization_at_k(exposure_pairs, n_lists, k) %}
    {{- return(adapter.dispatch('personalization_at_k', 'rankwise')(exposure_pairs, n_lists, k)) -}}
{% endmacro %}

{% macro default__personalization_at_k(exposure_pairs, n_lists, k) -%}
    {%- set float = rankwise.type_float64() -%}
    (1e0 - {{ rankwise.safe_divide(exposure_pairs, 'cast(' ~ n_lists ~ ' as ' ~ float ~ ') * cast(' ~ n_lists ~ ' - 1 as ' ~ float ~ ') * cast(' ~ k ~ ' as ' ~ float ~ ')') }})
{%- endmacro %}
