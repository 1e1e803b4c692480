{#- The beyond-accuracy metrics on two models in two folds, each fold with its
    own train interactions, compared with seeds/expected__beyond_accuracy.csv,
    the values of the reference implementations of
    tests/reference/beyond_accuracy.py (the arguments are its METRICS, K and
    OPTIONS). -#}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(model as {{ dbt.type_string() }}) as model,
    metric,
    k,
    value,
    n_users
from (
    {{ rankwise.evaluate(ref('input__beyond__recommendations'), ref('input__beyond__interactions'),
                         metrics=['coverage', 'gini', 'personalization', 'novelty', 'arp', 'long_tail_share'],
                         k=[1, 3, 5], group_by=['model'], partition_by=['example_id'],
                         items=ref('input__beyond__items'), train=ref('input__beyond__train'), head_share=0.6) }}
) as beyond
