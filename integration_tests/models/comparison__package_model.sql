{#- The package model rankwise_comparison, with its keys as text, compared with
    seeds/expected__comparison.csv. -#}
select
    cast(example_id as {{ dbt.type_string() }}) as example_id,
    metric,
    k,
    cast(model as {{ dbt.type_string() }}) as model,
    cast(baseline as {{ dbt.type_string() }}) as baseline,
    n_users, mean, baseline_mean, diff, ci_low, ci_high, effect_size, t_statistic, p_value, p_randomization,
    bootstrap_ci_low, bootstrap_ci_high, p_adjusted, p_non_inferiority, p_non_inferiority_adjusted, p_equivalence,
    p_equivalence_adjusted, minimum_detectable_difference, wins, ties, losses
from {{ ref('rankwise', 'rankwise_comparison') }}
