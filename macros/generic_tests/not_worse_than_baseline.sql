{#- dbt generic test on a comparison built with a margin (rankwise.compare,
    rankwise_comparison): fails with one row per (group, metric, k, model) where
    the model is not shown to be no worse than the baseline by more than the
    margin, a one-sided non-inferiority test with compare's correction over
    every row: p_non_inferiority_adjusted not below `alpha`. The failing rows
    name the group, metric, model, diff and p-values. dbt's severity, warn_if
    and error_if apply. -#}
{% test not_worse_than_baseline(model, alpha=0.05) %}
{{ rankwise._non_inferiority_gate(model, alpha) }}
{% endtest %}
