{#- The co-occurrence distance of two items, 1 - c(i,j) / sqrt(c(i) c(j)), with
    c(i,j) the train users who interacted with both and c(i) those who
    interacted with i (Microsoft Recommenders' item_cooccurrence_count, after
    Zhang et al. 2012, "Auralist"). Items never seen together, or never seen,
    are at distance 1. -#}
{% macro cooccurrence_distance(users_of_both, users_of_first, users_of_second) %}
    {{- return(adapter.dispatch('cooccurrence_distance', 'rankwise')(users_of_both, users_of_first, users_of_second)) -}}
{% endmacro %}

{% macro default__cooccurrence_distance(users_of_both, users_of_first, users_of_second) -%}
    {%- set float = rankwise.type_float64() -%}
    (1e0 - coalesce(cast({{ users_of_both }} as {{ float }}) / sqrt(cast({{ users_of_first }} as {{ float }}) * cast({{ users_of_second }} as {{ float }})), 0e0))
{%- endmacro %}
