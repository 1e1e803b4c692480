{#- Stages of the means: per (group, cutoff), each per-user metric's mean over its
    user set. A user whose list has no judged row within the cutoff, or who has no
    list at all, scores what a list with no hit scores: 0 for every metric but
    idcg. Such users are counted, not listed: the mean is the sum over the
    (list, cutoff) pairs with a judged row divided by the number of users in the
    set. So the query never builds a row per (user, cutoff) or per (truth user,
    group), and many groups or cutoffs cost little more than one. -#}

{#- rw_group_sums: per (group, cutoff), each metric's sum over the users with a
    judged row within the cutoff (over every user of its set under the means
    strategy 'listed'); for the interval, their number and the population
    variance of their values (combined with the unlisted zeros in the output,
    see _interval_half_width). A metric whose summary is the geometric mean
    (gm_map) sums its values' logarithms instead, and counts them. -#}
{% macro _stage_group_sums(spec) %}
rw_group_sums as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_limit
        {%- for metric in spec.user_metric_names if metric.zero_without_list or metric.every_user %}
        {%- if metric.summary == 'geometric' %},
        sum({{ rankwise._geometric_mean_term('rw_value__' ~ metric.key) }}) as rw_sum__{{ metric.key }},
        count(rw_value__{{ metric.key }}) as rw_listed__{{ metric.key }}
        {%- else %},
        sum(rw_value__{{ metric.key }}) as rw_sum__{{ metric.key }}
        {%- if spec.confidence is not none and metric.summary == 'mean' %},
        count(rw_value__{{ metric.key }}) as rw_listed__{{ metric.key }},
        {{ rankwise._var_pop('rw_value__' ~ metric.key) }} as rw_var__{{ metric.key }}
        {%- endif %}
        {%- endif %}
        {%- endfor %}
    from rw_user_metrics
    group by {{ rankwise._group_columns(spec.groups) }}rw_limit
)
{%- endmacro %}

{#- rw_group_counts: per group, the users each user set holds: those with a list
    and truth, and of those, the ones with a relevant item. Every group with a
    list has a row. -#}
{% macro _stage_group_counts(spec) %}
rw_group_counts as (
    select
        {{ rankwise._selected_columns(spec.groups, 'list') }}count(truth.rw_user) as rw_n_both,
        count(case when truth.rw_n_relevant > 0 then 1 end) as rw_n_relevant
    from rw_list_rows as list
    left join rw_user_truth_counts as truth
        on truth.rw_user = list.rw_user{{ rankwise._partitions_match('truth', 'list', spec) }}
    {{ rankwise._group_by_groups(spec.groups, 'list') }}
)
{%- endmacro %}

{#- rw_truth_totals: per partition, the users of users='interactions', every
    truth user. -#}
{% macro _stage_truth_totals(spec) %}
rw_truth_totals as (
    select {{ rankwise._partition_columns(spec) }}count(*) as rw_n_truth_users
    from rw_user_truth_counts
    {{ rankwise._group_by_groups(spec.partitions) }}
)
{%- endmacro %}

{#- rw_idcg_sums: idcg is not 0 for a user without a list or a hit, so its sums
    run over every user of each set: per (group, cutoff) over the users with a
    list and truth, and over those of them with a relevant item. -#}
{% macro _stage_idcg_sums(spec) %}
    {%- set idcg = rankwise._idcg_value('cutoff.rw_limit', spec) -%}
rw_idcg_sums as (
    select
        {{ rankwise._selected_columns(spec.groups, 'list') }}cutoff.rw_limit as rw_limit,
        sum({{ idcg }}) as rw_sum__idcg,
        sum(case when truth.rw_n_relevant > 0 then {{ idcg }} end) as rw_sum_relevant__idcg
        {%- if spec.confidence is not none %},
        {{ rankwise._var_pop(idcg) }} as rw_var__idcg,
        {{ rankwise._var_pop('case when truth.rw_n_relevant > 0 then ' ~ idcg ~ ' end') }} as rw_var_relevant__idcg
        {%- endif %}
    from rw_list_rows as list
    inner join rw_user_truth_counts as truth
        on truth.rw_user = list.rw_user{{ rankwise._partitions_match('truth', 'list', spec) }}
    cross join rw_cutoffs as cutoff
    {{ rankwise._join_idcg('truth', 'cutoff.rw_limit', spec) }}
    group by {{ rankwise._group_columns(spec.groups, 'list') }}cutoff.rw_limit
)
{%- endmacro %}

{#- rw_truth_idcg_sums: per (partition, cutoff), idcg summed over every truth user. -#}
{% macro _stage_truth_idcg_sums(spec) %}
    {%- set idcg = rankwise._idcg_value('cutoff.rw_limit', spec) -%}
rw_truth_idcg_sums as (
    select
        {{ rankwise._selected_columns(spec.partitions, 'truth') }}cutoff.rw_limit as rw_limit,
        sum({{ idcg }}) as rw_sum_interactions__idcg
        {%- if spec.confidence is not none %},
        {{ rankwise._var_pop(idcg) }} as rw_var_interactions__idcg
        {%- endif %}
    from rw_user_truth_counts as truth
    cross join rw_cutoffs as cutoff
    {{ rankwise._join_idcg('truth', 'cutoff.rw_limit', spec) }}
    group by {{ rankwise._partition_columns(spec, 'truth') }}cutoff.rw_limit
)
{%- endmacro %}

{#- The select-list entries of rw_group_means, each led by a comma: each
    metric's mean (`counts` names the relation of its users' counts per set,
    `truth_users` the users of the interactions), its users, and for the
    interval its listed users and their variance; then the users of the
    interactions without a list. -#}
{% macro _group_mean_columns(spec, counts, truth_users) %}
    {%- set columns = [] -%}
    {%- for metric in spec.user_metric_names -%}
        {%- set name = metric.key -%}
        {%- set count = {'interactions': truth_users, 'both': counts ~ '.rw_n_both', 'relevant': counts ~ '.rw_n_relevant'}[metric.users] -%}
        {%- set summed = metric.zero_without_list or metric.every_user -%}
        {%- if summed -%}
            {%- set total = 'coalesce(sums.rw_sum__' ~ name ~ ', 0)' -%}
        {%- else -%}
            {%- set total = {'interactions': 'truth_idcg.rw_sum_interactions__idcg', 'both': 'idcg_sums.rw_sum__idcg',
                             'relevant': 'idcg_sums.rw_sum_relevant__idcg'}[metric.users] -%}
        {%- endif -%}
        {%- if metric.summary == 'sum' -%}
            {#- a total over the users of the set (the counts: num_ret, num_rel) -#}
            {%- set value = 'case when ' ~ count ~ ' > 0 then cast(' ~ total ~ ' as ' ~ rankwise.type_float64() ~ ') end' -%}
        {%- elif metric.summary == 'geometric' -%}
            {%- set value = rankwise._geometric_mean(total, 'coalesce(sums.rw_listed__' ~ name ~ ', 0)', count) -%}
        {%- else -%}
            {%- set value = rankwise.safe_divide(total, count) -%}
        {%- endif -%}
        {%- do columns.extend([value ~ ' as rw_value__' ~ name, count ~ ' as rw_n_users__' ~ name]) -%}
        {%- if spec.confidence is not none and metric.summary != 'mean' -%}
            {#- a total or a geometric mean has no Student t interval -#}
            {%- do columns.extend([count ~ ' as rw_listed__' ~ name, 'cast(null as ' ~ rankwise.type_float64() ~ ') as rw_var__' ~ name]) -%}
        {%- elif spec.confidence is not none -%}
            {#- idcg's sums run over every user of the set: none is left unlisted -#}
            {%- set listed = 'coalesce(sums.rw_listed__' ~ name ~ ', 0)' if summed else count -%}
            {%- set variance = 'sums.rw_var__' ~ name if summed else {'interactions': 'truth_idcg.rw_var_interactions__idcg',
                               'both': 'idcg_sums.rw_var__idcg', 'relevant': 'idcg_sums.rw_var_relevant__idcg'}[metric.users] -%}
            {%- do columns.extend([listed ~ ' as rw_listed__' ~ name, 'coalesce(' ~ variance ~ ', 0) as rw_var__' ~ name]) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- the users of the interactions are counted per partition, not per user group -#}
    {%- do columns.append(('cast(null as bigint)' if spec.user_group is not none else 'coalesce(' ~ truth_users ~ ', 0) - ' ~ counts ~ '.rw_n_both')
                          ~ ' as rw_n_users_without_list') -%}
    {%- set entries = [] -%}
    {%- for column in columns %}{% do entries.append(',\n        ' ~ column) %}{% endfor -%}
    {{ return(entries | join('')) }}
{% endmacro %}

{#- rw_group_means: per (group, cutoff), each metric's mean and the number of
    users it is over; every group with a list has a row at every cutoff. -#}
{% macro _stage_group_means(spec) %}
rw_group_means as (
    select
        {{ rankwise._selected_columns(spec.groups, 'counts') }}cutoff.rw_limit as rw_limit
        {{- rankwise._group_mean_columns(spec, 'counts', 'totals.rw_n_truth_users') }}
    from rw_group_counts as counts
    cross join rw_cutoffs as cutoff
    left join rw_group_sums as sums
        on sums.rw_limit = cutoff.rw_limit{{ rankwise._groups_match('sums', 'counts', spec.groups) }}
    left join rw_truth_totals as totals
        on 1 = 1{{ rankwise._partitions_match('totals', 'counts', spec) }}
    {%- if rankwise._planned(spec, 'idcg_sums') %}
    left join rw_idcg_sums as idcg_sums
        on idcg_sums.rw_limit = cutoff.rw_limit{{ rankwise._groups_match('idcg_sums', 'counts', spec.groups) }}
    left join rw_truth_idcg_sums as truth_idcg
        on truth_idcg.rw_limit = cutoff.rw_limit{{ rankwise._partitions_match('truth_idcg', 'counts', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- A term of the geometric mean of trec_eval's gm_map and gm_bpref: the
    logarithm of the value, floored at 1e-5 (trec_eval's MIN_GEO_MEAN, as a 0
    has no logarithm; m_gm_map.c). -#}
{% macro _geometric_mean_term(value) %}
    {{ return('ln(greatest(' ~ value ~ ', 1e-5))') }}
{% endmacro %}

{#- The geometric mean of `n` values from the sum of the `listed` ones' terms
    (_geometric_mean_term): each of the n - listed users without a judged row
    scores 0 and adds ln(1e-5), as trec_eval's meas_avg.c adds for the queries
    -c counts without a run. -#}
{% macro _geometric_mean(log_sum, listed, n) %}
    {{ return('case when ' ~ n ~ ' > 0 then exp((' ~ log_sum ~ ' + (' ~ n ~ ' - ' ~ listed ~ ') * ln(1e-5)) / ' ~ n ~ ') end') }}
{% endmacro %}
