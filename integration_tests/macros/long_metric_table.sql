{#- Means and per-user values in the long shape of expected__cases: example_id,
    user_id (NULL for a mean), metric, k, value, n_users (NULL per user). -#}
{% macro long_metric_table(means, per_user) %}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(null as {{ dbt.type_string() }}) as user_id,
    metric,
    k,
    value,
    n_users
from {{ means }}

union all

select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(user_id as {{ dbt.type_string() }}) as user_id,
    metric,
    k,
    value,
    cast(null as bigint) as n_users
from {{ per_user }}
{%- endmacro %}
