{#- The names other tools give rankwise's metrics, as data: trec_eval's
    (P_10, ndcg_cut_10, recip_rank), ir_measures' (P@10, nDCG@10, AP, RR, R@10)
    and ranx's. One table for dbt and Python: the metric parser resolves a
    metric string through it (parse_metrics.sql), `rankwise trec_eval` names
    each of trec_eval's output lines through it, and docs/search.md's table of
    aliases is made from it. An entry says:
      alias    the name as its source writes it
      form     how a metric string carries it:
                 'name'        as rankwise writes its own metrics: the alias,
                               then any parameters in parentheses and @k
                               (P@10, AP(rel=2)@10, RR)
                 'name_k'      as trec_eval prints a measure with cutoffs: the
                               alias, an underscore and the cutoff (P_10), and
                               nothing else
                 'name_value'  as trec_eval prints a measure with a numeric
                               parameter: the alias, an underscore and a number
                               (iprec_at_recall_0.10), which becomes the
                               parameter `parameter` of the metric
      metric   rankwise's metric name
      example  the alias as its source writes it (docs/search.md shows it
               and the metric string it becomes)
      source   the tool that writes it
    A name is matched as written first, then without regard to case when that
    gives one metric only (MAP, NDCG@10, p_10). A rankwise metric name is never
    an alias: 'rbp' is rankwise's rbp (p = 0.8, as ir_measures' RBP), not
    trec_eval's (p = 0.9, which `rankwise trec_eval` asks for by its parameter).
    `metric_alias` reads a name through it. -#}
{% macro metric_aliases() %}
    {{- return(adapter.dispatch('metric_aliases', 'rankwise')()) -}}
{% endmacro %}

{% macro default__metric_aliases() %}
    {{ return([
        {'alias': 'P',          'form': 'name_k', 'metric': 'precision',   'example': 'P_10',          'source': 'trec_eval'},
        {'alias': 'recall',     'form': 'name_k', 'metric': 'recall',      'example': 'recall_10',     'source': 'trec_eval'},
        {'alias': 'map_cut',    'form': 'name_k', 'metric': 'map',         'example': 'map_cut_10',    'source': 'trec_eval'},
        {'alias': 'ndcg_cut',   'form': 'name_k', 'metric': 'ndcg',        'example': 'ndcg_cut_10',   'source': 'trec_eval'},
        {'alias': 'success',    'form': 'name_k', 'metric': 'hit_rate',    'example': 'success_10',    'source': 'trec_eval'},
        {'alias': 'recip_rank', 'form': 'name',   'metric': 'mrr',         'example': 'recip_rank',    'source': 'trec_eval'},
        {'alias': 'Rprec',      'form': 'name',   'metric': 'r_precision', 'example': 'Rprec',         'source': 'trec_eval'},
        {'alias': 'set_P',      'form': 'name',   'metric': 'precision',   'example': 'set_P',         'source': 'trec_eval'},
        {'alias': 'set_recall', 'form': 'name',   'metric': 'recall',      'example': 'set_recall',    'source': 'trec_eval'},
        {'alias': 'set_F',      'form': 'name',   'metric': 'f1',          'example': 'set_F',         'source': 'trec_eval'},
        {'alias': 'unj',        'form': 'name_k', 'metric': 'unjudged',    'example': 'unj_10',        'source': 'trec_eval'},
        {'alias': 'ideal_dcg',  'form': 'name',   'metric': 'idcg',        'example': 'ideal_dcg',     'source': 'trec_eval'},
        {'alias': 'iprec_at_recall', 'form': 'name_value', 'parameter': 'recall', 'metric': 'iprec_at_recall', 'example': 'iprec_at_recall_0.10', 'source': 'trec_eval'},
        {'alias': '11pt_avg',   'form': 'name',   'metric': 'ap_11pt',     'example': '11pt_avg',      'source': 'trec_eval'},
        {'alias': 'binG',       'form': 'name',   'metric': 'bin_g',       'example': 'binG',          'source': 'trec_eval'},
        {'alias': 'G',          'form': 'name',   'metric': 'g',           'example': 'G',             'source': 'trec_eval'},
        {'alias': 'Rndcg',      'form': 'name',   'metric': 'rndcg',       'example': 'Rndcg',         'source': 'trec_eval'},
        {'alias': 'infAP',      'form': 'name',   'metric': 'inf_ap',      'example': 'infAP',         'source': 'trec_eval'},
        {'alias': 'Rprec_mult', 'form': 'name_value', 'parameter': 'm', 'metric': 'r_precision_multiple', 'example': 'Rprec_mult_0.20', 'source': 'trec_eval'},
        {'alias': 'relative_P', 'form': 'name_k', 'metric': 'relative_precision', 'example': 'relative_P_10', 'source': 'trec_eval'},
        {'alias': 'set_relative_P', 'form': 'name', 'metric': 'relative_precision', 'example': 'set_relative_P', 'source': 'trec_eval'},
        {'alias': 'P',          'form': 'name',   'metric': 'precision',   'example': 'P(rel=2)@10',   'source': 'ir_measures'},
        {'alias': 'R',          'form': 'name',   'metric': 'recall',      'example': 'R@100',         'source': 'ir_measures'},
        {'alias': 'AP',         'form': 'name',   'metric': 'map',         'example': 'AP@100',        'source': 'ir_measures'},
        {'alias': 'nDCG',       'form': 'name',   'metric': 'ndcg',        'example': 'nDCG@10',       'source': 'ir_measures'},
        {'alias': 'RR',         'form': 'name',   'metric': 'mrr',         'example': 'RR@10',         'source': 'ir_measures'},
        {'alias': 'Rprec',      'form': 'name',   'metric': 'r_precision', 'example': 'Rprec',         'source': 'ir_measures'},
        {'alias': 'Success',    'form': 'name',   'metric': 'hit_rate',    'example': 'Success@5',     'source': 'ir_measures'},
        {'alias': 'SetP',       'form': 'name',   'metric': 'precision',   'example': 'SetP',          'source': 'ir_measures'},
        {'alias': 'SetR',       'form': 'name',   'metric': 'recall',      'example': 'SetR',          'source': 'ir_measures'},
        {'alias': 'SetF',       'form': 'name',   'metric': 'f1',          'example': 'SetF',          'source': 'ir_measures'},
        {'alias': 'Judged',     'form': 'name',   'metric': 'judged',      'example': 'Judged@10',     'source': 'ir_measures'},
        {'alias': 'R_cap',      'form': 'name',   'metric': 'recall_cap',  'example': 'R_cap@10',      'source': 'beir'},
        {'alias': 'Bpref',      'form': 'name',   'metric': 'bpref',       'example': 'Bpref',         'source': 'ir_measures'},
        {'alias': 'NumRet',     'form': 'name',   'metric': 'num_ret',     'example': 'NumRet',        'source': 'ir_measures'},
        {'alias': 'NumRel',     'form': 'name',   'metric': 'num_rel',     'example': 'NumRel',        'source': 'ir_measures'},
        {'alias': 'NumRelRet',  'form': 'name',   'metric': 'num_rel_ret', 'example': 'NumRelRet',     'source': 'ir_measures'},
        {'alias': 'SetAP',      'form': 'name',   'metric': 'set_map',     'example': 'SetAP',         'source': 'ir_measures'},
        {'alias': 'SetRelP',    'form': 'name',   'metric': 'relative_precision', 'example': 'SetRelP', 'source': 'ir_measures'},
        {'alias': 'r-precision', 'form': 'name',  'metric': 'r_precision', 'example': 'r-precision',   'source': 'ranx'},
    ]) }}
{% endmacro %}
