{#- compare's Poisson bootstrap of the mean differences (Hanley and
    MacGibbon 2006; Chamandy et al. 2012): the draws' weights per user set,
    the weighted sums per resample and the percentile intervals, for the
    per-user and the list-level metrics. -#}

{#- rw_population_weights: per (pair, resample), the Poisson(1) weights summed over
    each user set: every truth user of the partition, and where a metric asks,
    the users with a list under both models (and a relevant item). -#}
{% macro _stage_population_weights(spec) %}
    {%- set draw = rankwise.resample_draw('keys.rw_user_key', 'resample.rw_resample', spec.seed) -%}
    {%- set weight = rankwise.poisson_one_weight('drawn.rw_draw') -%}
rw_population_weights as (
    select
        pair.rw_pair as rw_pair, truth_weights.rw_resample as rw_resample,
        truth_weights.rw_weight_interactions as rw_weight_interactions
        {%- if rankwise._planned(spec, 'pair_populations') %},
        pair_weights.rw_weight_both as rw_weight_both,
        pair_weights.rw_weight_relevant as rw_weight_relevant
        {%- endif %}
    from rw_pairs as pair
    inner join (
        select {{ rankwise._selected_columns(spec.partitions, 'drawn') }}drawn.rw_resample as rw_resample, sum({{ weight }}) as rw_weight_interactions
        from (
            select {{ rankwise._selected_columns(spec.partitions, 'keys') }}resample.rw_resample as rw_resample, {{ draw }} as rw_draw
            from rw_user_keys as keys
            cross join rw_resamples as resample
        ) as drawn
        group by {{ rankwise._partition_columns(spec, 'drawn') }}drawn.rw_resample
    ) as truth_weights
        on 1 = 1{{ rankwise._partitions_match('truth_weights', 'pair', spec) }}
    {%- if rankwise._planned(spec, 'pair_populations') %}
    left join (
        select
            drawn.rw_pair as rw_pair, drawn.rw_resample as rw_resample,
            sum({{ weight }}) as rw_weight_both,
            sum(case when drawn.rw_n_relevant > 0 then {{ weight }} end) as rw_weight_relevant
        from (
        select pair.rw_pair as rw_pair, resample.rw_resample as rw_resample, truth.rw_n_relevant as rw_n_relevant, {{ draw }} as rw_draw
        {{ rankwise._users_with_both_lists(spec) }}
        inner join rw_user_keys as keys
            on keys.rw_user = truth.rw_user{{ rankwise._partitions_match('keys', 'truth', spec) }}
        cross join rw_resamples as resample
        ) as drawn
        group by drawn.rw_pair, drawn.rw_resample
    ) as pair_weights
        on pair_weights.rw_pair = pair.rw_pair and pair_weights.rw_resample = truth_weights.rw_resample
    {%- endif %}
)
{%- endmacro %}

{#- rw_weighted_sums: per (pair, cutoff, resample), each metric's sum of the
    differences weighted by the draws' Poisson(1) counts. -#}
{% macro _stage_weighted_sums(spec) %}
rw_weighted_sums as (
    select
        weighted.rw_pair as rw_pair, weighted.rw_limit as rw_limit, weighted.rw_resample as rw_resample
        {%- for metric in spec.user_metric_names %},
        sum(weighted.rw_weight * weighted.rw_diff__{{ metric.key }}) as rw_weighted__{{ metric.key }}
        {%- endfor %}
    from {{ rankwise._differences_by_resample(spec, 'rw_weight', rankwise.poisson_one_weight('drawn.rw_draw')) }} as weighted
    group by weighted.rw_pair, weighted.rw_limit, weighted.rw_resample
)
{%- endmacro %}

{#- rw_bootstrap: per (pair, cutoff), the percentile interval of the resampled
    mean differences, sum(w d) / sum(w) over each metric's user set (Poisson
    bootstrap: Hanley and MacGibbon 2006; Chamandy et al. 2012). -#}
{% macro _stage_bootstrap(spec) %}
    {%- set tail = (1.0 - spec.confidence) / 2.0 -%}
rw_bootstrap as (
    select
        resampled.rw_pair as rw_pair, resampled.rw_limit as rw_limit
        {%- for metric in spec.user_metric_names %},
        {{ rankwise._percentile('resampled.rw_mean__' ~ metric.key, tail) }} as rw_bootstrap_low__{{ metric.key }},
        {{ rankwise._percentile('resampled.rw_mean__' ~ metric.key, 1.0 - tail) }} as rw_bootstrap_high__{{ metric.key }}
        {%- endfor %}
    from (
        select
            weighted.rw_pair as rw_pair, weighted.rw_limit as rw_limit
            {%- for metric in spec.user_metric_names %},
            {{ rankwise.safe_divide('weighted.rw_weighted__' ~ metric.key, 'weights.rw_weight_' ~ metric.users) }} as rw_mean__{{ metric.key }}
            {%- endfor %}
        from rw_weighted_sums as weighted
        inner join rw_population_weights as weights
            on weights.rw_pair = weighted.rw_pair and weights.rw_resample = weighted.rw_resample
    ) as resampled
    group by resampled.rw_pair, resampled.rw_limit
)
{%- endmacro %}

{#- rw_list_weighted_sums: per (pair, resample), each list-level metric's sum of
    the differences weighted by the draws' Poisson(1) counts, and the sum of the
    weights of its listed users (its population, which differs by metric). -#}
{% macro _stage_list_weighted_sums(spec) %}
rw_list_weighted_sums as (
    select
        weighted.rw_pair as rw_pair, weighted.rw_resample as rw_resample
        {%- for entry in spec.list_metrics %},
        sum(weighted.rw_weight * weighted.rw_diff__{{ entry.position }}) as rw_weighted__{{ entry.position }},
        sum(case when weighted.rw_diff__{{ entry.position }} is not null then weighted.rw_weight end) as rw_weight__{{ entry.position }}
        {%- endfor %}
    from {{ rankwise._differences_by_resample(spec, 'rw_weight', rankwise.poisson_one_weight('drawn.rw_draw'), 'list') }} as weighted
    group by weighted.rw_pair, weighted.rw_resample
)
{%- endmacro %}

{#- rw_list_bootstrap: per pair, the percentile interval of each list-level
    metric's resampled mean differences, sum(w d) / sum(w) over its listed
    users. -#}
{% macro _stage_list_bootstrap(spec) %}
    {%- set tail = (1.0 - spec.confidence) / 2.0 -%}
rw_list_bootstrap as (
    select
        resampled.rw_pair as rw_pair
        {%- for entry in spec.list_metrics %},
        {{ rankwise._percentile('resampled.rw_mean__' ~ entry.position, tail) }} as rw_bootstrap_low__{{ entry.position }},
        {{ rankwise._percentile('resampled.rw_mean__' ~ entry.position, 1.0 - tail) }} as rw_bootstrap_high__{{ entry.position }}
        {%- endfor %}
    from (
        select
            weighted.rw_pair as rw_pair
            {%- for entry in spec.list_metrics %},
            {{ rankwise.safe_divide('weighted.rw_weighted__' ~ entry.position, 'weighted.rw_weight__' ~ entry.position) }} as rw_mean__{{ entry.position }}
            {%- endfor %}
        from rw_list_weighted_sums as weighted
    ) as resampled
    group by resampled.rw_pair
)
{%- endmacro %}
