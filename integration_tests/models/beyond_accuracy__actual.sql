{#- The beyond-accuracy metrics on two models in two folds, each fold with its
    own train interactions, compared with seeds/expected__beyond_accuracy.csv,
    the values of the reference implementations of
    tests/reference/beyond_accuracy.py (the arguments are its METRICS, K,
    OPTIONS, DIVERSITY_VARIANTS and POPULARITY_VARIANTS): every metric with
    rankwise's defaults, intra_list_diversity by the cosine of the item
    vectors, intra_list_diversity in each other variant (a list of one item
    scoring 0 in hamming_single_zero, as RecTools), then Evidently's and
    Recommenders' coverage, gini and novelty. -#}
{%- set recommendations = ref('input__beyond__recommendations') -%}
{%- set interactions = ref('input__beyond__interactions') -%}
{%- set common = {'k': [1, 3, 5], 'group_by': ['model'], 'partition_by': ['example_id'], 'train': ref('input__beyond__train')} -%}
{#- validate=false: a call whose inputs an earlier call has checked under the same checks -#}
{%- set calls = [
    ('default', rankwise.evaluate(recommendations, interactions,
        metrics=['coverage', 'gini', 'personalization', 'novelty', 'arp', 'long_tail_share', 'serendipity', 'intra_list_diversity'],
        items=ref('input__beyond__item_vectors'), item_vector_col='vector', head_share=0.6, **common)),
    ('hamming_list_length', rankwise.evaluate(recommendations, interactions, metrics=['intra_list_diversity'],
        items=ref('input__beyond__items'), item_distance='hamming', item_feature_cols=['genre', 'era'],
        diversity_denominator='list_length', **common)),
    ('cooccurrence', rankwise.evaluate(recommendations, interactions, metrics=['intra_list_diversity'],
        item_distance='cooccurrence', validate=false, **common)),
    ('hamming_single_zero', rankwise.evaluate(recommendations, interactions, metrics=['intra_list_diversity'],
        items=ref('input__beyond__items'), item_distance='hamming', item_feature_cols=['genre', 'era'],
        single_item_diversity='zero', validate=false, **common)),
    ('evidently', rankwise.evaluate(recommendations, interactions, metrics=['coverage', 'gini', 'novelty'],
        coverage_of='train_items', gini_items='shown', novelty_unseen='dropped', validate=false, **common)),
    ('recommenders', rankwise.evaluate(recommendations, interactions, metrics=['coverage', 'novelty'],
        coverage_of='train_item_count', novelty_popularity='interactions', novelty_unseen='zero', validate=false, **common)),
] -%}
{{ variants_union(calls, ['example_id', 'model'], ['metric', 'k', 'value', 'n_users']) }}
