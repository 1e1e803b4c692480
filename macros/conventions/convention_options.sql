{#- The option values that reproduce each peer library's numbers (docs/metrics.md,
    "Presets"). `rankwise.evaluate(..., convention=...)` starts from these; any
    option given explicitly wins. `users` may map metric names to a user set where
    a library averages one metric over other users than the rest. -#}
{% macro convention_options(convention='rankwise') %}
    {%- set presets = rankwise._convention_presets() -%}
    {%- do rankwise._check_choice('convention_options', 'convention', convention, presets.keys() | list) -%}
    {{ return(adapter.dispatch('convention_options', 'rankwise')(convention)) }}
{% endmacro %}

{% macro default__convention_options(convention) %}
    {{ return(rankwise._convention_presets()[convention]) }}
{% endmacro %}

{% macro _convention_presets() %}
    {%- set trec_eval = {
        'ap_denominator': 'relevant',
        'precision_denominator': 'k',
        'gain': 'linear',
        'gain_items': 'positive',
        'idcg': 'truth',
        'relevance_threshold': 1,
        'users': 'both',
        'ties': 'item_desc',
        'log_base': 'e',
        'novelty_popularity': 'users',
        'arp_popularity': 'users',
        'head_share': 0.8,
        'item_distance': 'cosine',
        'diversity_denominator': 'pairs',
        'coverage_of': 'catalog',
        'gini_items': 'catalog',
        'novelty_unseen': 'one',
    } -%}
    {#- rankwise's default: trec_eval with -c, every user with ground truth counts and a
        user without a list scores 0, so that a model cannot win by recommending to
        fewer (easier) users; plain trec_eval scores only the users of both tables. -#}
    {%- set trec_eval_c = rankwise._updated(trec_eval, {'users': 'interactions'}) -%}
    {#- ranx: trec_eval's definitions, but rel_lvl also decides which items earn an NDCG
        gain, and make_comparable=True in its evaluate scores every user of the qrels. -#}
    {%- set ranx = rankwise._updated(trec_eval, {'gain_items': 'relevant', 'users': 'interactions'}) -%}
    {#- Microsoft Recommenders (python_evaluation.py): binary gain by default, map_at_k over
        min(R, k), common users except in ndcg_at_k, distributional_coverage in bits. -#}
    {#- Its diversity is 1 - the mean co-occurrence cosine of the list's pairs;
        catalog_coverage divides the distinct recommended items by the distinct
        train items; historical_item_novelty is -log2 of the item's share of the
        train rows, 0 for an item not in train (novelty's inner merge). -#}
    {%- set recommenders = rankwise._updated(trec_eval, {'ap_denominator': 'min_relevant_k', 'gain': 'binary', 'gain_items': 'relevant',
                                                          'users': {'default': 'both', 'ndcg': 'interactions'}, 'log_base': 2,
                                                          'item_distance': 'cooccurrence', 'coverage_of': 'train_item_count',
                                                          'novelty_popularity': 'interactions', 'novelty_unseen': 'zero'}) -%}
    {#- RecTools (metrics/ranking.py, classification.py): binary gain, IDCG over k slots, every
        user of the interactions (merge_reco left-joins them); AvgRecPopularity(normalize=True)
        counts an item's train rows over all train rows (popularity.py); IntraListDiversity
        with PairwiseHammingDistanceCalculator counts the features two items differ in. -#}
    {%- set rectools = rankwise._updated(trec_eval, {'gain': 'binary', 'gain_items': 'relevant', 'idcg': 'k_positions', 'users': 'interactions',
                                                      'arp_popularity': 'interactions', 'item_distance': 'hamming'}) -%}
    {#- Evidently (legacy/metrics/recsys): precision over the rows shown, users with a relevant
        item only, tied scores share a rank; DiversityMetric divides the list's pairwise
        cosine distances by its length, not by its pairs (diversity.py); PopularityBias
        takes Gini over the recommended items (n - 1) and coverage as the share of
        the train items recommended; NoveltyMetric drops items not in train. -#}
    {%- set evidently = rankwise._updated(trec_eval, {'precision_denominator': 'list_length', 'gain_items': 'relevant', 'users': 'relevant', 'ties': 'shared',
                                                      'diversity_denominator': 'list_length', 'coverage_of': 'train_items',
                                                      'gini_items': 'shown', 'novelty_unseen': 'dropped'}) -%}
    {{ return({'rankwise': trec_eval_c, 'trec_eval': trec_eval, 'ranx': ranx, 'recommenders': recommenders, 'rectools': rectools, 'evidently': evidently}) }}
{% endmacro %}

{#- A copy of `base` with `changes` applied; `base` is left as it was. -#}
{% macro _updated(base, changes) %}
    {%- set result = {} -%}
    {%- do result.update(base) -%}
    {%- do result.update(changes) -%}
    {{ return(result) }}
{% endmacro %}
