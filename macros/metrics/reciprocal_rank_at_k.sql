{#- Reciprocal rank@k = 1 / (rank of the first relevant item) when that rank is
    <= k, else 0. Its mean over users is MRR. `k` may be a column of cutoffs. -#}
{% macro reciprocal_rank_at_k(first_relevant_rank, k=none) %}
    {%- do rankwise._check_cutoff('reciprocal_rank_at_k', k, column_allowed=true) -%}
    {{- return(adapter.dispatch('reciprocal_rank_at_k', 'rankwise')(first_relevant_rank, k)) -}}
{% endmacro %}

{% macro default__reciprocal_rank_at_k(first_relevant_rank, k) -%}
    (case when {{ rankwise._within_cutoff(first_relevant_rank, k if k is not string else rankwise._cutoff_or(k, first_relevant_rank)) }} then coalesce({{ rankwise.safe_divide(1, first_relevant_rank) }}, 0) else 0 end)
{%- endmacro %}
