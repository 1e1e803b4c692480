{#- The serendipity of one recommended item (RecTools' Serendipity, after Kotkov
    et al. 2016): for a relevant item, how much more likely the list makes it
    than its popularity does, max(0, p - pu) with p = (N + 1 - rank) / N and
    pu = (N + 1 - popularity rank) / N over a catalog of N items; pu is 0 for
    an item nobody interacted with in train; an item not relevant scores 0. -#}
{% macro item_serendipity(rank, popularity_rank, catalog_size, relevant) %}
    {{- return(adapter.dispatch('item_serendipity', 'rankwise')(rank, popularity_rank, catalog_size, relevant)) -}}
{% endmacro %}

{% macro default__item_serendipity(rank, popularity_rank, catalog_size, relevant) -%}
    {%- set float = rankwise.type_float64() -%}
    {%- set size = 'cast(' ~ catalog_size ~ ' as ' ~ float ~ ')' -%}
    (case when ({{ relevant }}) = 1 then greatest(0e0,
        (({{ size }} + 1 - ({{ rank }})) / {{ size }})
        - coalesce(({{ size }} + 1 - ({{ popularity_rank }})) / {{ size }}, 0e0))
     else 0e0 end)
{%- endmacro %}
