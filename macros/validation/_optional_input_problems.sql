{#- Problem reports (problem, column_name, n_rows, example) of evaluate's
    optional inputs, in the form of interaction_problems'. -#}

{#- The catalog: null item ids in it, and recommended items missing from it
    (coverage and gini would count a catalog smaller than what was shown). -#}
{% macro _catalog_problems(recommendations, items, item_col) %}
    {%- set item = rankwise.quote_identifier(item_col) -%}
    {{ return(rankwise._problem_row('null_item_id', item_col, items, item ~ ' is null', item)
        ~ '\nunion all\n'
        ~ rankwise._problem_row('item_not_in_catalog', item_col,
            recommendations ~ ' as rw_shown',
            'not exists (select 1 from ' ~ items ~ ' as rw_catalog where rw_catalog.' ~ item ~ ' = rw_shown.' ~ item ~ ')',
            'rw_shown.' ~ item)) }}
{% endmacro %}

{#- The train interactions: null user or item ids. -#}
{% macro _train_problems(train, user_col, item_col) %}
    {%- set user = rankwise.quote_identifier(user_col) -%}
    {%- set item = rankwise.quote_identifier(item_col) -%}
    {{ return(rankwise._problem_row('null_user_id', user_col, train, user ~ ' is null', user, item)
        ~ '\nunion all\n'
        ~ rankwise._problem_row('null_item_id', item_col, train, item ~ ' is null', user, item)) }}
{% endmacro %}
