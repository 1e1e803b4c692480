{#- The cases given (entries of var('rankwise_test_cases')), as means per
    example and per user, in the long shape of seeds/expected__cases.csv. -#}
{% macro cases_query(cases) %}
{%- set string_type = dbt.type_string() -%}
{%- for case in cases %}
{#- The cases check values, not intervals (those are checked against scipy in
    tests/crosscheck/test_intervals.py, and on every engine through the comparison
    model): without them, Spark's local session holds the union of every case's
    aggregates in its default memory. -#}
{%- set arguments = {'metrics': case.metrics, 'k': case.k, 'confidence': none} -%}
{%- do arguments.update({'partition_by' if case.partition_by else 'group_by': ['example_id']}) -%}
{%- do arguments.update(case.options) %}
select
    '{{ case.name }}' as variant,
    cast(example_id as {{ string_type }}) as example_id,
    cast(null as {{ string_type }}) as user_id,
    metric,
    k,
    value,
    n_users
from (
    {{ rankwise.evaluate(ref(case.recommendations), ref(case.interactions), **arguments) }}
) as means
{%- set user_level_metrics = case.metrics | reject('equalto', 'entropy') | list %}
{%- if user_level_metrics | length > 0 %}
{#- the means' call has checked these inputs under these options -#}
{%- do arguments.update({'metrics': user_level_metrics, 'per_user': true, 'validate': false}) %}

union all

select
    '{{ case.name }}' as variant,
    cast(example_id as {{ string_type }}) as example_id,
    cast(user_id as {{ string_type }}) as user_id,
    metric,
    k,
    value,
    cast(null as bigint) as n_users
from (
    {{ rankwise.evaluate(ref(case.recommendations), ref(case.interactions), **arguments) }}
) as per_user
{%- endif %}
{%- if not loop.last %}

union all
{%- endif %}
{%- endfor %}
{% endmacro %}
