{#- The rows of a table of means (rankwise.evaluate's output, or a package
    model) that fail a gate on `metric_label`: its column `on` (value, ci_low or
    ci_high) below `threshold` ('at_least') or above it ('at_most'), or missing.
    Each failing row keeps its columns (groups, partitions, metric, k, value...)
    and gains rw_gate and rw_bound. The dbt generic tests metric_at_least and
    metric_at_most run it; rankwise.failing_metrics applies the same rule. A
    label the table does not hold is an error, not a pass. -#}
{% macro _metric_gate(model, metric_label, threshold, on, gate) %}
    {%- do rankwise._check_choice(gate, 'on', on, ['value', 'ci_low', 'ci_high']) -%}
    {%- if metric_label is not string or metric_label | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ gate ~ ": argument `metric_label` must be a metric as the table labels it, such as 'ndcg@10'; got " ~ rankwise._describe(metric_label) ~ ".") }}
    {%- endif -%}
    {%- set bound = rankwise._number_literal(gate, 'threshold', threshold) -%}
    {%- set label = rankwise._string_literal(metric_label) -%}
    {%- if execute -%}
        {%- set found = run_query('select count(*) from ' ~ model ~ ' where metric_label = ' ~ label) -%}
        {%- if found.rows[0][0] == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ gate ~ ": " ~ model ~ " has no rows of metric '" ~ metric_label ~ "' to gate.") }}
        {%- endif -%}
    {%- endif -%}
    {%- set holds = on ~ (' >= ' if gate == 'metric_at_least' else ' <= ') ~ bound -%}
select
    gated.*,
    {{ rankwise._string_literal(gate) }} as rw_gate,
    {{ bound }} as rw_bound
from {{ model }} as gated
where gated.metric_label = {{ label }}
    and not coalesce(gated.{{ holds }}, false)
{%- endmacro %}

{#- The rows of a comparison (rankwise.compare with a margin, or the package
    model rankwise_comparison) where the model is not shown to be no worse than
    the baseline by more than the margin: p_non_inferiority_adjusted not below
    `alpha`, or missing. The dbt generic test not_worse_than_baseline runs it;
    rankwise.failing_comparisons applies the same rule. -#}
{% macro _non_inferiority_gate(model, alpha) %}
    {%- if not (alpha is number and alpha is not boolean and alpha > 0 and alpha < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.not_worse_than_baseline: argument `alpha` must be a number strictly between 0 and 1; got " ~ rankwise._describe(alpha) ~ ".") }}
    {%- endif -%}
    {%- if execute -%}
        {%- set columns = adapter.get_columns_in_relation(model) | map(attribute='name') | map('lower') | list -%}
        {%- if columns | length > 0 and 'p_non_inferiority_adjusted' not in columns -%}
            {{ exceptions.raise_compiler_error("rankwise.not_worse_than_baseline: " ~ model ~ " has no column p_non_inferiority_adjusted: build it with rankwise.compare and a `margin` (how much worse still counts as no worse).") }}
        {%- endif -%}
    {%- endif -%}
select
    compared.*,
    {{ rankwise._double_literal(alpha) }} as rw_alpha
from {{ model }} as compared
where not coalesce(compared.p_non_inferiority_adjusted < {{ rankwise._double_literal(alpha) }}, false)
{%- endmacro %}
