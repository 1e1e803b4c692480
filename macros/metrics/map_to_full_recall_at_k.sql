{#- The "mAP" of document 001 (docs/metrics.md, Sources), which is not average precision: the mean of P@i over
    every rank i = 1..r, where r is the rank at which recall reaches 1 (the list
    length when it never does), cut at k. Offered under its own name so that the
    document's figures can be reproduced on purpose; use `map` for AP.
    0 for a user with no relevant item. -#}
{% macro map_to_full_recall_at_k(precision_sum_to_full_recall, ranks_to_full_recall) %}
    {{- return(adapter.dispatch('map_to_full_recall_at_k', 'rankwise')(precision_sum_to_full_recall, ranks_to_full_recall)) -}}
{% endmacro %}

{% macro default__map_to_full_recall_at_k(precision_sum_to_full_recall, ranks_to_full_recall) -%}
    coalesce({{ rankwise.safe_divide(precision_sum_to_full_recall, ranks_to_full_recall) }}, 0)
{%- endmacro %}
