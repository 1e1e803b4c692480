{#- rbo and intersection of each model's lists against model_a's lists of the
    same user and fold, compared with seeds/expected__reference_overlap.csv, the
    values of the reference implementations (tests/reference/reference_overlap.py,
    whose METRICS, K and VARIANTS these are): users without a list of model_a
    have no value, or 0 under without_reference='zero'. -#}
{%- set recommendations = ref('input__comparison__recommendations') -%}
{%- set interactions = ref('input__comparison__interactions') -%}
{%- set common = {'metrics': ['rbo', 'rbo(p=0.5)', 'intersection'], 'k': [1, 3, 5], 'partition_by': ['example_id'],
                  'model_col': 'model', 'reference': 'model_a', 'relevance_col': 'relevance'} -%}
{%- set calls = [] -%}
{%- for variant in ['no_value', 'zero'] -%}
    {%- do calls.append((variant, rankwise.evaluate(recommendations, interactions, without_reference=variant, **common))) -%}
{%- endfor -%}
{{ variants_union(calls, ['example_id', 'model'], ['metric', 'metric_label', 'k', 'value', 'n_users']) }}
