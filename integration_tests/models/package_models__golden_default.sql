{#- The package models, built from the vars of dbt_project.yml, in the long shape
    of expected__cases. -#}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(null as {{ dbt.type_string() }}) as user_id,
    metric,
    k,
    value,
    n_users
from {{ ref('rankwise_metrics') }}

union all

select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(user_id as {{ dbt.type_string() }}) as user_id,
    metric,
    k,
    value,
    cast(null as bigint) as n_users
from {{ ref('rankwise_user_metrics') }}
