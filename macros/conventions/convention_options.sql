{#- The options of rankwise.evaluate and rankwise.compare, declared once, and the
    conventions that set them. An option's entry says:
      kind      how its value is checked: boolean (true or false), column (a column name), optional_column,
                optional_columns (a name or a list), choice (one of `choices`),
                model (a value of a column: text or a finite number),
                optional_share (above 0, at most 1, or none),
                convention (a key of the presets), number (finite), share (above
                0, at most 1), log_base ('e' or a finite number > 0 other than
                1), user_set (one of `choices`, or a mapping from per-user metric
                names to one)
      preset    true when a convention sets it: left out (none), it takes the
                convention's value; `default` is then trec_eval's
      default   its value when not given
      read_by   the metrics or stages that read it
      help      one or two sentences: the Python docstrings, the command line's
                help and docs/metrics.md's table of options are made from it
    Everything else reads this: the planner's checks (macros/planner/), the Python
    wrapper's TypedDict (tested equal), its defaults and the CLI's flags.
    Adding an option: one entry here, the stage or formula that reads it. -#}
{% macro _option_registry() %}
    {{ return({
        'user_col': {'kind': "column", 'default': "user_id", 'read_by': ["every stage"], 'help': "The user id column of both inputs."},
        'item_col': {'kind': "column", 'default': "item_id", 'read_by': ["every stage"], 'help': "The item id column of both inputs."},
        'rank_col': {'kind': "column", 'default': "rank", 'read_by': ["the lists, without score_col"], 'help': "The rank column of the recommendations (1 = best), read when score_col is not given (None with score_col)."},
        'score_col': {'kind': "optional_column", 'default': none, 'read_by': ["the lists (ranks derived)"], 'help': "A score column of the recommendations (higher = better); ranks are then derived, ties broken as `ties` says."},
        'relevance_col': {'kind': "optional_column", 'default': none, 'read_by': ["the interactions"], 'help': "The relevance column of the interactions; without it every interaction has relevance 1."},
        'propensity_col': {'kind': "optional_column", 'default': none, 'read_by': ["the interactions"], 'help': "A column of the interactions holding the probability, in (0, 1], that the logged interaction was observed: each interaction then weighs 1 / max(propensity, propensity_clip), and recall, dcg, idcg and ndcg become their self-normalised inverse-propensity estimates; the other metrics that read the interactions are refused."},
        'propensity_clip': {'kind': "optional_share", 'default': none, 'read_by': ["the interactions"], 'help': "The smallest propensity a weight divides by (above 0, at most 1), which bounds every weight by its inverse; None divides by the propensity itself."},
        'user_group_col': {'kind': "optional_column", 'default': none, 'read_by': ["the lists"], 'help': "A column of the interactions naming each user's group (niche, diverse, blockbuster users, or any grouping; one group per user): every mean is then taken per user group, a group of the output after group_by. The per-user metrics need users='both' or 'relevant' with it."},
        'convention': {'kind': "convention", 'default': "rankwise", 'read_by': ["the planner"], 'help': "The library whose numbers to reproduce; it sets every convention below that is not given (docs/metrics.md, \"Presets\")."},
        'ap_denominator': {'kind': "choice", 'preset': true, 'default': "relevant", 'choices': ["relevant", "min_relevant_k", "hits", "k"], 'read_by': ["map"], 'help': "What average precision divides by: the relevant items R, min(R, k), the hits, or k."},
        'precision_denominator': {'kind': "choice", 'preset': true, 'default': "k", 'choices': ["k", "list_length"], 'read_by': ["precision", "f1"], 'help': "What precision divides by: k, or the list length when shorter than k."},
        'gain': {'kind': "choice", 'preset': true, 'default': "linear", 'choices': ["linear", "exponential", "binary"], 'read_by': ["dcg", "idcg", "ndcg"], 'help': "The gain of a relevant item in DCG: its relevance, 2^relevance - 1, or 1."},
        'gain_items': {'kind': "choice", 'preset': true, 'default': "positive", 'choices': ["positive", "relevant"], 'read_by': ["dcg", "idcg", "ndcg"], 'help': "Which items earn a DCG gain: every item of positive relevance, or only the relevant ones (relevance >= relevance_threshold)."},
        'idcg': {'kind': "choice", 'preset': true, 'default': "truth", 'choices': ["truth", "k_positions"], 'read_by': ["idcg", "ndcg"], 'help': "The ideal DCG: of the user's truth, or of k relevant positions (RecTools; needs gain='binary')."},
        'relevance_threshold': {'kind': "number", 'preset': true, 'default': 1, 'read_by': ["every per-user metric", "serendipity", "exposure_disparity"], 'help': "An item is relevant when its relevance is at least this finite number (at most 1 without relevance_col, where every interaction has relevance 1)."},
        'users': {'kind': "user_set", 'preset': true, 'default': "both", 'choices': ["both", "interactions", "relevant"], 'read_by': ["every per-user metric"], 'help': "Which users a mean covers: those in both tables, every user of the interactions (a missing list scores 0), or those with a relevant item; or a mapping from metric names to these sets."},
        'ties': {'kind': "choice", 'preset': true, 'default': "item_desc", 'choices': ["item_desc", "item_asc", "shared"], 'read_by': ["the lists, with score_col"], 'help': "How tied scores are ordered: by item id descending (trec_eval) or ascending, or sharing one rank."},
        'log_base': {'kind': "log_base", 'preset': true, 'default': "e", 'choices': ["e"], 'read_by': ["entropy"], 'help': "The base of entropy's logarithm: 'e' (nats) or a finite number > 0 other than 1."},
        'duplicate_recommendations': {'kind': "choice", 'default': "error", 'choices': ["error", "first"], 'read_by': ["the lists"], 'help': "An item listed twice in one list (a retriever that returns one chunk twice): an error, or keep its first occurrence ('first': the best rank, or the highest score), the others dropped before ranking and counted in a warning."},
        'judged_only': {'kind': "boolean", 'default': false, 'read_by': ["the lists"], 'help': "Drop every recommended item its user's interactions do not hold before ranking, so that each metric scores the list of the judged items only (trec_eval -J; Sakai's condensed lists); the rows dropped are counted in a warning. A list left with no item is a user without a list."},
        'ignore_identical_ids': {'kind': "boolean", 'preset': true, 'default': false, 'read_by': ["the lists"], 'help': "Drop every recommended item whose id equals its user's (BEIR: a document retrieved for the query that is itself) before ranking; the two id columns must be of one type. The rows dropped are counted in a warning."},
        'duplicate_interactions': {'kind': "choice", 'default': "error", 'choices': ["error", "max"], 'read_by': ["the interactions"], 'help': "A (user, item) listed twice in the interactions: an error, or keep its highest relevance ('max')."},
        'negative_relevance': {'kind': "choice", 'default': "error", 'choices': ["error", "pooled"], 'read_by': ["the interactions", "inf_ap"], 'help': "An interaction of negative relevance: an error, or ('pooled') an item of the judgment pool left unjudged (trec_eval's -1, as sampled pools mark them), which every metric reads as unjudged but inf_ap, whose estimate counts it as pooled."},
        'novelty_popularity': {'kind': "choice", 'preset': true, 'default': "users", 'choices': ["users", "interactions"], 'read_by': ["novelty"], 'help': "An item's popularity in novelty: the share of train users who interacted with it (RecTools), or its share of the train interactions."},
        'arp_popularity': {'kind': "choice", 'preset': true, 'default': "users", 'choices': ["users", "interactions"], 'read_by': ["arp"], 'help': "An item's popularity in arp: the share of train users who interacted with it, or its share of the train interactions (RecTools' AvgRecPopularity(normalize=True))."},
        'head_share': {'kind': "share", 'preset': true, 'default': 0.8, 'read_by': ["long_tail_share"], 'help': "long_tail_share's head: the most popular train items that together hold this share of the train interactions (above 0, at most 1)."},
        'item_distance': {'kind': "choice", 'preset': true, 'default': "cosine", 'choices': ["cosine", "hamming", "cooccurrence"], 'read_by': ["intra_list_diversity"], 'help': "intra_list_diversity's distance of two items: 1 - the cosine of their vectors (item_vector_col or item_feature_cols), the number of item_feature_cols they differ in ('hamming', RecTools), or 1 - their train users in common / sqrt of the product of their train users ('cooccurrence', Recommenders)."},
        'diversity_denominator': {'kind': "choice", 'preset': true, 'default': "pairs", 'choices': ["pairs", "list_length"], 'read_by': ["intra_list_diversity"], 'help': "What intra_list_diversity divides the sum of a list's pairwise distances by: its pairs, or its items ('list_length', Evidently)."},
        'single_item_diversity': {'kind': "choice", 'preset': true, 'default': "no_value", 'choices': ["no_value", "zero"], 'read_by': ["intra_list_diversity"], 'help': "intra_list_diversity of a list with one item within k, which has no pair, when dividing by the pairs: no value, left out of the mean (Recommenders), or 0 ('zero', RecTools)."},
        'item_vector_col': {'kind': "optional_column", 'default': none, 'read_by': ["intra_list_diversity"], 'help': "A column of the catalog (items) holding each item's vector, an array of numbers, for item_distance='cosine'."},
        'item_feature_cols': {'kind': "optional_columns", 'default': none, 'read_by': ["intra_list_diversity"], 'help': "Columns of the catalog (items) holding each item's features: for item_distance='hamming', or numeric ones forming the vector of 'cosine'."},
        'coverage_of': {'kind': "choice", 'preset': true, 'default': "catalog", 'choices': ["catalog", "train_items", "train_item_count"], 'read_by': ["coverage"], 'help': "coverage: the share of the catalog shown, the share of the train items shown ('train_items', Evidently), or the items shown over the train items ('train_item_count', Recommenders)."},
        'gini_items': {'kind': "choice", 'preset': true, 'default': "catalog", 'choices': ["catalog", "shown"], 'read_by': ["gini"], 'help': "gini over the catalog, the items never shown counting 0, or over the items shown within k only, divided by n - 1 ('shown', Evidently)."},
        'novelty_unseen': {'kind': "choice", 'preset': true, 'default': "one", 'choices': ["one", "dropped", "zero"], 'read_by': ["novelty"], 'help': "novelty of an item nobody interacted with in train: as one user ('one', RecTools), left out of the list's mean ('dropped', Evidently), or 0 ('zero', Recommenders)."},
        'model_col': {'kind': "optional_column", 'default': none, 'read_by': ["rbo", "intersection"], 'help': "The column of the recommendations that tells the models apart, for rbo and intersection: each model's list is compared with the `reference` model's list of the same user (the column becomes a group of the output)."},
        'reference': {'kind': "model", 'default': none, 'read_by': ["rbo", "intersection"], 'help': "The value of model_col (text or a number) naming the reference model, whose lists rbo and intersection compare every model's lists with."},
        'without_reference': {'kind': "choice", 'preset': true, 'default': "no_value", 'choices': ["no_value", "zero"], 'read_by': ["rbo", "intersection"], 'help': "rbo and intersection of a list whose user has no reference list: no value, left out of the mean, or 0 ('zero', RecTools)."},
        'exposure_model': {'kind': "choice", 'default': "dcg", 'choices': ["dcg", "rbp"], 'read_by': ["exposure_gini", "exposure_disparity"], 'help': "The browsing model that weighs a slot at rank r in an item's exposure: 1 / log2(r + 1) ('dcg'), or exposure_persistence^(r - 1) ('rbp')."},
        'exposure_persistence': {'kind': "share", 'default': 0.8, 'read_by': ["exposure_gini", "exposure_disparity"], 'help': "The chance of reading on to the next rank under exposure_model='rbp' (above 0, at most 1; 1 weighs every slot 1); unread under 'dcg'."},
        'item_group_col': {'kind': "optional_column", 'default': none, 'read_by': ["exposure_disparity", "miscalibration"], 'help': "A column of the catalog (items) naming each item's group (a provider, a category, a genre, a head/tail label; one group per item): exposure_disparity and rankwise.exposure_by_item_group compare the groups' shares of exposure and of relevance, miscalibration the groups of a list with those of its user's train items."}
    }) }}
{% endmacro %}

{#- `options` (a mapping of options given) less those that only metrics other
    than `names` read: an option the registry says is read by named metrics
    alone, none of them in `names` (item_group_col without exposure_disparity
    or miscalibration), which an evaluation of `names` would refuse as unread.
    Options read by the stages, the inputs or every per-user metric stay. -#}
{% macro _options_read_by(names, options) %}
    {%- set registry = rankwise._option_registry() -%}
    {%- set every = rankwise._metric_registry().keys() | list -%}
    {%- set kept = {} -%}
    {%- for name, value in options.items() -%}
        {%- set readers = registry[name].read_by if name in registry else [] -%}
        {%- set only_metrics = readers | length > 0 and readers | reject('in', every) | list | length == 0 -%}
        {%- if not only_metrics or readers | select('in', names) | list | length > 0 -%}
            {%- do kept.update({name: value}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(kept) }}
{% endmacro %}

{#- The names of the options a convention sets. -#}
{% macro _preset_option_names() %}
    {%- set names = [] -%}
    {%- for name, option in rankwise._option_registry().items() if option.get('preset') %}{% do names.append(name) %}{% endfor -%}
    {{ return(names) }}
{% endmacro %}

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

{#- Each convention's values of the preset options: trec_eval's are the
    options' defaults; every other convention states what it changes. -#}
{% macro _convention_presets() %}
    {%- set trec_eval = {} -%}
    {%- for name in rankwise._preset_option_names() %}{% do trec_eval.update({name: rankwise._option_registry()[name].default}) %}{% endfor -%}
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
        with PairwiseHammingDistanceCalculator counts the features two items differ in, and
        scores a list of one item 0 (diversity.py, calc_per_user_from_fitted);
        Intersection scores 0 for a user without a reference list (its Recall fills 0). -#}
    {%- set rectools = rankwise._updated(trec_eval, {'gain': 'binary', 'gain_items': 'relevant', 'idcg': 'k_positions', 'users': 'interactions',
                                                      'arp_popularity': 'interactions', 'item_distance': 'hamming',
                                                      'single_item_diversity': 'zero', 'without_reference': 'zero'}) -%}
    {#- Evidently (legacy/metrics/recsys): precision over the rows shown, users with a relevant
        item only, tied scores share a rank; DiversityMetric divides the list's pairwise
        cosine distances by its length, not by its pairs (diversity.py); PopularityBias
        takes Gini over the recommended items (n - 1) and coverage as the share of
        the train items recommended; NoveltyMetric drops items not in train. -#}
    {%- set evidently = rankwise._updated(trec_eval, {'precision_denominator': 'list_length', 'gain_items': 'relevant', 'users': 'relevant', 'ties': 'shared',
                                                      'diversity_denominator': 'list_length', 'coverage_of': 'train_items',
                                                      'gini_items': 'shown', 'novelty_unseen': 'dropped'}) -%}
    {#- MS MARCO (ms_marco_eval.py): MRR@10 summed over the queries of the run and divided
        by every query of the qrels, a query without candidates adding 0. -#}
    {%- set msmarco = rankwise._updated(trec_eval, {'users': 'interactions'}) -%}
    {#- BEIR (beir/retrieval/evaluation.py): pytrec_eval's measures, averaged over the
        queries pytrec_eval scores (those of both tables), after dropping a document whose
        id is its query's (ignore_identical_ids=True, its default); its R_cap@k
        (custom_metrics.py) sums over the run's queries and divides by the qrels'. -#}
    {%- set beir = rankwise._updated(trec_eval, {'ignore_identical_ids': true, 'users': {'default': 'both', 'recall_cap': 'interactions'}}) -%}
    {{ return({'rankwise': trec_eval_c, 'trec_eval': trec_eval, 'ranx': ranx, 'recommenders': recommenders, 'rectools': rectools, 'evidently': evidently,
               'msmarco': msmarco, 'beir': beir}) }}
{% endmacro %}

{#- The measure sets of the presets that name one, by the preset's name: a
    metric string equal to one stands for its metrics (parse_metrics.sql), so
    that metrics='beir' with convention='beir' is BEIR's EvaluateRetrieval
    and metrics='msmarco' MS MARCO's MRR@10. -#}
{% macro _metric_sets() %}
    {%- set beir = [] -%}
    {%- for name in ['ndcg', 'map', 'recall', 'precision'] -%}
        {%- for k in [1, 3, 5, 10, 100, 1000] %}{% do beir.append(name ~ '@' ~ k) %}{% endfor -%}
    {%- endfor -%}
    {{ return({'beir': beir, 'msmarco': ['mrr@10']}) }}
{% endmacro %}

{#- A copy of `base` with `changes` applied; `base` is left as it was. -#}
{% macro _updated(base, changes) %}
    {%- set result = {} -%}
    {%- do result.update(base) -%}
    {%- do result.update(changes) -%}
    {{ return(result) }}
{% endmacro %}
