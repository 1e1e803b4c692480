{#- Stages of compare over evaluate's rw_user_metrics: the pairs of models, each
    pair's per-user differences and their sums per cutoff. As in evaluate's means,
    a user with no judged row within the cutoff under either model differs by 0
    and is counted, not listed: the sums run over the users with a value on
    either side, and the population counts come from the truth and the lists. -#}

{#- The pair's key columns: the shared groups, the model and the baseline, and
    rw_pair, the pair's number, which the resampling stages group by instead of
    carrying the names through a row per resample. `selected`: for a select
    list, each under its own name. -#}
{% macro _pair_columns(spec, alias, selected=false) %}
    {%- set columns = spec.shared_groups + ['rw_model', 'rw_baseline', 'rw_pair'] -%}
    {%- if selected -%}
        {{ return(rankwise._selected_columns(columns, alias)[:-2]) }}
    {%- endif -%}
    {{ return(rankwise._group_columns(columns, alias)[:-2]) }}
{% endmacro %}

{#- The join condition of two relations on the pair. -#}
{% macro _pairs_match(left, right, spec) %}
    {{ return(left ~ '.rw_pair = ' ~ right ~ '.rw_pair') }}
{% endmacro %}

{#- rw_compared_models: the models of each shared group. -#}
{% macro _stage_compared_models(spec) %}
rw_compared_models as (
    select distinct {{ rankwise._group_columns(spec.shared_groups) }}{{ spec.model }} as rw_model
    from rw_list_rows
    where {{ spec.model }} is not null
)
{%- endmacro %}

{#- rw_pairs: each model with the baseline, or every pair once (the model first
    in byte order), within each shared group. -#}
{% macro _stage_pairs(spec) %}
rw_pairs as (
    select
        {{ rankwise._selected_columns(spec.shared_groups, 'candidate') }}candidate.rw_model as rw_model, base.rw_model as rw_baseline,
        row_number() over (order by {{ rankwise._group_columns(spec.shared_groups, 'candidate') }}{{ rankwise._in_byte_order('candidate.rw_model') }}, {{ rankwise._in_byte_order('base.rw_model') }}) as rw_pair
    from rw_compared_models as candidate
    inner join rw_compared_models as base
        on 1 = 1{{ rankwise._groups_match('candidate', 'base', spec.shared_groups) }}
    {%- if spec.baseline is none %}
    where {{ rankwise._in_byte_order('candidate.rw_model') }} < {{ rankwise._in_byte_order('base.rw_model') }}
    {%- else %}
    where base.rw_model = {{ spec.baseline }} and candidate.rw_model <> base.rw_model
    {%- endif %}
)
{%- endmacro %}

{#- rw_pair_values: per (pair, user, cutoff) with a judged row under either model,
    each metric's value under the model and under the baseline (NULL: no judged
    row there). -#}
{% macro _stage_pair_values(spec) %}
    {%- set sides = [] -%}
    {%- for side, model in [(1, 'rw_model'), (0, 'rw_baseline')] -%}
        {%- set select -%}
        select {{ rankwise._pair_columns(spec, 'pair', selected=true) }}, {{ side }} as rw_side, scored.rw_user as rw_user, scored.rw_limit as rw_limit, scored.rw_n_relevant as rw_n_relevant
            {%- for metric in spec.user_metric_names %}, scored.rw_value__{{ metric.key }} as rw_value__{{ metric.key }}{% endfor %}
        from rw_pairs as pair
        inner join rw_user_metrics as scored
            on scored.{{ spec.model }} = pair.{{ model }}{{ rankwise._groups_match('scored', 'pair', spec.shared_groups) }}
        {%- endset -%}
        {%- do sides.append(select) -%}
    {%- endfor -%}
rw_pair_values as (
    select
        {{ rankwise._pair_columns(spec, 'sided', selected=true) }}, sided.rw_user as rw_user, sided.rw_limit as rw_limit,
        max(sided.rw_n_relevant) as rw_n_relevant
        {%- for metric in spec.user_metric_names %},
        max(case when sided.rw_side = 1 then sided.rw_value__{{ metric.key }} end) as rw_model__{{ metric.key }},
        max(case when sided.rw_side = 0 then sided.rw_value__{{ metric.key }} end) as rw_baseline__{{ metric.key }}
        {%- endfor %}
    from (
        {{ sides | join('\n        union all\n        ') }}
    ) as sided
    group by {{ rankwise._pair_columns(spec, 'sided') }}, sided.rw_user, sided.rw_limit
)
{%- endmacro %}

{#- The condition that keeps a user in a metric's user set for a pair: every
    truth user (users='interactions'), those with a list under both models
    ('both'), and of those, the ones with a relevant item ('relevant'). -#}
{% macro _in_pair_user_set(users) %}
    {%- if users == 'interactions' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set both = 'model_list.rw_user is not null and baseline_list.rw_user is not null' -%}
    {{ return(both ~ (' and pair_values.rw_n_relevant > 0' if users == 'relevant' else '')) }}
{% endmacro %}

{#- rw_pair_differences: per (pair, user, cutoff), each metric's difference model
    minus baseline (a missing value is 0; see _paired_difference) and the two
    values, NULL for a user outside the metric's user set. -#}
{% macro _stage_pair_differences(spec) %}
rw_pair_differences as (
    select
        {{ rankwise._pair_columns(spec, 'pair_values', selected=true) }}, pair_values.rw_user as rw_user, pair_values.rw_limit as rw_limit
        {%- for metric in spec.user_metric_names %}
        {%- set name = metric.key %}
        {%- set condition = rankwise._in_pair_user_set(metric.users) %}
        {%- set model_value = 'coalesce(pair_values.rw_model__' ~ name ~ ', 0)' %}
        {%- set baseline_value = 'coalesce(pair_values.rw_baseline__' ~ name ~ ', 0)' %}
        {%- for column, value in [('rw_diff__', rankwise._paired_difference(model_value, baseline_value)), ('rw_model__', model_value), ('rw_baseline__', baseline_value)] %},
        {{ value if condition is none else 'case when ' ~ condition ~ ' then ' ~ value ~ ' end' }} as {{ column ~ name }}
        {%- endfor %}
        {%- endfor %}
    from rw_pair_values as pair_values
    {%- if rankwise._planned(spec, 'pair_populations') %}
    {%- for side, model in [('model_list', 'rw_model'), ('baseline_list', 'rw_baseline')] %}
    left join rw_list_rows as {{ side }}
        on {{ side }}.rw_user = pair_values.rw_user
        and {{ side }}.{{ spec.model }} = pair_values.{{ model }}{{ rankwise._groups_match(side, 'pair_values', spec.shared_groups) }}
    {%- endfor %}
    {%- endif %}
)
{%- endmacro %}

{#- A user's difference `model` - `baseline`, 0 when the two values are equal to
    within 1e-12 of the larger: values equal in exact arithmetic (two models
    giving a user the same list) can differ in the last bits, as an engine adds
    a list's terms in whatever order its threads meet them, and a tie must stay
    a tie on every run and every engine (wins, ties and losses, and the tests'
    zero differences). Values of the metrics differ by far more than that
    whenever they really differ. -#}
{% macro _paired_difference(model, baseline) %}
    {{ return('(case when abs(' ~ model ~ ' - ' ~ baseline ~ ') <= 1e-12 * greatest(abs(' ~ model ~ '), abs(' ~ baseline
              ~ ')) then 0 else ' ~ model ~ ' - ' ~ baseline ~ ' end)') }}
{% endmacro %}

{#- rw_pair_sums: per (pair, cutoff), over the listed users of each metric's set:
    their number, the sum and population variance of the differences (combined
    with the unlisted zeros later), the sum of |difference| (the scale of the
    randomization test's tie tolerance), the sums of the two values, and the
    users where the model is above or below the baseline. -#}
{% macro _stage_pair_sums(spec) %}
rw_pair_sums as (
    select
        {{ rankwise._pair_columns(spec, 'differences', selected=true) }}, differences.rw_limit as rw_limit
        {%- for metric in spec.user_metric_names %},
        {{ rankwise._difference_sums(metric.key) }}
        {%- endfor %}
    from rw_pair_differences as differences
    group by {{ rankwise._pair_columns(spec, 'differences') }}, differences.rw_limit
)
{%- endmacro %}

{#- The sums of rw_pair_sums and rw_list_pair_sums for one metric (`name`: its
    key or position) over the relation `differences`. -#}
{% macro _difference_sums(name) -%}
    {%- set diff = 'differences.rw_diff__' ~ name -%}
count({{ diff }}) as rw_listed__{{ name }},
        sum({{ diff }}) as rw_sum_diff__{{ name }},
        {{ rankwise._var_pop(diff) }} as rw_var_listed__{{ name }},
        sum(abs({{ diff }})) as rw_sum_abs__{{ name }},
        sum(differences.rw_model__{{ name }}) as rw_sum_model__{{ name }},
        sum(differences.rw_baseline__{{ name }}) as rw_sum_baseline__{{ name }},
        count(case when {{ diff }} > 0 then 1 end) as rw_wins__{{ name }},
        count(case when {{ diff }} < 0 then 1 end) as rw_losses__{{ name }}
{%- endmacro %}

{#- rw_pair_populations: per pair, the truth users with a list under both models,
    and of those, the ones with a relevant item (users='both' and 'relevant'). -#}
{% macro _stage_pair_populations(spec) %}
rw_pair_populations as (
    select
        {{ rankwise._pair_columns(spec, 'pair', selected=true) }},
        count(*) as rw_n_both,
        count(case when truth.rw_n_relevant > 0 then 1 end) as rw_n_relevant
    {{ rankwise._users_with_both_lists(spec) }}
    group by {{ rankwise._pair_columns(spec, 'pair') }}
)
{%- endmacro %}

{#- FROM each pair (`pair`) joined to the truth users (`truth`) with a list under
    both of its models: the users of users='both'. -#}
{% macro _users_with_both_lists(spec) %}
    {%- set joins -%}
    {{ rankwise._pairs_with_both_lists('rw_list_rows', spec) }}
    inner join rw_user_truth_counts as truth
        on truth.rw_user = model_list.rw_user{{ rankwise._partitions_match('truth', 'pair', spec) }}
    {%- endset -%}
    {{ return(joins) }}
{% endmacro %}

{#- FROM each pair (`pair`) joined to the rows of `lists` (a relation with the
    group columns and rw_user, a row per list) of its model (`model_list`) and
    of its baseline (`baseline_list`) for the same user. -#}
{% macro _pairs_with_both_lists(lists, spec) %}
    {%- set joins -%}
    from rw_pairs as pair
    inner join {{ lists }} as model_list
        on model_list.{{ spec.model }} = pair.rw_model{{ rankwise._groups_match('model_list', 'pair', spec.shared_groups) }}
    inner join {{ lists }} as baseline_list
        on baseline_list.rw_user = model_list.rw_user
        and baseline_list.{{ spec.model }} = pair.rw_baseline{{ rankwise._groups_match('baseline_list', 'pair', spec.shared_groups) }}
    {%- endset -%}
    {{ return(joins) }}
{% endmacro %}

{#- rw_list_pair_differences: per (pair, user with a list under both models),
    for each list-level metric and cutoff (its position), the difference model
    minus baseline and the two values, NULL unless both models' lists have a
    value (an item within the cutoff, and what else the metric needs, such as
    train items for popularity_lift). A user with a value under one model only
    is in no difference: a list-level metric has no value to count as 0 where
    a list is missing. -#}
{% macro _stage_list_pair_differences(spec) %}
rw_list_pair_differences as (
    select
        {{ rankwise._pair_columns(spec, 'pair', selected=true) }}, model_list.rw_user as rw_user
        {%- for entry in spec.list_metrics %}
        {%- set model_value = 'model_list.rw_value__' ~ entry.position %}
        {%- set baseline_value = 'baseline_list.rw_value__' ~ entry.position %}
        {%- set both = 'case when ' ~ model_value ~ ' is not null and ' ~ baseline_value ~ ' is not null then ' %},
        {{ both }}{{ rankwise._paired_difference(model_value, baseline_value) }} end as rw_diff__{{ entry.position }},
        {{ both }}{{ model_value }} end as rw_model__{{ entry.position }},
        {{ both }}{{ baseline_value }} end as rw_baseline__{{ entry.position }}
        {%- endfor %}
    {{ rankwise._pairs_with_both_lists('rw_list_values', spec) }}
)
{%- endmacro %}

{#- rw_list_pair_sums: per pair, for each list-level metric and cutoff, over
    its listed users: their number, the sum and population variance of the
    differences, the sum of |difference| (the randomization test's tie
    tolerance), the sums of the two values, and the users where the model is
    above or below the baseline. -#}
{% macro _stage_list_pair_sums(spec) %}
rw_list_pair_sums as (
    select
        {{ rankwise._pair_columns(spec, 'differences', selected=true) }}
        {%- for entry in spec.list_metrics %},
        {{ rankwise._difference_sums(entry.position) }}
        {%- endfor %}
    from rw_list_pair_differences as differences
    group by {{ rankwise._pair_columns(spec, 'differences') }}
)
{%- endmacro %}
