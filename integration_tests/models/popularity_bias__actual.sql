{#- popularity_lift and miscalibration of two models in two folds, each fold
    with its own train interactions (seeds/input__popularity__train.csv, the
    lists' own users), the catalog's genre as the item group, compared with
    seeds/expected__popularity_bias.csv, the values of the reference
    implementations (tests/reference/popularity_seeds.py, whose K and VARIANTS
    these are). -#}
{%- set recommendations = ref('input__beyond__recommendations') -%}
{%- set interactions = ref('input__beyond__interactions') -%}
{%- set common = {'k': [1, 3, 5], 'group_by': ['model'], 'partition_by': ['example_id'],
                  'train': ref('input__popularity__train'), 'items': ref('input__beyond__items'),
                  'item_group_col': 'genre'} -%}
{#- the second call reads the inputs the first has checked, under the same checks -#}
{%- set calls = [
    ('default', rankwise.evaluate(recommendations, interactions, metrics=['popularity_lift', 'miscalibration'], **common)),
    ('interactions_alpha', rankwise.evaluate(recommendations, interactions,
        metrics=['popularity_lift', 'miscalibration(alpha=0.1)'], arp_popularity='interactions', validate=false, **common)),
] -%}
{{ variants_union(calls, ['example_id', 'model'], ['metric_label', 'value', 'n_users']) }}
