{#- evaluate's bootstrap interval of entropy (bootstrap_resamples) on the
    comparison seeds, compared with seeds/expected__entropy_bootstrap.csv, which
    the Python wrapper computes (tests/reference/comparison_seeds.py). -#}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(model as {{ dbt.type_string() }}) as model,
    metric,
    k,
    value,
    ci_low,
    ci_high
from (
    {{ rankwise.evaluate(ref('input__comparison__recommendations'), ref('input__comparison__interactions'),
                         metrics=['entropy@3', 'entropy@10'], group_by=['model'], partition_by=['example_id'],
                         bootstrap_resamples=100, seed=5, confidence=0.9, relevance_col='relevance') }}
) as entropy
