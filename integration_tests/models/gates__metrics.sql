{#- The package model rankwise_metrics, for the gates' tests (models/schema.yml):
    metric_at_least and metric_at_most must find exactly the examples the
    expected values put outside their bounds, on every engine. -#}
select * from {{ ref('rankwise', 'rankwise_metrics') }}
