{#- Stages over the interactions: relevance per (user, item), R per user, and
    the ideal order for IDCG. -#}

{#- rw_interactions: (rw_user, rw_item, rw_relevance); duplicate_interactions='max'
    keeps the highest relevance of a pair listed twice. -#}
{% macro _stage_interactions(interactions, spec) %}
    {%- set relevance = 'cast(' ~ (spec.relevance if spec.relevance is not none else 1) ~ ' as ' ~ rankwise.type_float64() ~ ')' -%}
rw_interactions as {{ (rankwise._inlined_cte() | trim) ~ ' ' if spec.duplicate_interactions != 'max' and rankwise._inlined_cte() | trim }}(
    select
        {{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.duplicate_interactions == 'max' %}
        max({{ relevance }}) as rw_relevance
    from {{ interactions }}
    group by {{ spec.user }}, {{ spec.item }}
        {%- else %}
        {{ relevance }} as rw_relevance
    from {{ interactions }}
        {%- endif %}
)
{%- endmacro %}

{#- rw_user_truth_counts: per user of the truth, R, the number of relevant items. -#}
{% macro _stage_user_truth_counts(spec) %}
rw_user_truth_counts as (
    select
        rw_user,
        count(case when {{ rankwise._is_relevant('rw_relevance', spec) }} then 1 end) as rw_n_relevant
    from rw_interactions
    group by rw_user
)
{%- endmacro %}

{#- rw_ideal_lists: IDCG at every cutoff, the DCG of the user's whole truth sorted
    by relevance. Only a user with a judged row can have a DCG above 0, and NDCG
    is 0 for the others whatever their IDCG, so unless IDCG itself is asked for,
    only those users' truth is sorted. -#}
{% macro _stage_ideal_lists(spec) %}
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
        {%- if not spec.every_idcg %}
        where rw_user in (select rw_user from rw_judged_lists)
        {%- endif %}
    ) as rw_ideal_order
    group by rw_user
)
{%- endmacro %}

{#- rw_user_truth: per user of the truth, R and IDCG at every cutoff (NULL for a
    user left out of rw_ideal_lists, who has no DCG above 0). -#}
{% macro _stage_user_truth(spec) %}
rw_user_truth as (
    select
        counts.rw_user,
        counts.rw_n_relevant
        {%- if 'idcg' in spec.components_from.truth %}
        {%- for cutoff in spec.cutoffs %},
        {% if spec.idcg == 'k_positions' and cutoff is none -%}
        -- the whole list has no fixed number of slots; only cutoff-free metrics
        -- such as r_precision ask for this cutoff, and they read no IDCG
        cast(null as {{ rankwise.type_float64() }})
        {%- elif spec.idcg == 'k_positions' -%}
        {{ rankwise.idcg_of_k_slots(cutoff) }}
        {%- else -%}
        ideal.{{ rankwise._component_column('idcg', cutoff) }}
        {%- endif %} as {{ rankwise._component_column('idcg', cutoff) }}
        {%- endfor %}
        {%- endif %}
    from rw_user_truth_counts as counts
    {%- if spec.needs_ideal_order %}
    left join rw_ideal_lists as ideal
        on counts.rw_user = ideal.rw_user
    {%- endif %}
)
{%- endmacro %}
