{#- The package model rankwise_comparison (with its margin), for the gate
    not_worse_than_baseline (models/schema.yml): it must find exactly the rows
    whose expected non-inferiority p-value is not below alpha, on every engine. -#}
select * from {{ ref('rankwise', 'rankwise_comparison') }}
