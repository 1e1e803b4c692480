{#- Opt-in package model: each item group's share of the exposure and of the
    relevant pairs (rankwise.exposure_by_item_group). Enabled when the project
    sets var('rankwise_recommendations'), var('rankwise_items') and
    item_group_col in var('rankwise_options'); see models/rankwise_models.yml. -#}
{%- set enabled = var('rankwise_recommendations', none) is not none and var('rankwise_items', none) is not none
                  and var('rankwise_options', {}).get('item_group_col') is not none -%}
{{ config(enabled=enabled) }}
{%- if enabled %}
{{ rankwise._package_model_query(per_user=false, exposure_by_item_group=true) }}
{%- endif %}
