{#- The input checks fused into the metric query, for the Python wrapper's
    evaluate with validate=True (macro _guarded_evaluate): the problems that
    recommendation_problems and interaction_problems report are counted in the
    passes over the lists (rw_list_rows) and over the truth
    (rw_user_truth_counts) that the metrics make anyway, and the output has its
    rows only when there is none and both tables have rows. An empty result
    sends the wrapper to those two macros, which name the problem; when they
    find none, the result was empty on its own account.

    Exact, as the checks are: where the engine counts a list's distinct values
    in the list's own aggregate (_exact_distinct_count), that pass finds every
    item or rank twice in a list; elsewhere it rules out an item twice in a
    list whose items fill as many hash buckets as it has items, and a rank
    twice in a list whose ranks are whole numbers in 1..63, as distinct bits of
    one integer (where the engine has those aggregates: _may_repeat_items,
    _may_repeat_ranks), and only the other lists are grouped by (list, item)
    or (list, rank). -#}

{#- The rows of the recommendations that recommendation_problems reports one
    by one (null ids, invalid ranks or scores, ranks below 1), and those of the
    interactions that interaction_problems reports one by one (null ids, and
    with a relevance column invalid or negative relevances, and under
    gain='exponential' those too large for it): _invalid_values.sql. -#}
{% macro _row_problem(spec, side) %}
    {%- set problem = 'rw_user is null or rw_item is null' -%}
    {%- if side == 'lists' -%}
        {{ return(problem ~ ' or ' ~ (rankwise._invalid_number('rw_score') if spec.score is not none
                                       else rankwise._invalid_rank('rw_rank') ~ ' or rw_rank < 1')) }}
    {%- endif -%}
    {%- if spec.relevance is not none -%}
        {%- set problem = problem ~ ' or ' ~ rankwise._invalid_number('rw_relevance') ~ ' or rw_relevance < 0'
            ~ (' or ' ~ rankwise._too_large_for_exponential_gain('rw_relevance') if spec.gain == 'exponential' else '') -%}
    {%- endif -%}
    {{ return(problem) }}
{% endmacro %}

{#- The aggregates of one list (of the recommendations) or of one user's truth
    that the guard reads: its rows with a problem, and where the engine can
    rule out a value twice in one pass, whether the exact grouping must look at
    its items (rw_check_items) or its ranks (rw_check_ranks). -#}
{% macro _input_guard_aggregates(spec, side) %}
    {%- set aggregates = ['count(case when ' ~ rankwise._row_problem(spec, side) ~ ' then 1 end) as rw_problem_rows'] -%}
    {%- if spec.strategies.means == 'one_pass' -%}
        {#- the user_arrays strategy's entries hold every value of the list -#}
        {%- do aggregates.append(rankwise._repeated_in_entries(spec, side, 'rw_item') ~ ' as rw_check_items') -%}
        {%- if side == 'lists' and spec.score is none -%}
            {%- do aggregates.append(rankwise._repeated_in_entries(spec, side, 'rw_rank') ~ ' as rw_check_ranks') -%}
        {%- endif -%}
        {{ return(aggregates) }}
    {%- endif -%}
    {%- set may_repeat_items = rankwise._may_repeat_items('rw_item') -%}
    {%- if may_repeat_items is not none -%}
        {%- do aggregates.append(may_repeat_items ~ ' as rw_check_items') -%}
    {%- endif -%}
    {%- set may_repeat_ranks = rankwise._may_repeat_ranks('rw_rank') if side == 'lists' and spec.score is none else none -%}
    {%- if may_repeat_ranks is not none -%}
        {%- do aggregates.append(may_repeat_ranks ~ ' as rw_check_ranks') -%}
    {%- endif -%}
    {{ return(aggregates) }}
{% endmacro %}

{#- The condition under which the inputs pass: both tables have rows (`lists`,
    `truth`: their counts) and each count of `problems` is 0. -#}
{% macro _inputs_pass(lists, truth, problems) %}
    {%- set conditions = [lists ~ ' > 0', truth ~ ' > 0'] -%}
    {%- for problem in problems %}{% do conditions.append(problem ~ ' = 0') %}{% endfor -%}
    {{ return(conditions | join(' and ')) }}
{% endmacro %}

{#- rw_input_guard: one row when the inputs pass every check, none otherwise. -#}
{% macro _stage_input_guard(spec) %}
    {%- set truth_keys = spec.partitions + ['rw_user'] -%}
    {%- set counted_exactly = rankwise._exact_distinct_count('rw_item') is not none -%}
    {%- set repeated = [] -%}
    {%- if not counted_exactly -%}
        {%- set item_flag = 'rw_check_items' if rankwise._may_repeat_items('rw_item') is not none else none -%}
        {%- do repeated.append(('rw_repeated_items', rankwise._repeated_in_list('rw_item', spec.list_keys, spec.groups, item_flag, 'rw_recommendations', 'rw_list_rows'))) -%}
        {%- do repeated.append(('rw_repeated_interactions', rankwise._repeated_in_list('rw_item', truth_keys, spec.partitions, item_flag, 'rw_interactions', 'rw_user_truth_counts'))) -%}
        {%- if spec.score is none -%}
            {%- set rank_flag = 'rw_check_ranks' if rankwise._may_repeat_ranks('rw_rank') is not none else none -%}
            {%- do repeated.append(('rw_repeated_ranks', rankwise._repeated_in_list('rw_rank', spec.list_keys, spec.groups, rank_flag, 'rw_recommendations', 'rw_list_rows'))) -%}
        {%- endif -%}
    {%- endif -%}
    {#- counted exactly, a list's flags are its values twice -#}
    {%- set list_repeats = ' + sum(rw_check_items)' ~ (' + sum(rw_check_ranks)' if spec.score is none else '') if counted_exactly else '' -%}
    {%- set truth_repeats = ' + sum(rw_check_items)' if counted_exactly else '' -%}
rw_input_guard as (
    select 1 as rw_inputs_pass
    from (
        select count(*) as rw_n, sum(rw_problem_rows){{ list_repeats }} as rw_problem_rows from rw_list_rows
    ) as rw_lists
    cross join (
        select count(*) as rw_n, sum(rw_problem_rows){{ truth_repeats }} as rw_problem_rows from rw_user_truth_counts
    ) as rw_truth
    {%- for name, query in repeated %}
    cross join (
        select count(*) as rw_n from (
        {{ query }}
        ) as {{ name }}
    ) as {{ name }}
    {%- endfor %}
    where {{ rankwise._inputs_pass('rw_lists.rw_n', 'rw_truth.rw_n', ['rw_lists.rw_problem_rows', 'rw_truth.rw_problem_rows']) }}
        {%- for name, query in repeated %}
        and {{ name }}.rw_n = 0
        {%- endfor %}
)
{%- endmacro %}
