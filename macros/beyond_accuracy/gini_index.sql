{#- The Gini index of how the top-k slots of one group's lists spread over the
    catalog: 0 when every catalog item fills as many slots, (n - 1) / n when one
    item fills them all. With the n catalog items' exposure counts c_i sorted
    ascending (the items never shown count 0 and come first),
    G = sum_i (2i - n - 1) c_i / (n sum_i c_i). The m items shown at any rank are
    numbered 1..m ascending (`ascending_weighted_exposures` = sum of position x
    count over them); their place among the n is n - m + position, which gives
    (2 sum(position c) + (n - 2m - 1) sum(c)) / (n sum(c)). Ties may be numbered
    in any order: equal counts add the same. `normalizer` replaces the n that
    divides (Evidently divides by n - 1 and takes for n the items shown within
    k, passed as `catalog_size`: the items numbered before them have count 0). -#}
{% macro gini_index(ascending_weighted_exposures, exposures, n_items_shown, catalog_size, normalizer=none) %}
    {{- return(adapter.dispatch('gini_index', 'rankwise')(ascending_weighted_exposures, exposures, n_items_shown, catalog_size, normalizer)) -}}
{% endmacro %}

{% macro default__gini_index(ascending_weighted_exposures, exposures, n_items_shown, catalog_size, normalizer) -%}
    {%- set float = rankwise.type_float64() -%}
    {{ rankwise.safe_divide(
        '2 * cast(' ~ ascending_weighted_exposures ~ ' as ' ~ float ~ ') + cast(' ~ catalog_size ~ ' - 2 * ' ~ n_items_shown ~ ' - 1 as ' ~ float ~ ') * cast(' ~ exposures ~ ' as ' ~ float ~ ')',
        'cast(' ~ (catalog_size if normalizer is none else normalizer) ~ ' as ' ~ float ~ ') * cast(' ~ exposures ~ ' as ' ~ float ~ ')') }}
{%- endmacro %}
