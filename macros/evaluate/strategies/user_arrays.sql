{#- The means from one row per list: the lists' grouping (rw_list_rows)
    collects each list's (rank, item) entries, the truth's
    (rw_user_truth_counts) each user's (item, relevance[, weight]) entries,
    the two meet on the user (rw_user_rows), every judged component is read
    off the list's judged entries with array functions, and one aggregate over
    the (list, cutoff) rows gives the sums, the users of each set and the
    input guard's counts (strategies/one_pass_means.sql). Each input is then
    read and exchanged once, by user (under partition_by, the interactions
    once more for each partition's users), where the other strategies join every
    recommended row to the interactions on (user, item), group the joined rows
    by list again, and read both inputs once more for the counts and the
    guard: on Spark each of those reads is a scan and a shuffle of its own.
    docs/decisions/0002-per-user-arrays-on-spark.md has the measurements.

    The plan picks it on an engine with lambdas over arrays
    (_engine_has_array_lambdas) when every judged component has an array form
    (the component registry's from_user_arrays) and the plan is one set of
    means of the lists, in groups or not (_judged_strategy). A list entry is
    judged by the first interaction of its user with its item (array_contains,
    then array_position for its relevance): with an interaction listed twice,
    which the input checks refuse, the join of the other strategies would
    judge it twice. Only the entries within the largest finite cutoff are
    collected. Spark evaluates each lambda per element outside its generated
    code: a field of the entries is read as an array of that field where the
    engine can (_array_field), and the entries are judged in one filter.
    Written in Spark's SQL (lambdas `x -> ...`):
    https://spark.apache.org/docs/latest/api/sql/index.html -#}

{#- The largest finite cutoff, up to which each list's entries are collected
    (an entry past it is never judged, and each one collected is moved and
    held per list); none when the whole list is asked. -#}
{% macro _entries_collected_up_to(spec) %}
    {{ return(none if none in spec.cutoffs else spec.cutoffs | max) }}
{% endmacro %}

{#- The aggregate of rw_list_rows holding each list's entries. -#}
{% macro _list_entries_aggregate(spec) %}
    {%- set limit = rankwise._entries_collected_up_to(spec) -%}
    {{ return('collect_list(struct(rw_rank, rw_item))' ~ (' filter (where rw_rank <= ' ~ limit ~ ')' if limit is not none else '')) }}
{% endmacro %}

{#- The `field` (rw_item, rw_rank) of every row of a list: its entries' and,
    past the largest cutoff, the rows' own (a NULL rank is past it too). -#}
{% macro _list_values(spec, field) %}
    {%- set limit = rankwise._entries_collected_up_to(spec) -%}
    {%- set entries = rankwise._array_field(rankwise._list_entries_aggregate(spec), field) -%}
    {{ return(entries if limit is none else 'concat(' ~ entries ~ ', collect_list(' ~ field ~ ') filter (where rw_rank is null or rw_rank > ' ~ limit ~ '))') }}
{% endmacro %}

{#- Whether the interactions differ in more than their item: without a
    relevance column every interaction has relevance 1 (rw_interactions), and
    the truth's entries are its items alone. -#}
{% macro _truth_entries_are_items(spec) %}
    {{ return(spec.relevance is none and spec.propensity is none) }}
{% endmacro %}

{#- The aggregate of rw_user_truth_counts holding each user's interactions:
    none when its items are all there is to hold (_truth_items_aggregate). -#}
{% macro _truth_entries_aggregate(spec) %}
    {%- if rankwise._truth_entries_are_items(spec) -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return('collect_list(struct(rw_item, rw_relevance' ~ (', rw_weight' if spec.propensity is not none else '') ~ '))') }}
{% endmacro %}

{#- The aggregate of rw_user_truth_counts holding each user's items, in the
    order of its entries where it has them (the same aggregate, read twice). -#}
{% macro _truth_items_aggregate(spec) %}
    {%- set entries = rankwise._truth_entries_aggregate(spec) -%}
    {{ return('collect_list(rw_item)' if entries is none else rankwise._array_field(entries, 'rw_item')) }}
{% endmacro %}

{#- The input guard's flag of a list (side 'lists') or of a user's truth
    ('truth') holding an item (`field` rw_item) or a rank (rw_rank) twice, from
    every row's values against the rows, or for a list's ranks where the engine
    counts them as bits, the whole ranks in 1..63 as bits and the others as
    values (a list of such ranks alone collects none). A NULL counts as a
    value here, and is a problem row of its own. -#}
{% macro _repeated_in_entries(spec, side, field) %}
    {%- set distinct_small = rankwise._distinct_small_ranks('rw_rank') if side == 'lists' and field == 'rw_rank' else none -%}
    {%- if distinct_small is not none -%}
        {%- set small = '(' ~ rankwise._is_small_whole_rank('rw_rank') ~ ')' -%}
        {{ return('case when ' ~ distinct_small ~ ' < count(case when ' ~ small ~ ' then 1 end)'
                  ~ ' or size(array_distinct(collect_list(rw_rank) filter (where not ' ~ small ~ '))) < count(case when not ' ~ small ~ ' then 1 end)'
                  ~ ' then 1 else 0 end') }}
    {%- endif -%}
    {%- set values = rankwise._list_values(spec, field) if side == 'lists' else rankwise._truth_items_aggregate(spec) -%}
    {{ return('case when size(array_distinct(' ~ values ~ ')) < count(*) then 1 else 0 end') }}
{% endmacro %}

{#- rw_user_rows: one row per list and per user of the truth without one (a
    full join, so that the input guard sees every list and every truth), with
    whether each side has it, the truth's counts, the list's length, the
    judged entries (NULL without a list, none without truth) and, for the input
    guard, the problems of both sides. -#}
{% macro _stage_user_rows(spec) %}
    {%- set list_repeats = ' + list.rw_check_items' ~ (' + list.rw_check_ranks' if spec.score is none else '') -%}
rw_user_rows as (
    select
        {#- a user of the truth alone is in no group #}
        {{ rankwise._selected_columns(spec.groups, 'list') }}coalesce(list.rw_user, truth.rw_user) as rw_user,
        case when list.rw_list_length is not null then 1 else 0 end as rw_has_list,
        case when truth.rw_n_truth_items is not null then 1 else 0 end as rw_has_truth,
        {%- if rankwise._truth_users_counted_in_one_pass(spec) %}
        case when truth.rw_n_truth_items is not null and coalesce(list.rw_is_first_list, 1) = 1 then 1 else 0 end as rw_counts_truth_user,
        {%- endif %}
        list.rw_list_length as rw_list_length,
        truth.rw_n_relevant as rw_n_relevant,
        truth.rw_n_truth_items as rw_n_truth_items,
        {%- if spec.propensity is not none %}
        truth.rw_weighted_relevant as rw_weighted_relevant,
        {%- endif %}
        {%- if spec.input_guard %}
        coalesce(list.rw_problem_rows{{ list_repeats }}, 0) + coalesce(truth.rw_problem_rows + truth.rw_check_items, 0) as rw_problem_rows,
        {%- endif %}
        {%- if 'idcg' in spec.components and not rankwise._planned(spec, 'ideal_gains') %}
        {#- the user's relevances in their best order, IDCG's ideal list (NULL
            without truth) #}
        sort_array({{ rankwise._array_field('truth.rw_truth_entries', 'rw_relevance') }}, false) as rw_ideal_relevances,
        {%- endif %}
        {#- each list entry (within the largest cutoff) found among the truth's
            items, with the relevance of the interaction found: looked up by
            position for the entries found alone, in one filter over the list #}
        {%- if rankwise._truth_entries_are_items(spec) %}
        {%- set relevance = 'cast(1 as ' ~ rankwise.type_float64() ~ ')' %}
        {%- else %}
        {%- set found = 'element_at(truth.rw_truth_entries, cast(array_position(truth.rw_truth_items, rw_entry.rw_item) as int))' %}
        {%- set relevance = found ~ '.rw_relevance' %}
        {%- endif %}
        sort_array(transform(
            filter(list.rw_list_entries, rw_entry -> array_contains(truth.rw_truth_items, rw_entry.rw_item)),
            rw_entry -> named_struct(
                'rw_rank', rw_entry.rw_rank,
                'rw_relevance', {{ relevance }},
                'rw_is_relevant', case when {{ rankwise._is_relevant(relevance, spec) }} then 1 else 0 end
                {%- if spec.propensity is not none %},
                'rw_weight', {{ found }}.rw_weight
                {%- endif %}
            )
        )) as rw_judged_entries
    from rw_list_rows as list
    full join rw_user_truth_counts as truth
        on truth.rw_user = list.rw_user{{ rankwise._partitions_match('list', 'truth', spec) }}
)
{%- endmacro %}

{#- rw_user_components under user_arrays: per (user, cutoff) of every user row,
    the components read off the judged entries within the cutoff (rw_within)
    and the relevant ones among them (rw_relevant_within); a user without both
    sides has the components of a list with no judged row. -#}
{% macro _stage_user_components__user_arrays(spec) %}
    {%- set registry = rankwise._component_registry() -%}
rw_user_components as (
    select
        {{ rankwise._selected_columns(spec.groups, 'truth') }}truth.rw_user as rw_user,
        truth.rw_limit as rw_limit,
        truth.rw_k as rw_k,
        truth.rw_has_list as rw_has_list,
        truth.rw_has_truth as rw_has_truth,
        {{ rankwise._selected_columns(['rw_counts_truth_user'] if rankwise._truth_users_counted_in_one_pass(spec) else [], 'truth') }}truth.rw_n_relevant as rw_n_relevant
        {%- if spec.propensity is not none %},
        truth.rw_weighted_relevant as rw_weighted_relevant
        {%- endif %}
        {%- if spec.input_guard %},
        truth.rw_problem_rows as rw_problem_rows
        {%- endif %}
        {%- for instance in spec.components_from.judged %}
        {%- set declared = registry[spec.component_instances[instance].component] %},
        case when truth.rw_judged_entries is null then {{ declared.without_list }} else {{ rankwise[declared.from_user_arrays](spec) }} end as {{ rankwise._component_column(instance) }}
        {%- endfor %}
        {%- if 'n_recommended' in spec.components %},
        {#- only the whole list's length is read (no exact lengths in this plan) #}
        case when truth.rw_limit = {{ spec.whole_list }} then coalesce(truth.rw_list_length, 0) else cast(0 as bigint) end as rw_n_recommended
        {%- endif %}
        {%- if 'idcg' in spec.components %},
        {{ rankwise._idcg_value('truth.rw_limit', spec) }} as rw_idcg
        {%- endif %}
    from (
        select
            user_row.*,
            cutoff.rw_limit as rw_limit,
            cutoff.rw_k as rw_k,
            filter(user_row.rw_judged_entries, rw_entry -> rw_entry.rw_rank <= cutoff.rw_limit) as rw_within,
            filter(user_row.rw_judged_entries, rw_entry -> rw_entry.rw_rank <= cutoff.rw_limit and rw_entry.rw_is_relevant = 1) as rw_relevant_within
        from rw_user_rows as user_row
        {{ rankwise._each_cutoff(spec, 'cutoff') }}
    ) as truth
    {%- if 'idcg' in spec.components %}
    {{ rankwise._join_idcg('truth', 'truth.rw_limit', spec) }}
    {%- endif %}
)
{%- endmacro %}

{#- The sum of `term` (over rw_entry) over the entries of `entries`; a NULL term
    adds nothing, as in the aggregate sum. -#}
{% macro _array_sum(entries, term) %}
    {{ return('aggregate(' ~ entries ~ ', cast(0 as double), (rw_total, rw_entry) -> rw_total + coalesce(cast(' ~ term ~ ' as double), 0))') }}
{% endmacro %}

{#- The array forms of the judged components (the component registry): each
    that of its aggregate in running_hits.sql, over rw_within and
    rw_relevant_within. -#}

{% macro _array_hits(spec) %}
    {{ return('cast(size(rw_relevant_within) as bigint)') }}
{% endmacro %}

{% macro _array_n_judged(spec) %}
    {{ return('cast(size(rw_within) as bigint)') }}
{% endmacro %}

{% macro _array_weighted_hits(spec) %}
    {{ return(rankwise._array_sum('rw_relevant_within', 'rw_entry.rw_weight')) }}
{% endmacro %}

{#- P@rank at each relevant rank: the relevant entries are in rank order, so
    the hits up to one are its position among them. -#}
{% macro _array_precision_sum(spec) %}
    {%- set precisions = 'transform(rw_relevant_within, (rw_relevant, rw_position) -> ' ~ rankwise.safe_divide('rw_position + 1', 'rw_relevant.rw_rank') ~ ')' -%}
    {{ return(rankwise._array_sum(precisions, 'rw_entry')) }}
{% endmacro %}

{% macro _array_first_relevant_rank(spec) %}
    {{ return('array_min(transform(rw_relevant_within, rw_entry -> rw_entry.rw_rank))') }}
{% endmacro %}

{% macro _array_dcg(spec) %}
    {%- set term = rankwise.dcg_term('rw_entry.rw_rank', 'rw_entry.rw_relevance', spec.gain, spec.min_gain_relevance) -%}
    {{ return(rankwise._array_sum('rw_within', term ~ (' * rw_entry.rw_weight' if spec.propensity is not none else ''))) }}
{% endmacro %}

{% macro _array_hits_within_n_relevant(spec) %}
    {{ return('cast(size(filter(rw_relevant_within, rw_entry -> rw_entry.rw_rank <= rw_n_relevant)) as bigint)') }}
{% endmacro %}

{#- IDCG under user_arrays (the plan's ideal_strategy, with relevances): the sum
    of dcg_term over the first `limit` of the user row's ideal relevances, read
    on the row of rw_user_components (`truth`); NULL for a user without truth,
    as the other strategies' joins leave it. No stage (the ideal_gains stage
    has no provider under this strategy), nothing to join. -#}
{% macro _join_ideal_lists__user_arrays(alias, limit, spec) %}
    {{ return('') }}
{% endmacro %}

{% macro _idcg_value__user_arrays(limit, spec) %}
    {%- set term = rankwise.dcg_term('rw_ideal_rank + 1', 'rw_ideal_relevance', spec.gain, spec.min_gain_relevance) -%}
    {%- set terms = 'transform(truth.rw_ideal_relevances, (rw_ideal_relevance, rw_ideal_rank) -> case when rw_ideal_rank < ' ~ limit ~ ' then ' ~ term ~ ' end)' -%}
    {{ return('(case when truth.rw_ideal_relevances is not null then ' ~ rankwise._array_sum(terms, 'rw_entry') ~ ' end)') }}
{% endmacro %}
