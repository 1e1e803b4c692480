{#- Fails on every row present on one side only, or where a compared column
    differs by more than `tolerance` (NULL only equals NULL). Written here because
    the dbt hub, and so dbt_utils, is out of reach; it follows the null-safe
    `equals` of dbt-adapters' test kit. -#}
{% test equal_within_tolerance(model, expected, key_columns, compare, tolerance=1e-9) %}

with

actual as (select *, 1 as on_this_side from {{ model }}),

expected as (select *, 1 as on_this_side from {{ expected }}),

compared as (
    select
        {%- for key in key_columns %}
        coalesce(actual.{{ key }}, expected.{{ key }}) as {{ key }},
        {%- endfor %}
        case when actual.on_this_side is null then 'missing from actual'
             when expected.on_this_side is null then 'unexpected in actual'
             else 'values differ' end as problem
        {%- for actual_column, expected_column in compare.items() %},
        actual.{{ actual_column }} as actual_{{ actual_column }},
        expected.{{ expected_column }} as expected_{{ actual_column }}
        {%- endfor %}
    from actual
    full outer join expected
        on 1 = 1
        {%- for key in key_columns %}
        and {{ rankwise.null_safe_equals('actual.' ~ key, 'expected.' ~ key) }}
        {%- endfor %}
)

select *
from compared
where problem != 'values differ'
    {%- for actual_column, expected_column in compare.items() %}
    or (actual_{{ actual_column }} is null) != (expected_{{ actual_column }} is null)
    or abs(actual_{{ actual_column }} - expected_{{ actual_column }}) > {{ tolerance }}
    {%- endfor %}

{% endtest %}
