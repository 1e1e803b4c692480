{#- F1@k, the harmonic mean of precision@k and recall@k. With P = h/d and
    R = h/n it reduces to 2h / (d + n), which needs no special case when h = 0.
    d is k, or the list length under `precision_denominator='list_length'` or with
    no cutoff, exactly as in precision_at_k; `k` may be a column of cutoffs.
    `recall_weight` x weighs recall against precision, (x + 1) P R / (x P + R)
    (trec_eval's set_F), which reduces to (x + 1) h / (d + x n). -#}
{% macro f1_at_k(hits, n_relevant, k=none, n_recommended=none, precision_denominator='k', recall_weight=1) %}
    {%- do rankwise._check_cutoff('f1_at_k', k, column_allowed=true) -%}
    {%- do rankwise._check_choice('f1_at_k', 'precision_denominator', precision_denominator, ['k', 'list_length']) -%}
    {%- do rankwise._number_literal('f1_at_k', 'recall_weight', recall_weight) -%}
    {%- if recall_weight <= 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.f1_at_k: argument `recall_weight` must be above 0; got " ~ recall_weight ~ ".") }}
    {%- endif -%}
    {%- if (k is none or precision_denominator == 'list_length') and n_recommended is none -%}
        {{ exceptions.raise_compiler_error("rankwise.f1_at_k: argument `n_recommended` is required when k is none or precision_denominator is 'list_length'.") }}
    {%- endif -%}
    {{- return(adapter.dispatch('f1_at_k', 'rankwise')(hits, n_relevant, k, n_recommended, precision_denominator, recall_weight)) -}}
{% endmacro %}

{% macro default__f1_at_k(hits, n_relevant, k, n_recommended, precision_denominator, recall_weight=1) -%}
    {%- set precision_denominator_sql = rankwise._cutoff_or(k, n_recommended) if precision_denominator == 'k' else n_recommended -%}
    {%- if recall_weight == 1 -%}
    {#- in floating point: k + R may be past the largest BIGINT -#}
    coalesce({{ rankwise.safe_divide('2 * (' ~ hits ~ ')', 'cast(' ~ precision_denominator_sql ~ ' as ' ~ rankwise.type_float64() ~ ') + (' ~ n_relevant ~ ')') }}, 0)
    {%- else -%}
    {%- set weight = rankwise._double_literal(recall_weight) -%}
    coalesce({{ rankwise.safe_divide('(' ~ weight ~ ' + 1) * (' ~ hits ~ ')', 'cast(' ~ precision_denominator_sql ~ ' as ' ~ rankwise.type_float64() ~ ') + ' ~ weight ~ ' * (' ~ n_relevant ~ ')') }}, 0)
    {%- endif -%}
{%- endmacro %}
