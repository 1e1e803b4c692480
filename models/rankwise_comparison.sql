{#- Opt-in package model: every model compared with the baseline (or every pair),
    per group, metric and k, with intervals and tests. Enabled when the project
    sets var('rankwise_comparison'); see models/rankwise_models.yml. -#}
{{ config(enabled=var('rankwise_comparison', none) is not none) }}
{%- if var('rankwise_comparison', none) is not none %}
{{ rankwise._package_comparison_query() }}
{%- endif %}
