{#- dbt generic test: fails with one row per kind of problem that would make the
    interactions unfit for rankwise.evaluate (see interaction_problems), each
    with a `message` as valid_recommendations words it. -#}
{% test valid_interactions(model, user_col='user_id', item_col='item_id', relevance_col=none, partition_by=none) %}
{{ rankwise._problems_with_messages(rankwise.interaction_problems(model, user_col, item_col, relevance_col, partition_by=partition_by),
                                    'interactions (' ~ model ~ ')') }}
{% endtest %}
