{#- Every metric rankwise.evaluate knows: whether it takes a cutoff @k, whether it
    has one value per user (averaged over users) or one per group, and the
    per-list components its formula reads. -#}
{% macro _metric_catalog() %}
    {{ return({
        'precision':          {'cutoff': true,  'level': 'user',  'components': ['hits', 'n_recommended']},
        'recall':             {'cutoff': true,  'level': 'user',  'components': ['hits']},
        'f1':                 {'cutoff': true,  'level': 'user',  'components': ['hits', 'n_recommended']},
        'hit_rate':           {'cutoff': true,  'level': 'user',  'components': ['hits']},
        'map':                {'cutoff': true,  'level': 'user',  'components': ['precision_sum', 'hits']},
        'mrr':                {'cutoff': true,  'level': 'user',  'components': ['first_relevant_rank']},
        'dcg':                {'cutoff': true,  'level': 'user',  'components': ['dcg']},
        'idcg':               {'cutoff': true,  'level': 'user',  'components': ['idcg']},
        'ndcg':               {'cutoff': true,  'level': 'user',  'components': ['dcg', 'idcg']},
        'r_precision':        {'cutoff': false, 'level': 'user',  'components': ['hits_within_n_relevant']},
        'map_to_full_recall': {'cutoff': true,  'level': 'user',  'components': ['precision_sum_to_full_recall', 'ranks_to_full_recall']},
        'entropy':            {'cutoff': true,  'level': 'group', 'components': []},
    }) }}
{% endmacro %}
