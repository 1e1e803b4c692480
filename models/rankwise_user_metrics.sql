{#- Opt-in package model: every user's metric values with their components, for
    drill-down. Enabled when the project sets var('rankwise_recommendations');
    see models/rankwise_models.yml. -#}
{{ config(enabled=var('rankwise_recommendations', none) is not none) }}
{%- if var('rankwise_recommendations', none) is not none %}
{{ rankwise._package_model_query(per_user=true) }}
{%- endif %}
