{#- The day-by-day calendar MetricFlow joins time dimensions to (the semantic
    layer of semantic_layer.yml needs one to parse). -#}
{{ config(materialized='table') }}
select cast(date_day as date) as date_day
from ({{ dbt.date_spine('day', "cast('2025-01-01' as date)", "cast('2031-01-01' as date)") }}) as days
