{#- Stages over the recommendations: each list's rows with their rank, one row per
    list, and the cutoffs as rows. -#}

{#- rw_recommendations: (groups, rw_user, rw_item, rw_rank). With a score column
    the rank is derived; the tie rule is the `ties` option. judged_only,
    ignore_identical_ids and duplicate_recommendations='first' drop rows first
    (kept_recommendations.sql). -#}
{% macro _stage_recommendations(spec) %}
    {%- set list = rankwise._group_columns(spec.groups) ~ spec.user -%}
    {%- set recommendations, interactions = spec.relations.recommendations, spec.relations.interactions -%}
    {%- set rank = spec.rank -%}
    {%- if rankwise._drops_recommendations(spec) -%}
        {#- the rows kept (kept_recommendations.sql), under rank_col each with its rank closed up -#}
        {%- set recommendations = rankwise._kept_recommendations(spec) -%}
        {%- set rank = 'rw_kept_rank' -%}
    {%- endif -%}
{{ rankwise._cte_as('rw_recommendations', spec.inlined_recommendations) }}
    select
        {{ rankwise._group_columns(spec.groups) }}{{ spec.user }} as rw_user,
        {{ spec.item }} as rw_item,
        {%- if spec.score is none %}
        {{ rank }} as rw_rank
        {%- elif spec.ties == 'shared' %}
        -- tied scores share the truncated mean of their positions, as pandas'
        -- rank(method='average').astype(int) gives them (Evidently)
        rank() over (partition by {{ list }} order by {{ spec.score }} desc nulls last)
            + cast(floor((count(*) over (partition by {{ list }}, {{ spec.score }}) - 1) / 2.0) as bigint) as rw_rank
        {%- else %}
        -- trec_eval's order: score descending, then item id descending
        row_number() over (
            partition by {{ list }}
            order by {{ spec.score }} desc nulls last, {{ spec.item }} {{ 'desc' if spec.ties == 'item_desc' else 'asc' }} nulls last
        ) as rw_rank
        {%- endif %}
        {%- if spec.input_guard and spec.score is not none %},
        {{ spec.score }} as rw_score
        {%- endif %}
    {% if spec.user_group is none and rankwise._drops_recommendations(spec) -%}
    from {{ recommendations }} as rw_kept
    {%- elif spec.user_group is none -%}
    from {{ rankwise._rows_by_user(recommendations, spec) }}
    {%- else -%}
    {#- each list in its user's group of the interactions (of its partition) -#}
    from (
        select recommendation.*, user_group.rw_user_group as {{ spec.user_group }}
        from {{ recommendations }} as recommendation
        left join (
            select distinct {{ rankwise._partition_columns(spec) }}{{ spec.user }} as rw_group_user, {{ spec.user_group }} as rw_user_group
            from {{ interactions }}
        ) as user_group
            on user_group.rw_group_user = recommendation.{{ spec.user }}{{ rankwise._partitions_match('user_group', 'recommendation', spec) }}
    ) as rw_grouped_recommendations
    {%- endif %}
)
{%- endmacro %}

{#- The recommendations as rw_recommendations reads them, when it reads them
    as given. -#}
{% macro _rows_by_user(recommendations, spec) %}
    {{- return(adapter.dispatch('_rows_by_user', 'rankwise')(recommendations, spec)) -}}
{% endmacro %}

{% macro default___rows_by_user(recommendations, spec) -%}
    {{ recommendations }}
{%- endmacro %}

{#- Spark: with score_col, the rows shuffled by user once, which serves the
    rank's window (by list), the lists' aggregate and their join to the truth
    (by user). Spark would shuffle for each: a list's key is the groups and
    the user, and the window reads the user under its input's name, not as
    rw_user
    (https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-distribute-by.html).
    With rank_col there is no window, and the lists' aggregate shuffles the
    lists it has partly collected on each side of the shuffle, which moves
    less than the rows. -#}
{% macro spark___rows_by_user(recommendations, spec) -%}
    {%- if spec.score is none -%}
    {{ recommendations }}
    {%- else -%}
    (select * from {{ recommendations }} distribute by {{ spec.user }}) as rw_rows_by_user
    {%- endif -%}
{%- endmacro %}

{#- rw_list_rows: one row per list, with its length (the input guard's
    aggregates: stage_input_guard.sql; the user_arrays strategy's entries). The counts that meet a
    BIGINT (a cutoff, a literal) in a CASE, a COALESCE or a UNION are cast to
    BIGINT: ClickHouse counts in UInt64, which has no common type with Int64. -#}
{% macro _stage_list_rows(spec) %}
rw_list_rows as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        cast(count(*) as bigint) as rw_list_length
        {%- if spec.strategies.means == 'one_pass' %},
        {{ rankwise._list_entries_aggregate(spec) }} as rw_list_entries
        {%- if rankwise._truth_users_counted_in_one_pass(spec) %},
        -- the user's first list, whose row counts the user among the truth's users
        case when row_number() over (partition by rw_user order by {{ rankwise._group_columns(spec.groups)[:-2] }}) = 1 then 1 else 0 end as rw_is_first_list
        {%- endif %}
        {%- endif %}
        {%- if spec.input_guard %}
        {%- for aggregate in rankwise._input_guard_aggregates(spec, 'lists') %},
        {{ aggregate }}
        {%- endfor %}
        {%- endif %}
    from rw_recommendations
    group by {{ spec.list_keys | join(', ') }}
)
{%- endmacro %}

{#- rw_cutoffs: one row per cutoff of the per-user metrics: rw_k as asked (NULL
    for the whole list), rw_limit, the largest rank within it, never NULL so that
    it can be joined on, and whether it is one of the cutoffs of `k`. -#}
{% macro _stage_cutoffs(spec) %}
rw_cutoffs as (
    select cast(rw_k as bigint) as rw_k, cast(rw_limit as bigint) as rw_limit, rw_is_default
    from ({{ rankwise._literal_rows(['rw_k', 'rw_limit', 'rw_is_default'], rankwise._cutoff_rows(spec)) }}) as rw_cutoff_values
)
{%- endmacro %}

{#- The rows of rw_cutoffs, as lists of SQL values (rw_k, rw_limit, rw_is_default). -#}
{% macro _cutoff_rows(spec) %}
    {%- set rows = [] -%}
    {%- for cutoff in spec.cutoffs -%}
        {%- do rows.append(['null' if cutoff is none else cutoff, spec.whole_list if cutoff is none else cutoff,
                            1 if cutoff in spec.default_cutoffs else 0]) -%}
    {%- endfor -%}
    {{ return(rows) }}
{% endmacro %}

{#- Each row of the FROM clause it ends once per cutoff, the cutoff under
    `alias` (rw_k, rw_limit, rw_is_default): a cross join to rw_cutoffs. -#}
{% macro _each_cutoff(spec, alias) %}
    {{- return(adapter.dispatch('_each_cutoff', 'rankwise')(spec, alias)) -}}
{% endmacro %}

{% macro default___each_cutoff(spec, alias) -%}
    cross join rw_cutoffs as {{ alias }}
{%- endmacro %}

{#- Spark: the cutoffs generated beside each row, from an array of their
    rows, as a join to literal rows is a broadcast and a Spark job of its own
    (https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-lateral-view.html).
    Databricks documents the clause, deprecated for a generator in FROM,
    which would be joined. -#}
{% macro spark___each_cutoff(spec, alias) -%}
    {%- set structs = [] -%}
    {%- for rw_k, rw_limit, rw_is_default in rankwise._cutoff_rows(spec) -%}
        {%- do structs.append("named_struct('rw_k', cast(" ~ rw_k ~ " as bigint), 'rw_limit', cast(" ~ rw_limit
                              ~ " as bigint), 'rw_is_default', " ~ rw_is_default ~ ")") -%}
    {%- endfor -%}
    lateral view inline(array({{ structs | join(', ') }})) {{ alias }} as rw_k, rw_limit, rw_is_default
{%- endmacro %}

{#- rw_list_lengths: per (list, cutoff), the items within the cutoff, where
    something reads it at every cutoff (the plan's lengths strategy 'exact':
    per-user output, precision_denominator='list_length'). -#}
{% macro _stage_list_lengths__exact(spec) %}
rw_list_lengths as (
    select
        {{ rankwise._selected_columns(spec.groups, 'recommendation') }}recommendation.rw_user as rw_user,
        cutoff.rw_limit as rw_limit,
        cast(count(*) as bigint) as rw_n_recommended
    from rw_recommendations as recommendation
    inner join rw_cutoffs as cutoff
        on recommendation.rw_rank <= cutoff.rw_limit
    group by {{ rankwise._group_columns(spec.groups, 'recommendation') }}recommendation.rw_user, cutoff.rw_limit
)
{%- endmacro %}

{#- rw_list_lengths at the whole list only, the one cutoff that reads a length
    otherwise (the lengths strategy 'whole_list'). -#}
{% macro _stage_list_lengths__whole_list(spec) %}
rw_list_lengths as (
    select
        {{ rankwise._group_columns(spec.groups) }}rw_user,
        cast({{ spec.whole_list }} as bigint) as rw_limit,
        rw_list_length as rw_n_recommended
    from rw_list_rows
)
{%- endmacro %}
