{#- A model of your own, as README's dbt section shows it: README prints this call
    and the rows it builds here (tests/dbt/test_demo_output.py holds them equal). -#}
{{ rankwise.evaluate(
    ref('recommendations'),
    ref('interactions'),
    metrics=['precision', 'recall', 'map', 'mrr', 'ndcg', 'entropy'],
    k=[5, 10, 20],
    group_by=['model'],
    relevance_col='relevance',
) }}
