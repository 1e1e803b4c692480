{#- dbt generic test: fails with one row per kind of problem that would make the
    recommendations unfit for rankwise.evaluate (see recommendation_problems),
    each with a `message` in the words of evaluate's own check, so that
    `dbt test --store-failures` (or the compiled test run by hand) says what is
    wrong, with an example and the fix. -#}
{% test valid_recommendations(model, user_col='user_id', item_col='item_id', rank_col='rank', score_col=none, group_by=none) %}
{{ rankwise._problems_with_messages(rankwise.recommendation_problems(model, user_col, item_col, rank_col, score_col, group_by),
                                    'recommendations (' ~ model ~ ')') }}
{% endtest %}
