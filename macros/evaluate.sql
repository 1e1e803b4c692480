{#- rankwise.evaluate: every requested metric at every cutoff, each table read
    once per kind of aggregate, with no window over the full recommendations.
    Returns a SELECT with one row per (group, metric, k): group columns, metric,
    k, value, n_users; or, with per_user=true, one row per (group, user, metric,
    k) with the per-user components for drill-down. `convention` picks the
    option values of a peer library; an option given explicitly wins. The
    conventions are documented in docs/metrics.md. -#}
{% macro evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                  user_col='user_id', item_col='item_id', rank_col='rank', score_col=none, relevance_col=none,
                  convention='trec_eval', ap_denominator=none, precision_denominator=none, gain=none, gain_items=none,
                  idcg=none, relevance_threshold=none, users=none, ties=none, log_base=none,
                  duplicate_interactions='error') %}
    {%- set options = {
        'ap_denominator': ap_denominator,
        'precision_denominator': precision_denominator,
        'gain': gain,
        'gain_items': gain_items,
        'idcg': idcg,
        'relevance_threshold': relevance_threshold,
        'users': users,
        'ties': ties,
        'log_base': log_base,
    } -%}
    {%- set spec = rankwise._evaluate_spec(metrics, k, group_by, per_user, user_col, item_col, rank_col, score_col,
                                           relevance_col, convention, options, duplicate_interactions) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{% macro default__evaluate(recommendations, interactions, spec) -%}
{%- set float64 = rankwise.type_float64() -%}
{%- set groups = spec.groups -%}
{%- set list_keys = groups + ['rw_user'] -%}
{%- set threshold = spec.relevance_threshold -%}
{%- set components_from = {'list_rows': [], 'judged': [], 'all_running': [], 'truth': []} -%}
{%- for component in spec.components -%}
    {%- do components_from[rankwise._component_source(component)].append(component) -%}
{%- endfor -%}
{%- set needs_running_hits = 'precision_sum' in components_from.judged -%}
{%- set needs_n_relevant_on_rows = 'hits_within_n_relevant' in components_from.judged -%}
{%- set every_truth_user = 'interactions' in spec.user_sets -%}
{%- set needs_ideal_order = 'idcg' in components_from.truth and spec.idcg == 'truth' -%}
{#- IDCG of every user (not only of those with a judged row) for the idcg metric
    and the per-user drill-down -#}
{%- set every_idcg = spec.per_user or 'idcg' in spec.user_metrics | map(attribute='name') | list -%}
{#- per metric: the condition that keeps a user in its user set, or none -#}
{%- set user_set_conditions = {} -%}
{%- for entry in spec.user_metrics -%}
    {%- do user_set_conditions.update({entry.position: rankwise._in_user_set(entry.users, every_truth_user)}) -%}
{%- endfor -%}
{%- set some_users_left_out = user_set_conditions.values() | reject('none') | list | length > 0 -%}
{#- with derived ranks, rw_recommendations holds a window worth storing once -#}
{%- set inline_hint = (rankwise._inlined_cte() | trim) if spec.score is none else '' -%}

with

rw_recommendations as {{ inline_hint ~ ' ' if inline_hint }}(
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        {{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.score is none %}
        {{ spec.rank }} as rw_rank
        {%- elif spec.ties == 'shared' %}
        -- tied scores share the truncated mean of their positions, as pandas'
        -- rank(method='average').astype(int) gives them (Evidently)
        rank() over (
            partition by {% for column in groups %}{{ column }}, {% endfor %}{{ spec.user }}
            order by {{ spec.score }} desc nulls last
        ) + cast(floor((count(*) over (
            partition by {% for column in groups %}{{ column }}, {% endfor %}{{ spec.user }}, {{ spec.score }}
        ) - 1) / 2.0) as bigint) as rw_rank
        {%- else %}
        -- trec_eval's order: score descending, then item id descending
        row_number() over (
            partition by {% for column in groups %}{{ column }}, {% endfor %}{{ spec.user }}
            order by {{ spec.score }} desc nulls last, {{ spec.item }} {{ 'desc' if spec.ties == 'item_desc' else 'asc' }} nulls last
        ) as rw_rank
        {%- endif %}
    from {{ recommendations }}
),

-- One row per list, with its length within each cutoff.
rw_list_rows as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_user
        {%- for cutoff in spec.cutoffs if 'n_recommended' in components_from.list_rows %},
        {{ rankwise._list_component('n_recommended', cutoff, spec) }} as {{ rankwise._component_column('n_recommended', cutoff) }}
        {%- endfor %}
    from rw_recommendations
    group by {{ list_keys | join(', ') }}
)

{%- if spec.user_metrics | length > 0 %},

rw_interactions as {{ rankwise._inlined_cte() ~ ' ' if spec.duplicate_interactions != 'max' }}(
    select
        {{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.duplicate_interactions == 'max' %}
        max(cast({{ spec.relevance if spec.relevance is not none else 1 }} as {{ float64 }})) as rw_relevance
    from {{ interactions }}
    group by {{ spec.user }}, {{ spec.item }}
        {%- else %}
        cast({{ spec.relevance if spec.relevance is not none else 1 }} as {{ float64 }}) as rw_relevance
    from {{ interactions }}
        {%- endif %}
),

-- Per user of the truth: R, the number of relevant items.
rw_user_truth_counts as (
    select
        rw_user,
        count(case when rw_relevance >= {{ threshold }} then 1 end) as rw_n_relevant
    from rw_interactions
    group by rw_user
),

-- The recommended rows found in the interactions, with their relevance.
rw_judged as (
    select
        {%- for column in groups %}
        recommendation.{{ column }},
        {%- endfor %}
        recommendation.rw_user,
        recommendation.rw_rank,
        judgement.rw_relevance,
        case when judgement.rw_relevance >= {{ threshold }} then 1 else 0 end as rw_is_relevant
        {%- if needs_n_relevant_on_rows %},
        truth.rw_n_relevant
        {%- endif %}
        {%- if needs_running_hits %},
        -- relevant items at this rank or better: P@rank for every cutoff at once
        sum(case when judgement.rw_relevance >= {{ threshold }} then 1 else 0 end) over (
            partition by {% for column in groups %}recommendation.{{ column }}, {% endfor %}recommendation.rw_user
            order by recommendation.rw_rank
            rows between unbounded preceding and current row
        ) as rw_hits_so_far
        {%- endif %}
    from rw_recommendations as recommendation
    inner join rw_interactions as judgement
        on recommendation.rw_user = judgement.rw_user
        and recommendation.rw_item = judgement.rw_item
    {%- if needs_n_relevant_on_rows %}
    inner join rw_user_truth_counts as truth
        on recommendation.rw_user = truth.rw_user
    {%- endif %}
),

rw_judged_lists as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_user
        {{- rankwise._component_aggregates(components_from.judged, spec) }}
    from rw_judged
    group by {{ list_keys | join(', ') }}
),

{%- if needs_ideal_order %}

-- IDCG: the user's whole truth set sorted by relevance. Only a user with a judged
-- row can have a DCG above 0, and NDCG is 0 for the others whatever their IDCG,
-- so unless IDCG itself is asked for, only those users' truth is sorted.
rw_ideal_lists as (
    select
        rw_user
        {%- for cutoff in spec.cutoffs %},
        {{ rankwise.idcg_at_k('rw_ideal_rank', 'rw_relevance', cutoff, spec.gain, spec.min_gain_relevance) }} as {{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
    from (
        select
            rw_user,
            rw_relevance,
            row_number() over (partition by rw_user order by rw_relevance desc nulls last) as rw_ideal_rank
        from rw_interactions
        {%- if not every_idcg %}
        where rw_user in (select rw_user from rw_judged_lists)
        {%- endif %}
    ) as rw_ideal_order
    group by rw_user
),
{%- endif %}

-- Per user of the truth: R, and IDCG at every cutoff
{%- if needs_ideal_order and not every_idcg %} (NULL for a user left out of
-- rw_ideal_lists, who has no DCG above 0){% endif %}.
rw_user_truth as (
    select
        counts.rw_user,
        counts.rw_n_relevant
        {%- if 'idcg' in components_from.truth %}
        {%- for cutoff in spec.cutoffs %}
        {%- set column = rankwise._component_column('idcg', cutoff) %},
        {% if spec.idcg == 'k_positions' and cutoff is none -%}
        -- the whole list has no fixed number of slots; only cutoff-free metrics
        -- such as r_precision ask for this cutoff, and they read no IDCG
        cast(null as {{ float64 }})
        {%- elif spec.idcg == 'k_positions' -%}
        {{ rankwise.idcg_of_k_slots(cutoff) }}
        {%- else -%}
        ideal.{{ column }}
        {%- endif %} as {{ column }}
        {%- endfor %}
        {%- endif %}
    from rw_user_truth_counts as counts
    {%- if needs_ideal_order %}
    left join rw_ideal_lists as ideal
        on counts.rw_user = ideal.rw_user
    {%- endif %}
),

{%- if components_from.all_running | length > 0 %}

-- map_to_full_recall averages P@i over every rank up to full recall, relevant or
-- not, so it needs the running count of hits on every recommended row.
rw_all_running as (
    select
        recommendation.*,
        truth.rw_n_relevant,
        sum(recommendation.rw_is_relevant) over (
            partition by {% for column in groups %}recommendation.{{ column }}, {% endfor %}recommendation.rw_user
            order by recommendation.rw_rank
            rows between unbounded preceding and current row
        ) as rw_hits_so_far
    from (
        select
            all_rows.*,
            case when judgement.rw_relevance >= {{ threshold }} then 1 else 0 end as rw_is_relevant
        from rw_recommendations as all_rows
        left join rw_interactions as judgement
            on all_rows.rw_user = judgement.rw_user
            and all_rows.rw_item = judgement.rw_item
    ) as recommendation
    inner join rw_user_truth as truth
        on recommendation.rw_user = truth.rw_user
),

rw_all_running_lists as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_user
        {{- rankwise._component_aggregates(components_from.all_running, spec) }}
    from rw_all_running
    group by {{ list_keys | join(', ') }}
),
{%- endif %}

-- Every component of every list; a list with no judged row has no hit.
rw_user_lists as (
    select
        list.*
        {%- for component in components_from.judged + components_from.all_running %}
        {%- set source = 'judged' if component in components_from.judged else 'all_running' %}
        {%- for cutoff in ([none] if rankwise._is_cutoff_free(component) else spec.cutoffs) %}
        {%- set column = rankwise._component_column(component, cutoff) %},
        {% if component == 'first_relevant_rank' %}{{ source }}.{{ column }}{% else %}coalesce({{ source }}.{{ column }}, 0){% endif %} as {{ column }}
        {%- endfor %}
        {%- endfor %}
    from rw_list_rows as list
    left join rw_judged_lists as judged
        on list.rw_user = judged.rw_user
        {%- for column in groups %}
        and {{ rankwise.null_safe_equals('list.' ~ column, 'judged.' ~ column) }}
        {%- endfor %}
    {%- if components_from.all_running | length > 0 %}
    left join rw_all_running_lists as all_running
        on list.rw_user = all_running.rw_user
        {%- for column in groups %}
        and {{ rankwise.null_safe_equals('list.' ~ column, 'all_running.' ~ column) }}
        {%- endfor %}
    {%- endif %}
),

-- The users some metric is averaged over (the `users` convention); each metric
-- then keeps its own set (see rw_user_metrics).
rw_user_components as (
    {%- if 'interactions' in spec.user_sets %}
    -- every user with truth, in every group; no list means a list with no hit
    select
        {%- for column in groups %}
        rw_group_keys.{{ column }},
        {%- endfor %}
        truth.*,
        case when list.rw_user is null then 0 else 1 end as rw_has_list
        {%- for component in spec.components if component != 'idcg' %}
        {%- for cutoff in ([none] if rankwise._is_cutoff_free(component) else spec.cutoffs) %}
        {%- set column = rankwise._component_column(component, cutoff) %},
        {% if component == 'first_relevant_rank' %}list.{{ column }}{% else %}coalesce(list.{{ column }}, 0){% endif %} as {{ column }}
        {%- endfor %}
        {%- endfor %}
    from rw_user_truth as truth
    {%- if groups | length > 0 %}
    cross join (select distinct {{ groups | join(', ') }} from rw_list_rows) as rw_group_keys
    {%- endif %}
    left join rw_user_lists as list
        on truth.rw_user = list.rw_user
        {%- for column in groups %}
        and {{ rankwise.null_safe_equals('list.' ~ column, 'rw_group_keys.' ~ column) }}
        {%- endfor %}
    {%- else %}
    select
        list.*,
        1 as rw_has_list,
        truth.rw_n_relevant
        {%- if 'idcg' in spec.components %}
        {%- for cutoff in spec.cutoffs %},
        truth.{{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
        {%- endif %}
    from rw_user_lists as list
    inner join rw_user_truth as truth
        on list.rw_user = truth.rw_user
    {%- endif %}
),

-- Each metric's value for the users of its set; NULL (left out of the mean)
-- for the others. The formulas are never NULL for a user of the set.
rw_user_metrics as (
    select
        rw_user_components.*
        {%- for entry in spec.user_metrics %},
        {%- set condition = user_set_conditions[entry.position] %}
        {% if condition is none -%}
        cast({{ rankwise._metric_expression(entry, spec) }} as {{ float64 }})
        {%- else -%}
        case when {{ condition }} then cast({{ rankwise._metric_expression(entry, spec) }} as {{ float64 }}) end
        {%- endif %} as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_user_components
),

rw_user_metric_grid as (
    {{ rankwise._metric_grid(spec.user_metrics) }}
)
{%- endif %}

{%- if spec.group_metrics | length > 0 %},

-- How often each item fills a top-k slot in its group, for every cutoff at once.
rw_item_exposures as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_item
        {%- for entry in spec.group_metrics %},
        count(case when {{ rankwise._within_cutoff('rw_rank', entry.k) }} then 1 end) as rw_exposures__{{ entry.position }}
        {%- endfor %}
    from rw_recommendations
    group by {% for column in groups %}{{ column }}, {% endfor %}rw_item
),

rw_item_shares as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_item
        {%- for entry in spec.group_metrics %},
        {{ rankwise.safe_divide('rw_exposures__' ~ entry.position,
                                'sum(rw_exposures__' ~ entry.position ~ ') over (' ~ ('partition by ' ~ groups | join(', ') if groups | length > 0 else '') ~ ')') }} as rw_share__{{ entry.position }}
        {%- endfor %}
    from rw_item_exposures
),

rw_group_metrics as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        count(*) as rw_n_items
        {%- for entry in spec.group_metrics %},
        cast({{ rankwise.entropy_at_k('rw_share__' ~ entry.position, spec.log_base) }} as {{ float64 }}) as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_item_shares
    {%- if groups | length > 0 %}
    group by {{ groups | join(', ') }}
    {%- endif %}
),

rw_group_lists as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        count(*) as rw_n_users
    from rw_list_rows
    {%- if groups | length > 0 %}
    group by {{ groups | join(', ') }}
    {%- endif %}
),

rw_group_metric_grid as (
    {{ rankwise._metric_grid(spec.group_metrics) }}
)
{%- endif %}

{%- if spec.per_user %}

select
    rw_user_metrics.rw_user as {{ spec.user }},
    {%- for column in groups %}
    rw_user_metrics.{{ column }},
    {%- endfor %}
    grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_value__{position}') }} as value,
    cast(rw_user_metrics.rw_n_relevant as bigint) as n_relevant,
    cast({{ rankwise._pick_by_position(spec.user_metrics, 'rw_n_recommended__{k}') }} as bigint) as n_recommended,
    cast({{ rankwise._pick_by_position(spec.user_metrics, 'rw_hits__{k}') }} as bigint) as hits,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_dcg__{k}') }} as dcg,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_idcg__{k}') }} as idcg
