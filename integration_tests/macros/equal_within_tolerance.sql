{#- Fails on every key present on one side only or more than once on a side, or
    where a compared column differs by more than `tolerance` (NULL only equals
    NULL). Written here because the dbt hub, and so dbt_utils, is out of reach;
    it follows the null-safe `equals` of dbt-adapters' test kit. The two sides
    are stacked and grouped rather than joined: GROUP BY matches NULL keys on
    every engine, where PostgreSQL cannot FULL JOIN on IS NOT DISTINCT FROM. -#}
{% test equal_within_tolerance(model, expected, key_columns, compare, tolerance=1e-9) %}
{%- set float64 = rankwise.type_float64() -%}

with

stacked as (
    select
        {%- for key in key_columns %}
        {{ key }},
        {%- endfor %}
        {%- for actual_column in compare %}
        cast({{ actual_column }} as {{ float64 }}) as actual_{{ actual_column }},
        cast(null as {{ float64 }}) as expected_{{ actual_column }},
        {%- endfor %}
        1 as in_actual,
        0 as in_expected
    from {{ model }}

    union all

    select
        {%- for key in key_columns %}
        {{ key }},
        {%- endfor %}
        {%- for actual_column, expected_column in compare.items() %}
        cast(null as {{ float64 }}) as actual_{{ actual_column }},
        cast({{ expected_column }} as {{ float64 }}) as expected_{{ actual_column }},
        {%- endfor %}
        0 as in_actual,
        1 as in_expected
    from {{ expected }}
),

compared as (
    select
        {%- for key in key_columns %}
        {{ key }},
        {%- endfor %}
        sum(in_actual) as n_actual,
        sum(in_expected) as n_expected
        {%- for actual_column in compare %},
        max(actual_{{ actual_column }}) as actual_{{ actual_column }},
        max(expected_{{ actual_column }}) as expected_{{ actual_column }}
        {%- endfor %}
    from stacked
    group by {{ key_columns | join(', ') }}
)

select *
from compared
where n_actual != 1
    or n_expected != 1
    {%- for actual_column in compare %}
    or (actual_{{ actual_column }} is null and expected_{{ actual_column }} is not null)
    or (actual_{{ actual_column }} is not null and expected_{{ actual_column }} is null)
    or abs(actual_{{ actual_column }} - expected_{{ actual_column }}) > {{ tolerance }}
    {%- endfor %}

{% endtest %}
