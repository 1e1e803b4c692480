{#- Opt-in package model: the metric means per group. Enabled when the project sets
    var('rankwise_recommendations'); see models/rankwise_models.yml. -#}
{{ config(enabled=var('rankwise_recommendations', none) is not none,
          post_hook="{{ rankwise._log_coverage_warnings(this) }}") }}
{%- if var('rankwise_recommendations', none) is not none %}
{{ rankwise._package_model_query(per_user=false) }}
{%- endif %}
