{#- What each problem of recommendation_problems and interaction_problems
    means and how to fix it, and the message that says so: one wording for the
    Python wrapper's errors (python/rankwise/_checks.py) and for the package
    models, which refuse bad input before they build. -#}
{% macro _problem_descriptions() %}
    {{ return({
        'null_user_id': ("null user ids", "drop those rows or fill the ids"),
        'null_item_id': ("null item ids", "drop those rows or fill the ids"),
        'null_rank': ("null ranks", "give every row a rank (1 = best), or pass score_col"),
        'null_score': ("null scores", "give every row a score, or drop those rows"),
        'non_finite_rank': ("NaN or infinite ranks", "give every row a finite rank (1 = best), or drop those rows"),
        'non_finite_score': ("NaN or infinite scores", "give every row a finite score, or drop those rows"),
        'rank_below_one': ("ranks below 1", "ranks start at 1 for the best item"),
        'rank_not_integer': ("ranks that are not whole numbers", "ranks are positions 1, 2, 3...; pass score_col to rank by a score"),
        'duplicate_item': ("items listed twice in one list", "keep one row per item in each user's list (per group), add the column that tells the lists apart to group_by, or pass duplicate_recommendations='first' to keep each item's first occurrence"),
        'duplicate_rank': ("ranks used twice in one list", "give each item of a list its own rank, or pass score_col to derive ranks (ties broken by item id)"),
        'duplicate_interaction': ("(user, item) pairs listed twice", "keep one row per (user, item), or pass duplicate_interactions='max' to keep the highest relevance"),
        'null_relevance': ("null relevances", "fill them (0 = judged not relevant) or drop those rows"),
        'non_finite_relevance': ("NaN or infinite relevances", "use finite numbers (0 = judged not relevant)"),
        'negative_relevance': ("negative relevances", "use 0 for judged not relevant, positive numbers for relevant, or pass negative_relevance='pooled' if they mark the judgment pool's unjudged items (trec_eval's -1)"),
        'user_in_two_groups': ("users in two or more groups (user_group_col)", "give each user one group in the interactions (per partition): each list is scored in its user's group"),
        'invalid_propensity': ("propensities that are not numbers above 0 and at most 1 (null, NaN, 0, negative or above 1)", "give each interaction the probability that it was observed, in (0, 1], or drop the rows without one"),
        'duplicate_catalog_item': ("items listed twice", "keep one row per item in the catalog: intra_list_diversity reads one vector or set of features per item"),
        'null_item_feature': ("items with a null feature", "fill it, or drop the item from the catalog and the lists: intra_list_diversity's distance needs every feature of both items"),
        'zero_item_vector': ("items whose vector is all zeros", "a zero vector has no direction, so its cosine distance is undefined: give those items a vector, or use item_distance='hamming' or 'cooccurrence'"),
        'item_vector_length_differs': ("vectors of another length than the longest", "give every item a vector of one length"),
        'null_item_group': ("items with a null group (item_group_col)", "give every item of the catalog its group (a label such as 'unknown' is a group), or drop it from the catalog and the lists: exposure_disparity and miscalibration count each item in its group"),
        'item_in_two_groups': ("items listed in two or more groups (item_group_col)", "give each item one group: exposure_disparity and miscalibration count each item in one group"),
        'relevant_item_not_in_catalog': ("relevant items that are not in the catalog (`items`)", "add them to the catalog with their group, or drop them from the interactions: exposure_disparity's relevance shares need each relevant item's group"),
        'item_not_in_catalog': ("recommended items that are not in the catalog (`items`)", "add them to the catalog or drop them from the lists: coverage and gini count the catalog's items"),
        'relevance_too_large_for_exponential_gain': ("relevances of 1024 or more, whose exponential gain 2^rel - 1 is past the largest double", "use gain='linear', or rescale the relevances below 1024")
    }) }}
{% endmacro %}

{#- The ORDER BY that puts the rows of recommendation_problems or
    interaction_problems in the order of _problem_descriptions, for the callers
    that raise the first (the wrapper, the package models): a UNION ALL has no
    order of its own, and an engine that runs its branches side by side
    (ClickHouse) returns them in any. The generic tests only count the rows. -#}
{% macro _in_problem_order(problem, first=none) %}
    {{ return(rankwise._in_order_of(problem, rankwise._problem_descriptions().keys(), first)) }}
{% endmacro %}

{#- ORDER BY `column` in the order of `names` (after `first`, when given). -#}
{% macro _in_order_of(column, names, first=none) %}
    {%- set positions = [] -%}
    {%- for name in names -%}
        {%- do positions.append("when '" ~ name ~ "' then " ~ loop.index) -%}
    {%- endfor -%}
    {{ return('order by ' ~ (first ~ ', ' if first is not none else '') ~ 'case ' ~ column ~ ' ' ~ positions | join(' ') ~ ' end') }}
{% endmacro %}

{#- The rows of a query of problems (recommendation_problems,
    interaction_problems, _catalog_problems, _train_problems), the first to
    raise first: ordered as one relation, since PostgreSQL orders a UNION by
    its bare column names only. -#}
{% macro _problems_in_order(query) %}
    {{ return('select * from (\n' ~ query ~ '\n) as rw_problems\n' ~ rankwise._in_problem_order('problem')) }}
{% endmacro %}

{% macro _problem_message(table, problem, column_name, n_rows, example) %}
    {%- set meaning, fix = rankwise._problem_descriptions()[problem] -%}
    {{ return("rankwise: " ~ n_rows ~ " rows of the " ~ table ~ " have " ~ meaning ~ " in column '" ~ column_name ~ "' (for example " ~ example ~ "): " ~ fix ~ ".") }}
{% endmacro %}

{#- A note's message, as rankwise.check words it. -#}
{% macro _note_message(problem, n_rows, example) %}
    {{ return(n_rows ~ " " ~ rankwise._note_descriptions()[problem].replace('{example}', example | string)) }}
{% endmacro %}

{#- What each note of evaluation_notes means (facts that are not errors but
    change what a mean covers), in the order evaluation_notes gives them. -#}
{% macro _note_descriptions() %}
    {{ return({
        'users_only_in_recommendations': "users have recommendations but no interactions (e.g. {example}): the per-user means (precision, ndcg...) leave them out, having no ground truth to judge their lists by; the per-list and per-group metrics (novelty, coverage...) count their lists.",
        'users_only_in_interactions': "users have interactions but no recommendations (e.g. {example}): they score 0 in the per-user means (the default, users='interactions'), or are left out with users='both'; the per-list and per-group metrics have no list of theirs to count.",
        'users_without_relevant_item': "users have no relevant item (e.g. {example}): they score 0 where a ratio would divide by zero; users='relevant' leaves them out.",
        'lists_shorter_than_k': "lists are shorter than k (e.g. {example}): missing positions count as misses, or see precision_denominator='list_length'.",
        'tied_scores': "lists have tied scores (e.g. {example}): ties are ordered by item id, see the `ties` option.",
    }) }}
{% endmacro %}

{#- The table a note of evaluation_notes is about. -#}
{% macro _note_table(problem) %}
    {{ return('interactions' if problem in ['users_only_in_interactions', 'users_without_relevant_item'] else 'recommendations') }}
{% endmacro %}

{#- The rows of a problem report (`problems`: recommendation_problems or
    interaction_problems of `table`) with the message _problem_message gives
    each, written in SQL: the generic tests' failing rows say what is wrong. -#}
{% macro _problems_with_messages(problems, table) %}
    {%- set meanings, fixes = [], [] -%}
    {%- for problem, description in rankwise._problem_descriptions().items() -%}
        {%- do meanings.append("when '" ~ problem ~ "' then " ~ rankwise._string_literal(description[0])) -%}
        {%- do fixes.append("when '" ~ problem ~ "' then " ~ rankwise._string_literal(description[1])) -%}
    {%- endfor -%}
    {%- set message = dbt.concat([
        rankwise._string_literal('rankwise: '), 'cast(n_rows as ' ~ dbt.type_string() ~ ')',
        rankwise._string_literal(' rows of the ' ~ table ~ ' have '), 'case problem ' ~ meanings | join(' ') ~ ' end',
        rankwise._string_literal(" in column '"), 'column_name', rankwise._string_literal("' (for example "), 'example',
        rankwise._string_literal('): '), 'case problem ' ~ fixes | join(' ') ~ ' end', rankwise._string_literal('.')]) -%}
    {{ return('select problem, column_name, n_rows, example,\n    ' ~ message ~ ' as message\nfrom (\n' ~ problems ~ '\n) as rw_problems') }}
{% endmacro %}
