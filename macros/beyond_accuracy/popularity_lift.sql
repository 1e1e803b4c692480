{#- Popularity lift of one list (Abdollahpouri, Mansoury, Burke & Mobasher
    2019, "The unfairness of popularity bias in recommendation"): how much more
    popular the list's items are than the user's own train items, (list mean -
    profile mean) / profile mean. Both means are of one popularity measure, so
    a share's denominator (the train users or rows) cancels and raw counts may
    be given. NULL when the user has no train item (profile mean NULL or 0). -#}
{% macro popularity_lift(list_mean_popularity, profile_mean_popularity) %}
    {{- return(adapter.dispatch('popularity_lift', 'rankwise')(list_mean_popularity, profile_mean_popularity)) -}}
{% endmacro %}

{% macro default__popularity_lift(list_mean_popularity, profile_mean_popularity) -%}
    ({{ rankwise.safe_divide(list_mean_popularity, profile_mean_popularity) }} - 1e0)
{%- endmacro %}
