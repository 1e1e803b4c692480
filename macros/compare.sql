{#- rankwise.compare: is one model better than another? Per (group, metric, k,
    model, baseline), the paired difference of the models' per-user values over
    the users both are scored on (evaluate's population rule), with its Student t
    interval, Cohen's d_z, the two-sided paired t test and, when asked, a sign-flip
    randomization test, a Poisson bootstrap interval, and with a `margin` the
    one-sided non-inferiority test (and with `equivalence` the two one-sided
    tests of equivalence); p-values corrected over every row (Holm or
    Benjamini-Hochberg); and the smallest difference the t test would detect
    with 80% power. Everything is SQL built from functions DuckDB, PostgreSQL
    and Spark share (macros/statistics/); docs/statistics.md has the formulas
    and when to use which test.

    `model_col` names the column of the recommendations that tells the models
    apart; `baseline` is one of its values (each other model is compared with it),
    or none to compare every pair once. The options (columns and conventions,
    keyword arguments) mean what they mean in evaluate. -#}
{% macro compare(recommendations, interactions, metrics=none, k=none, model_col='model', baseline=none, group_by=none,
                 partition_by=none, confidence=0.95, tests=['t'], n_resamples=1000, seed=0, correction='holm', alpha=0.05,
                 margin=none, equivalence=false, items=none, train=none, validate=true) %}
    {%- set spec = rankwise._comparison_spec(metrics, k, model_col, baseline, group_by, partition_by, confidence, tests, n_resamples,
                                             seed, correction, alpha, margin, equivalence, items, train, kwargs) -%}
    {%- do rankwise._check_relation_columns(recommendations, interactions, spec.columns_read,
                                            {'items': spec.items_relation, 'train': spec.train_relation}) -%}
    {%- if rankwise._dbt_is_parsing() -%}{{ return('') }}{%- endif -%}
    {%- do rankwise._validated_call('compare', validate, recommendations, interactions, kwargs,
                                    rankwise._as_list(group_by) + [model_col], partition_by, spec.items_relation, spec.train_relation) -%}
    {{- return(adapter.dispatch('compare', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- The plan's stages: evaluate's up to each user's values (the per-user
    metrics') and each list's values (the list-level metrics'), with the model
    as the last group column, then the comparison's own (macros/compare/). -#}
{% macro default__compare(recommendations, interactions, spec) -%}
{%- do spec.update({'relations': {'recommendations': recommendations, 'interactions': interactions,
                                  'items': spec.items_relation, 'train': spec.train_relation}}) -%}
{%- set query -%}
with

{{ rankwise._written_stages(spec) | join(',\n\n') }}

{{ rankwise._written_outputs(spec) | join('') }}
{%- endset -%}
{{ rankwise._wrapped_lines(query) }}
{%- endmacro %}
