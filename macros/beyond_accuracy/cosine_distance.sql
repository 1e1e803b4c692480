{#- The cosine distance of two vectors, 1 - a.b / (|a| |b|), from their dot
    product and norms: 0 for vectors of one direction, 1 for orthogonal ones,
    2 for opposite ones. A zero vector has no direction: NULL. -#}
{% macro cosine_distance(dot_product, first_norm, second_norm) %}
    {{- return(adapter.dispatch('cosine_distance', 'rankwise')(dot_product, first_norm, second_norm)) -}}
{% endmacro %}

{% macro default__cosine_distance(dot_product, first_norm, second_norm) -%}
    (1e0 - {{ rankwise.safe_divide(dot_product, '(' ~ first_norm ~ ') * (' ~ second_norm ~ ')') }})
{%- endmacro %}
