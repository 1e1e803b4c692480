{#- evaluate's and compare's check of their inputs in a model the user writes,
    the package models' (_refuse_bad_input), when the model runs: a model over
    a duplicated row fails with rankwise's message instead of building a
    number. validate=false skips it, for inputs known to be clean (or checked
    by the generic tests valid_recommendations and valid_interactions). -#}
{% macro _validated_call(macro_name, validate, recommendations, interactions, options, groups, partition_by, items, train) %}
    {%- if validate is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `validate` must be true (check the inputs when the model runs) or false (skip the check); got " ~ rankwise._describe(validate) ~ ".") }}
    {%- endif -%}
    {%- if validate and execute -%}
        {%- do rankwise._refuse_bad_input(recommendations, interactions, options, groups, rankwise._as_list(partition_by), items, train,
                                           "rankwise." ~ macro_name ~ " checks its inputs before the model builds; pass validate=false to skip it for inputs known to be clean.") -%}
    {%- endif -%}
{% endmacro %}

{#- Before a model builds, the problems of its inputs (the queries of
    recommendation_problems and interaction_problems, and of the catalog and the
    train interactions when given) as one compiler error, in the Python
    wrapper's words, ending with `skip_hint` (how to skip the check): a
    duplicated or negative row would otherwise build numbers like map@2 = 1.0
    without a word. -#}
{% macro _refuse_bad_input(recommendations, interactions, options, group_by, partition_by, items, train, skip_hint) %}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {%- set groups = ([group_by] if group_by is string else group_by) + ([partition_by] if partition_by is string else partition_by) -%}
    {%- set resolved = rankwise._options_resolved(options) -%}
    {%- set queries = [
        ('recommendations (' ~ recommendations ~ ')', rankwise.recommendation_problems(recommendations, resolved.user_col,
            resolved.item_col, resolved.rank_col or 'rank', resolved.score_col, groups)),
        ('interactions (' ~ interactions ~ ')', rankwise.interaction_problems(interactions, resolved.user_col,
            resolved.item_col, resolved.relevance_col, resolved.gain, partition_by, resolved.propensity_col,
            resolved.user_group_col)),
    ] -%}
    {%- if items is not none -%}
        {%- set features = resolved.item_feature_cols or [] -%}
        {%- do queries.append(('items (' ~ items ~ ')', rankwise._catalog_problems(recommendations, items, resolved.item_col,
            resolved.item_vector_col, [features] if features is string else features, resolved.item_distance == 'cosine',
            resolved.item_group_col, interactions, resolved.relevance_col, resolved.relevance_threshold))) -%}
    {%- endif -%}
    {%- if train is not none -%}
        {%- do queries.append(('train (' ~ train ~ ')', rankwise._train_problems(train, resolved.user_col, resolved.item_col))) -%}
    {%- endif -%}
    {%- for table, query in queries -%}
        {%- for row in run_query(rankwise._problems_in_order(query)).rows if row[2] > 0 -%}
            {%- if not (row[0] == 'duplicate_interaction' and resolved.duplicate_interactions == 'max')
                  and not (row[0] == 'duplicate_item' and resolved.duplicate_recommendations == 'first')
                  and not (row[0] == 'negative_relevance' and resolved.negative_relevance == 'pooled') -%}
                {%- set problem_table = 'recommendations (' ~ recommendations ~ ')' if row[0] == 'item_not_in_catalog'
                                        else ('interactions (' ~ interactions ~ ')' if row[0] == 'relevant_item_not_in_catalog' else table) -%}
                {{ exceptions.raise_compiler_error(rankwise._problem_message(problem_table, row[0], row[1], row[2], row[3]) ~ " (" ~ skip_hint ~ ")") }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}
