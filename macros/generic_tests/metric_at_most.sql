{#- dbt generic test on a table of means: fails with one row per group whose
    `metric_label` is above `threshold`, judged on `on` ('value', or 'ci_high').
    dbt's severity, warn_if and error_if apply. -#}
{% test metric_at_most(model, metric_label, threshold, on='value') %}
{{ rankwise._metric_gate(model, metric_label, threshold, on, 'metric_at_most') }}
{% endtest %}
