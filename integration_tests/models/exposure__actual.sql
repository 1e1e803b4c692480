{#- exposure_gini and exposure_disparity (item groups: the catalog's genre) of
    two models in two folds, each fold's relevance shares from its own
    interactions, under exposure_model='dcg' and 'rbp' with persistence 0.5,
    compared with seeds/expected__exposure.csv, the values of the reference
    implementations (tests/reference/exposure.py, whose K, ITEM_GROUP_COL and
    VARIANTS these are). -#}
{%- set recommendations = ref('input__beyond__recommendations') -%}
{%- set interactions = ref('input__beyond__interactions') -%}
{%- set common = {'metrics': ['exposure_gini', 'exposure_disparity'], 'k': [1, 3, 5], 'group_by': ['model'],
                  'partition_by': ['example_id'], 'items': ref('input__beyond__items'), 'item_group_col': 'genre'} -%}
{%- set variants = [('dcg', 'dcg', 0.8), ('rbp_half', 'rbp', 0.5)] -%}
{%- set calls = [] -%}
{%- for variant, exposure_model, persistence in variants -%}
    {%- do calls.append((variant, rankwise.evaluate(recommendations, interactions, exposure_model=exposure_model,
                                                    exposure_persistence=persistence, **common))) -%}
{%- endfor -%}
{{ variants_union(calls, ['example_id', 'model'], ['metric', 'metric_label', 'k', 'value', 'n_users']) }}
