{#- rankwise.compare of the two models of popularity_bias__actual ('popular'
    against model_a) in each fold on popularity_lift and miscalibration, each
    user paired where both models' lists have a value, and in the same query on
    hit_rate, every user of the truth paired, compared with
    seeds/expected__popularity_comparison.csv: the reference implementations'
    values under scipy's paired t test, and the resampling tests' columns the
    Python wrapper computes on DuckDB (tests/reference/popularity_seeds.py,
    whose RESAMPLING these are). -#}
{{ rankwise.compare(ref('input__beyond__recommendations'), ref('input__beyond__interactions'),
                    metrics=['popularity_lift', 'miscalibration', 'hit_rate'], k=[1, 3, 5], model_col='model', baseline='model_a',
                    partition_by=['example_id'], train=ref('input__popularity__train'), items=ref('input__beyond__items'),
                    item_group_col='genre', tests=['t', 'randomization', 'bootstrap'], n_resamples=200, seed=7) }}
