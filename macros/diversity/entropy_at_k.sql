{#- Shannon entropy diversity@k of one group (model, run...): H = -sum p log p over
    the items, where p is an item's share of all the top-k slots of the group's
    lists. 0 when every list shows the same item; ln(n) when n items are shown
    equally often. An aggregate over one row per item holding its `share`. -#}
{% macro entropy_at_k(share, log_base=none) %}
    {%- do rankwise._check_log_base('entropy_at_k', log_base) -%}
    {{- return(adapter.dispatch('entropy_at_k', 'rankwise')(share, log_base)) -}}
{% endmacro %}

{% macro default__entropy_at_k(share, log_base) -%}
    sum(case when ({{ share }}) > 0 then ({{ share }}) * {{ rankwise.self_information(share, log_base) }} else 0 end)
{%- endmacro %}
