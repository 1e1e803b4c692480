select *
from {{ ref('expected__cases') }}
where variant in ({% for name in var('rankwise_settings_cases') %}'{{ name }}'{{ ', ' if not loop.last }}{% endfor %})
{%- if session_settings() | length == 0 %}
    and 1 = 0
{%- endif %}
