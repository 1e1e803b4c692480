{#- The beyond-accuracy metrics on two models in two folds, each fold with its
    own train interactions, compared with seeds/expected__beyond_accuracy.csv,
    the values of the reference implementations of
    tests/reference/beyond_accuracy.py (the arguments are its METRICS, K,
    OPTIONS and DIVERSITY_VARIANTS): every metric with rankwise's defaults,
    intra_list_diversity by the cosine of the item vectors, then
    intra_list_diversity in each other variant. -#}
{%- set recommendations = ref('input__beyond__recommendations') -%}
{%- set interactions = ref('input__beyond__interactions') -%}
{%- set common = {'k': [1, 3, 5], 'group_by': ['model'], 'partition_by': ['example_id'], 'train': ref('input__beyond__train')} -%}
{%- set calls = [
    ('default', rankwise.evaluate(recommendations, interactions,
        metrics=['coverage', 'gini', 'personalization', 'novelty', 'arp', 'long_tail_share', 'serendipity', 'intra_list_diversity'],
        items=ref('input__beyond__item_vectors'), item_vector_col='vector', head_share=0.6, **common)),
    ('hamming_list_length', rankwise.evaluate(recommendations, interactions, metrics=['intra_list_diversity'],
        items=ref('input__beyond__items'), item_distance='hamming', item_feature_cols=['genre', 'era'],
        diversity_denominator='list_length', **common)),
    ('cooccurrence', rankwise.evaluate(recommendations, interactions, metrics=['intra_list_diversity'],
        item_distance='cooccurrence', **common)),
] -%}
{% for variant, query in calls %}
select
    cast('{{ variant }}' as {{ dbt.type_string() }}) as variant,
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(model as {{ dbt.type_string() }}) as model,
    metric,
    k,
    value,
    n_users
from (
    {{ query }}
) as variant_{{ loop.index }}
{{ 'union all' if not loop.last }}
{% endfor %}
