{#- The Hamming distance of two items: how many of their features differ
    (RecTools' PairwiseHammingDistanceCalculator counts them, it does not divide
    by the features). Two NULLs are equal. -#}
{% macro hamming_distance(first_features, second_features) %}
    {{- return(adapter.dispatch('hamming_distance', 'rankwise')(first_features, second_features)) -}}
{% endmacro %}

{% macro default__hamming_distance(first_features, second_features) -%}
    {%- set terms = [] -%}
    {%- for first in first_features -%}
        {%- do terms.append('case when ' ~ rankwise.null_safe_equals(first, second_features[loop.index0]) ~ ' then 0e0 else 1e0 end') -%}
    {%- endfor -%}
    ({{ terms | join(' + ') }})
{%- endmacro %}
