{#- Stages of compare's resampling tests. Every draw is rankwise.resample_draw of
    (user key, resample, seed): integer arithmetic every engine does alike, so one
    seed gives one p-value everywhere. The per-user differences are read once,
    joined to all the resamples at once, never once per resample. -#}

{#- `name`: per user of `users` (a relation with the partition columns and
    rw_user, one row per user), an integer key: the user's position in byte
    order of its id as text within its partition, the same on every engine. -#}
{% macro _user_keys_cte(name, users, spec) %}
{{ name }} as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'users') }}users.rw_user as rw_user,
        row_number() over (
            {%- if spec.partitions | length > 0 %}partition by {{ rankwise._partition_columns(spec, 'users')[:-2] }} {% endif -%}
            order by {{ rankwise._in_byte_order('users.rw_user') }} asc) as rw_user_key
    from {{ users }} as users
)
{%- endmacro %}

{#- rw_user_keys: the keys of the truth users. -#}
{% macro _stage_user_keys(spec) %}
    {{ return(rankwise._user_keys_cte('rw_user_keys', 'rw_user_truth_counts', spec)) }}
{% endmacro %}

{#- rw_list_user_keys: the keys of the users with a list of a list-level value
    (under any model), numbered apart from the truth users, so that adding a
    list-level metric to a comparison changes no draw of the others. -#}
{% macro _stage_list_user_keys(spec) %}
    {%- set users = '(select distinct ' ~ rankwise._partition_columns(spec) ~ 'rw_user from rw_list_values)' -%}
    {{ return(rankwise._user_keys_cte('rw_list_user_keys', users, spec)) }}
{% endmacro %}

{#- The two kinds of paired differences the resampling stages read: the per-user
    metrics' (per pair, user and cutoff; a difference of 0 adds 0 whatever its
    sign or weight, and the users of each set are weighed apart) and the
    list-level metrics' (per pair and user, a column per metric and cutoff;
    every listed difference, 0 included, counts in its own population). -#}
{% macro _resampled_differences(spec, kind) %}
    {%- if kind == 'user' -%}
        {%- set columns = [] -%}
        {%- for metric in spec.user_metric_names %}{% do columns.append('rw_diff__' ~ metric.key) %}{% endfor -%}
        {{ return({'prefix': 'rw_', 'differences': 'rw_pair_differences', 'user_keys': 'rw_user_keys', 'columns': columns,
                   'names': spec.user_metric_names | map(attribute='key') | list, 'grain': ['rw_limit'], 'kept': ' <> 0'}) }}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for entry in spec.list_metrics %}{% do columns.append('rw_diff__' ~ entry.position) %}{% endfor -%}
    {{ return({'prefix': 'rw_list_', 'differences': 'rw_list_pair_differences', 'user_keys': 'rw_list_user_keys', 'columns': columns,
               'names': spec.list_metrics | map(attribute='position') | list, 'grain': [], 'kept': ' is not null'}) }}
{% endmacro %}

{#- rw_resamples: the resamples 1..n_resamples. -#}
{% macro _stage_resamples(spec) %}
rw_resamples as (
    select rw_position as rw_resample from {{ rankwise._positions(spec.n_resamples) }} as rw_positions
)
{%- endmacro %}

{#- The rows of the `kind` of differences with each resample and, as
    `draw_column`, `of_draw` of the user's draw (the column rw_draw): computed
    once per row in the inner query, as the engines do not all share a
    repeated expression. -#}
{% macro _differences_by_resample(spec, draw_column, of_draw, kind='user') %}
    {%- set source = rankwise._resampled_differences(spec, kind) -%}
    {%- set metric_columns = source.columns -%}
    (
        select
            drawn.rw_pair as rw_pair, {% for column in source.grain %}drawn.{{ column }} as {{ column }}, {% endfor %}drawn.rw_resample as rw_resample,
            {{ of_draw }} as {{ draw_column }},
            {{ rankwise._selected_columns(metric_columns, 'drawn')[:-2] }}
        from (
            select
                differences.rw_pair as rw_pair, {% for column in source.grain %}differences.{{ column }} as {{ column }}, {% endfor %}resample.rw_resample as rw_resample,
                {{ rankwise.resample_draw('keys.rw_user_key', 'resample.rw_resample', spec.seed) }} as rw_draw,
                {{ rankwise._selected_columns(metric_columns, 'differences')[:-2] }}
            from {{ source.differences }} as differences
            inner join {{ source.user_keys }} as keys
                on keys.rw_user = differences.rw_user{{ rankwise._partitions_match('keys', 'differences', spec) }}
            cross join rw_resamples as resample
            where differences.{{ metric_columns | join(source.kept ~ ' or differences.') }}{{ source.kept }}
        ) as drawn
    )
{%- endmacro %}

{#- rw_flipped_sums (rw_list_flipped_sums): per (pair, cutoff, resample), each
    metric's sum of the differences with the signs the draws flip. -#}
{% macro _stage_flipped_sums(spec, kind='user') %}
    {%- set source = rankwise._resampled_differences(spec, kind) -%}
    {%- set grain = ['rw_pair'] + source.grain + ['rw_resample'] -%}
{{ source.prefix }}flipped_sums as (
    select
        {{ rankwise._selected_columns(grain, 'signed')[:-2] }}
        {%- for name in source.names %},
        sum(signed.rw_sign * signed.rw_diff__{{ name }}) as rw_flipped__{{ name }}
        {%- endfor %}
    from {{ rankwise._differences_by_resample(spec, 'rw_sign', '2 * ' ~ rankwise.sign_flip('drawn.rw_draw') ~ ' - 1', kind) }} as signed
    group by {{ rankwise._group_columns(grain, 'signed')[:-2] }}
)
{%- endmacro %}

{% macro _stage_list_flipped_sums(spec) %}
    {{ return(rankwise._stage_flipped_sums(spec, 'list')) }}
{% endmacro %}

{#- rw_randomization (rw_list_randomization): per (pair, cutoff), the resamples
    whose flipped sum is at least as far from 0 as the observed one. Sums that
    are equal in exact arithmetic may differ in the last bits (they add in
    another order), so "at least as far" allows 1e-9 of the sum of
    |differences|. -#}
{% macro _stage_randomization(spec, kind='user') %}
    {%- set source = rankwise._resampled_differences(spec, kind) -%}
    {%- set grain = ['rw_pair'] + source.grain -%}
    {%- set conditions = [] -%}
    {%- for column in grain %}{% do conditions.append('sums.' ~ column ~ ' = flipped.' ~ column) %}{% endfor -%}
{{ source.prefix }}randomization as (
    select
        {{ rankwise._selected_columns(grain, 'flipped')[:-2] }}
        {%- for name in source.names %},
        count(case when abs(flipped.rw_flipped__{{ name }}) >= abs(sums.rw_sum_diff__{{ name }}) - 1e-9 * sums.rw_sum_abs__{{ name }} then 1 end) as rw_extreme__{{ name }}
        {%- endfor %}
    from {{ source.prefix }}flipped_sums as flipped
    inner join {{ source.prefix }}pair_sums as sums
        on {{ conditions | join(' and ') }}
    group by {{ rankwise._group_columns(grain, 'flipped')[:-2] }}
)
{%- endmacro %}

{% macro _stage_list_randomization(spec) %}
    {{ return(rankwise._stage_randomization(spec, 'list')) }}
{% endmacro %}
