{#- rankwise.exposure_by_item_group on the inputs of exposure__actual, compared
    with seeds/expected__exposure_by_item_group.csv (tests/reference/exposure.py):
    every genre of the catalog in every (fold, model, k), the ratio NULL where a
    genre has no relevant pair. -#}
{%- set common = {'k': [1, 3, 5], 'group_by': ['model'], 'partition_by': ['example_id'], 'item_group_col': 'genre'} -%}
{%- set variants = [('dcg', 'dcg', 0.8), ('rbp_half', 'rbp', 0.5)] -%}
{%- set calls = [] -%}
{%- for variant, exposure_model, persistence in variants -%}
    {%- do calls.append((variant, rankwise.exposure_by_item_group(ref('input__beyond__recommendations'),
        ref('input__beyond__interactions'), ref('input__beyond__items'), exposure_model=exposure_model,
        exposure_persistence=persistence, **common))) -%}
{%- endfor -%}
{{ variants_union(calls, ['example_id', 'model', 'item_group'],
                  ['k', 'n_items', 'exposure', 'exposure_share', 'n_relevant_pairs', 'relevance_share', 'exposure_ratio']) }}
