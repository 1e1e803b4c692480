{#- dbt generic test on a table of means (rankwise.evaluate, rankwise_metrics):
    fails with one row per group whose `metric_label` ('ndcg@10') is below
    `threshold`, judged on `on` ('value', or 'ci_low' for a gate that must hold
    with the interval's confidence). dbt's severity, warn_if and error_if apply. -#}
{% test metric_at_least(model, metric_label, threshold, on='value') %}
{{ rankwise._metric_gate(model, metric_label, threshold, on, 'metric_at_least') }}
{% endtest %}
