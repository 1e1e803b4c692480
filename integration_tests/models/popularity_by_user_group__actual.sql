{#- popularity_lift per user group (user_group_col: each user's segment in the
    interactions of its fold), compared with
    seeds/expected__popularity_by_user_group.csv, the values of the reference
    implementations (tests/reference/popularity_seeds.py). -#}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    cast(model as {{ dbt.type_string() }}) as model,
    cast(segment as {{ dbt.type_string() }}) as segment,
    metric_label,
    value,
    n_users
from (
    {{ rankwise.evaluate(ref('input__beyond__recommendations'), ref('input__popularity__interactions'),
                         metrics=['popularity_lift'], k=[1, 3, 5], group_by=['model'], partition_by=['example_id'],
                         train=ref('input__popularity__train'), user_group_col='segment', users='both') }}
) as by_user_group
