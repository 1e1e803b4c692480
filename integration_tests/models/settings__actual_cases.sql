{#- Some cases again, under the engine's non-default session settings (see
    macros/session_settings.sql); off where there are none to set. -#}
{%- set settings = session_settings() -%}
{{ config(enabled=true,
          pre_hook=settings | map(attribute=0) | list,
          post_hook=settings | map(attribute=1) | list) }}
{%- set cases = [] -%}
{%- for case in var('rankwise_test_cases') if case.name in var('rankwise_settings_cases') %}{% do cases.append(case) %}{% endfor -%}
{%- if settings | length > 0 %}
{{ cases_query(cases) }}
{%- else %}
select variant, example_id, user_id, metric, k, expected_value as value, expected_n_users as n_users
from {{ ref('settings__expected_cases') }}
{%- endif %}