from rw_user_metrics
cross join rw_user_metric_grid as grid
{%- if some_users_left_out %}
where {{ rankwise._pick_by_position(spec.user_metrics, 'rw_value__{position}') }} is not null
{%- endif %}

{%- else %}

{%- if spec.user_metrics | length > 0 %}
select
    {%- for column in groups %}
    rw_means.{{ column }},
    {%- endfor %}
    grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_means.rw_value__{position}') }} as value,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_means.rw_n_users__{position}') }} as n_users
from (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        {%- for entry in spec.user_metrics %}
        avg(rw_value__{{ entry.position }}) as rw_value__{{ entry.position }},
        count(rw_value__{{ entry.position }}) as rw_n_users__{{ entry.position }}{{ ',' if not loop.last }}
        {%- endfor %}
    from rw_user_metrics
    {%- if groups | length > 0 %}
    group by {{ groups | join(', ') }}
    {%- endif %}
) as rw_means
cross join rw_user_metric_grid as grid
where {{ rankwise._pick_by_position(spec.user_metrics, 'rw_means.rw_n_users__{position}') }} > 0
{%- endif %}

{%- if spec.group_metrics | length > 0 %}
{%- if spec.user_metrics | length > 0 %}

union all
{% endif %}

select
    {%- for column in groups %}
    rw_group_metrics.{{ column }},
    {%- endfor %}
    grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(spec.group_metrics, 'rw_group_metrics.rw_value__{position}') }} as value,
    rw_group_lists.rw_n_users as n_users
from rw_group_metrics
inner join rw_group_lists
    on 1 = 1
    {%- for column in groups %}
    and {{ rankwise.null_safe_equals('rw_group_metrics.' ~ column, 'rw_group_lists.' ~ column) }}
    {%- endfor %}
cross join rw_group_metric_grid as grid
{%- endif %}

{%- endif %}
{%- endmacro %}

{#- The condition that keeps a user in a metric's user set, or none for every
    row of rw_user_components (which holds every truth user when some metric's
    set is 'interactions', else only the users with a list and truth). -#}
{% macro _in_user_set(users, every_truth_user) %}
    {%- if users == 'relevant' -%}
        {{ return('rw_has_list = 1 and rw_n_relevant > 0' if every_truth_user else 'rw_n_relevant > 0') }}
    {%- elif users == 'both' and every_truth_user -%}
        {{ return('rw_has_list = 1') }}
    {%- else -%}
        {{ return(none) }}
    {%- endif -%}
{% endmacro %}
