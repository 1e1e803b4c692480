{#- The novelty of one recommended item, in bits: -log2(p), p its share of the
    train table's users (or interactions) who interacted with it. An item nobody
    interacted with counts as one (RecTools' MeanInvUserFreq), the most novel an
    item can be, rather than an infinite self-information. -#}
{% macro item_novelty(item_count, train_count) %}
    {{- return(adapter.dispatch('item_novelty', 'rankwise')(item_count, train_count)) -}}
{% endmacro %}

{% macro default__item_novelty(item_count, train_count) -%}
    {%- set float = rankwise.type_float64() -%}
    (-ln(cast(coalesce({{ item_count }}, 1) as {{ float }}) / cast({{ train_count }} as {{ float }})) / ln(2e0))
{%- endmacro %}
