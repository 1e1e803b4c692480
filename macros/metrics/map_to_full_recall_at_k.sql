{#- The "mAP" of document 001, which is not average precision: the mean of P@i over
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

{#- A rank i is at or before full recall when the relevant items strictly before it
    are still fewer than R: hits_so_far - is_relevant < R. This needs no second
    pass to find r first. -#}
{% macro _before_full_recall() %}
    {{- return('rw_hits_so_far - rw_is_relevant < rw_n_relevant') -}}
{% endmacro %}

{% macro _precision_sum_to_full_recall(k) %}
    {{- return('sum(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and ' ~ rankwise._before_full_recall() ~ ' then '
        ~ rankwise.safe_divide('rw_hits_so_far', 'rw_rank') ~ ' else 0 end)') -}}
{% endmacro %}

{% macro _ranks_to_full_recall(k) %}
    {{- return('count(case when ' ~ rankwise._within_cutoff('rw_rank', k) ~ ' and ' ~ rankwise._before_full_recall() ~ ' then 1 end)') -}}
{% endmacro %}
