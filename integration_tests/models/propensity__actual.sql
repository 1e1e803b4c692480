{#- recall, dcg, idcg and ndcg as inverse-propensity estimates (propensity_col),
    compared with seeds/expected__propensity.csv, the values of the reference
    implementation (tests/reference/propensity.py, whose METRICS, K and VARIANTS
    these are): the weights as given, and clipped at 0.2 with exponential gains
    and a relevance threshold of 2. -#}
{%- set recommendations = ref('input__random__recommendations') -%}
{%- set interactions = ref('input__propensity__interactions') -%}
{%- set common = {'metrics': ['recall', 'dcg', 'idcg', 'ndcg'], 'k': [1, 3, 5], 'group_by': ['example_id'],
                  'relevance_col': 'relevance', 'propensity_col': 'propensity'} -%}
{%- set calls = [
    ('default', rankwise.evaluate(recommendations, interactions, **common)),
    ('clipped_exponential', rankwise.evaluate(recommendations, interactions, propensity_clip=0.2, gain='exponential',
                                              relevance_threshold=2, **common)),
] -%}
{{ variants_union(calls, ['example_id'], ['metric', 'k', 'value', 'n_users']) }}
