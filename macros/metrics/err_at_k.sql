{#- Expected reciprocal rank@k (Chapelle, Metzler, Zhang & Grinspan 2009,
    "Expected reciprocal rank for graded relevance", CIKM): a user
    reads down the list and stops at rank r with chance R_r (see
    err_stop_probability), so ERR@k = sum over ranks r <= k of
    (1 / r) R_r prod over i < r of (1 - R_i). An aggregate over the rows of one
    list: `stop_probability` is R_r and `continuation_before` the product over
    the ranks before the row (1 at rank 1). `k` may be a column of cutoffs. -#}
{% macro err_at_k(rank, stop_probability, continuation_before, k=none) %}
    {%- do rankwise._check_cutoff('err_at_k', k, column_allowed=true) -%}
    {{- return(adapter.dispatch('err_at_k', 'rankwise')(rank, stop_probability, continuation_before, k)) -}}
{% endmacro %}

{% macro default__err_at_k(rank, stop_probability, continuation_before, k) -%}
    sum(case when {{ rankwise._within_cutoff(rank, k if k is not string else rankwise._cutoff_or(k, rank)) }}
        then ({{ stop_probability }}) * ({{ continuation_before }}) / cast({{ rank }} as {{ rankwise.type_float64() }}) else 0e0 end)
{%- endmacro %}
