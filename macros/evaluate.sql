{#- rankwise.evaluate: every requested metric at every cutoff in one pass over the
    recommendations joined to the interactions. Returns a SELECT with one row per
    (group, metric, k): group columns, metric, k, value, n_users; or, with
    per_user=true, one row per (group, user, metric, k) with the per-user
    components for drill-down. The conventions are documented in docs/metrics.md. -#}
{% macro evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                  user_col='user_id', item_col='item_id', rank_col='rank', score_col=none, relevance_col=none,
                  ap_denominator='relevant', precision_denominator='k', gain='linear', relevance_threshold=1,
                  users='both', ties='item_desc', log_base=none, duplicate_interactions='error') %}
    {%- set spec = rankwise._evaluate_spec(metrics, k, group_by, per_user, user_col, item_col, rank_col, score_col,
                                           relevance_col, ap_denominator, precision_denominator, gain,
                                           relevance_threshold, users, ties, log_base, duplicate_interactions) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{% macro default__evaluate(recommendations, interactions, spec) -%}
{%- set float64 = rankwise.type_float64() -%}
{%- set groups = spec.groups -%}
{%- set threshold = spec.relevance_threshold -%}
{%- set list_components = [] -%}
{%- for component in spec.components if component != 'idcg' %}{% do list_components.append(component) %}{% endfor -%}

with

rw_recommendations as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        {{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.score is none %}
        {{ spec.rank }} as rw_rank
        {%- else %}
        -- trec_eval's order: score descending, then item id descending
        row_number() over (
            partition by {% for column in groups %}{{ column }}, {% endfor %}{{ spec.user }}
            order by {{ spec.score }} desc nulls last, {{ spec.item }} {{ 'desc' if spec.ties == 'item_desc' else 'asc' }} nulls last
        ) as rw_rank
        {%- endif %}
    from {{ recommendations }}
)

{%- if spec.user_metrics | length > 0 %},

rw_interactions as (
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

-- Per user of the truth: R, and IDCG over the whole truth set sorted by relevance.
rw_user_truth as (
    select
        rw_user,
        count(case when rw_relevance >= {{ threshold }} then 1 end) as rw_n_relevant
        {%- if 'idcg' in spec.components %}
        {%- for cutoff in spec.cutoffs %},
        {{ rankwise.idcg_at_k('rw_ideal_rank', 'rw_relevance', cutoff, spec.gain) }} as {{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
    from (
        select
            rw_user,
            rw_relevance,
            row_number() over (partition by rw_user order by rw_relevance desc nulls last) as rw_ideal_rank
        from rw_interactions
    ) as rw_ideal_lists
        {%- else %}
    from rw_interactions
        {%- endif %}
    group by rw_user
),

-- Each recommended row of a user with truth, with its relevance.
rw_judged as (
    select
        {%- for column in groups %}
        recommendation.{{ column }},
        {%- endfor %}
        recommendation.rw_user,
        recommendation.rw_rank,
        judgement.rw_relevance,
        case when judgement.rw_relevance >= {{ threshold }} then 1 else 0 end as rw_is_relevant,
        truth.rw_n_relevant
    from rw_recommendations as recommendation
    inner join rw_user_truth as truth
        on recommendation.rw_user = truth.rw_user
    left join rw_interactions as judgement
        on recommendation.rw_user = judgement.rw_user
        and recommendation.rw_item = judgement.rw_item
),

{%- if spec.needs_running_hits %}

-- Relevant items at this rank or better: P@rank for every cutoff at once.
rw_judged_running as (
    select
        rw_judged.*,
        sum(rw_is_relevant) over (
            partition by {% for column in groups %}{{ column }}, {% endfor %}rw_user
            order by rw_rank
            rows between unbounded preceding and current row
        ) as rw_hits_so_far
    from rw_judged
),
{%- endif %}

-- The one pass: every component at every cutoff, one row per list.
rw_user_lists as (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        rw_user
        {%- for component in list_components %}
        {%- if rankwise._is_cutoff_free(component) %},
        {{ rankwise._list_component(component, none, spec) }} as {{ rankwise._component_column(component, none) }}
        {%- else %}
        {%- for cutoff in spec.cutoffs %},
        {{ rankwise._list_component(component, cutoff, spec) }} as {{ rankwise._component_column(component, cutoff) }}
        {%- endfor %}
        {%- endif %}
        {%- endfor %}
    from {{ 'rw_judged_running' if spec.needs_running_hits else 'rw_judged' }}
    group by {% for column in groups %}{{ column }}, {% endfor %}rw_user
),

-- The users each group's means are taken over (the `users` convention).
rw_user_components as (
    {%- if spec.users == 'interactions' %}
    -- every user with truth, in every group; no list means a list with no hit
    select
        {%- for column in groups %}
        rw_group_keys.{{ column }},
        {%- endfor %}
        truth.*
        {%- for component in list_components %}
        {%- set cutoffs = [none] if rankwise._is_cutoff_free(component) else spec.cutoffs %}
        {%- for cutoff in cutoffs %}
        {%- set column = rankwise._component_column(component, cutoff) %},
        {% if component == 'first_relevant_rank' %}list.{{ column }}{% else %}coalesce(list.{{ column }}, 0){% endif %} as {{ column }}
        {%- endfor %}
        {%- endfor %}
    from rw_user_truth as truth
    {%- if groups | length > 0 %}
    cross join (select distinct {{ groups | join(', ') }} from rw_recommendations) as rw_group_keys
    {%- endif %}
    left join rw_user_lists as list
        on truth.rw_user = list.rw_user
        {%- for column in groups %}
        and {{ rankwise.null_safe_equals('list.' ~ column, 'rw_group_keys.' ~ column) }}
        {%- endfor %}
    {%- else %}
    select
        list.*,
        truth.rw_n_relevant
        {%- if 'idcg' in spec.components %}
        {%- for cutoff in spec.cutoffs %},
        truth.{{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
        {%- endif %}
    from rw_user_lists as list
    inner join rw_user_truth as truth
        on list.rw_user = truth.rw_user
    {%- if spec.users == 'relevant' %}
    where truth.rw_n_relevant > 0
    {%- endif %}
    {%- endif %}
),

rw_user_metrics as (
    select
        rw_user_components.*
        {%- for entry in spec.user_metrics %},
        cast({{ rankwise._metric_expression(entry, spec) }} as {{ float64 }}) as rw_value__{{ entry.position }}
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
        count(distinct rw_user) as rw_n_users
    from rw_recommendations
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

{%- else %}

{%- if spec.user_metrics | length > 0 %}
select
    {%- for column in groups %}
    rw_means.{{ column }},
    {%- endfor %}
    grid.metric,
    grid.k,
    {{ rankwise._pick_by_position(spec.user_metrics, 'rw_means.rw_value__{position}') }} as value,
    rw_means.rw_n_users as n_users
from (
    select
        {%- for column in groups %}
        {{ column }},
        {%- endfor %}
        count(*) as rw_n_users
        {%- for entry in spec.user_metrics %},
        avg(rw_value__{{ entry.position }}) as rw_value__{{ entry.position }}
        {%- endfor %}
    from rw_user_metrics
    {%- if groups | length > 0 %}
    group by {{ groups | join(', ') }}
    {%- endif %}
    having count(*) > 0
) as rw_means
cross join rw_user_metric_grid as grid
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
