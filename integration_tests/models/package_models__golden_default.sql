{#- The package models, built from the vars of dbt_project.yml, in the long shape
    of expected__cases. -#}
{{ long_metric_table(ref('rankwise_metrics'), ref('rankwise_user_metrics')) }}
