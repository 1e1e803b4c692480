{#- Problem reports (problem, column_name, n_rows, example) of evaluate's
    optional inputs, in the form of interaction_problems'. -#}

{#- The catalog: null item ids in it, and recommended items missing from it
    (coverage and gini would count a catalog smaller than what was shown). With
    the features intra_list_diversity reads (`vector_col`, `feature_cols`),
    also items listed twice (their pairs would count twice), null features,
    and for 'cosine' zero vectors (no direction) and vectors of another length
    than the longest. With the item groups exposure_disparity and miscalibration read
    (`group_col`), items with a null group or with two; given `interactions`
    (exposure_disparity's relevance shares), also relevant interactions (of `interactions`, relevance_col at least
    relevance_threshold, every row without relevance_col) whose item is not in
    the catalog: their group, and so the relevance shares, would be unknown. -#}
{% macro _catalog_problems(recommendations, items, item_col, vector_col=none, feature_cols=[], cosine=false,
                           group_col=none, interactions=none, relevance_col=none, relevance_threshold=1) %}
    {%- set item = rankwise.quote_identifier(item_col) -%}
    {%- set rows = [
        rankwise._problem_row('null_item_id', item_col, items, item ~ ' is null', item),
        rankwise._problem_row('item_not_in_catalog', item_col,
            recommendations ~ ' as rw_shown',
            'not exists (select 1 from ' ~ items ~ ' as rw_catalog where rw_catalog.' ~ item ~ ' = rw_shown.' ~ item ~ ')',
            'rw_shown.' ~ item)] -%}
    {%- set columns = ([vector_col] if vector_col is not none else []) + feature_cols -%}
    {%- if columns | length > 0 -%}
        {%- do rows.append(rankwise._problem_row('duplicate_catalog_item', item_col,
            '(select ' ~ item ~ ' as rw_item from ' ~ items ~ ' group by ' ~ item ~ ' having count(*) > 1) as rw_repeated', '1 = 1', 'rw_item')) -%}
        {%- for column in columns -%}
            {%- do rows.append(rankwise._problem_row('null_item_feature', column, items, rankwise.quote_identifier(column) ~ ' is null', item)) -%}
        {%- endfor -%}
    {%- endif -%}
    {#- item_group_col: one group per item, so that an item's slots and train
        users count in one group (a second row with the same group is harmless) -#}
    {%- if group_col is not none -%}
        {%- set group = rankwise.quote_identifier(group_col) -%}
        {%- do rows.append(rankwise._problem_row('null_item_group', group_col, items, group ~ ' is null', item)) -%}
        {%- do rows.append(rankwise._problem_row('item_in_two_groups', group_col,
            '(select ' ~ item ~ ' as rw_item from ' ~ items ~ ' group by ' ~ item ~ ' having count(distinct ' ~ group ~ ') > 1) as rw_regrouped', '1 = 1', 'rw_item')) -%}
        {%- if interactions is not none -%}
        {%- set relevant = '1 = 1' if relevance_col is none else rankwise.quote_identifier(relevance_col) ~ ' >= ' ~ rankwise._number_literal('evaluate', 'relevance_threshold', relevance_threshold) -%}
        {%- do rows.append(rankwise._problem_row('relevant_item_not_in_catalog', item_col,
            interactions ~ ' as rw_relevant',
            relevant ~ ' and not exists (select 1 from ' ~ items ~ ' as rw_catalog where rw_catalog.' ~ item ~ ' = rw_relevant.' ~ item ~ ')',
            'rw_relevant.' ~ item)) -%}
        {%- endif -%}
    {%- endif -%}
    {%- if cosine and vector_col is not none -%}
        {%- set vector = rankwise.quote_identifier(vector_col) -%}
        {%- do rows.append(rankwise._problem_row('zero_item_vector', vector_col, items, rankwise.vector_dot_product(vector, vector) ~ ' = 0', item)) -%}
        {%- do rows.append(rankwise._problem_row('item_vector_length_differs', vector_col, items,
            rankwise.vector_length(vector) ~ ' <> (select max(' ~ rankwise.vector_length(vector) ~ ') from ' ~ items ~ ')', item)) -%}
    {%- elif cosine and feature_cols | length > 0 -%}
        {%- set squares = [] -%}
        {%- for column in feature_cols %}{% do squares.append(rankwise.quote_identifier(column) ~ ' * ' ~ rankwise.quote_identifier(column)) %}{% endfor -%}
        {%- do rows.append(rankwise._problem_row('zero_item_vector', feature_cols | join(', '), items, '(' ~ squares | join(' + ') ~ ') = 0', item)) -%}
    {%- endif -%}
    {{ return(rows | join('\nunion all\n')) }}
{% endmacro %}

{#- The train interactions: null user or item ids. -#}
{% macro _train_problems(train, user_col, item_col) %}
    {%- set user = rankwise.quote_identifier(user_col) -%}
    {%- set item = rankwise.quote_identifier(item_col) -%}
    {{ return(rankwise._problem_row('null_user_id', user_col, train, user ~ ' is null', user, item)
        ~ '\nunion all\n'
        ~ rankwise._problem_row('null_item_id', item_col, train, item ~ ' is null', user, item)) }}
{% endmacro %}
