{#- The rows of the queries of recommendation_problems and interaction_problems,
    given, in one query, so that an engine that starts a job per query starts
    one: rw_table 0 for the recommendations' problems, 1 for the interactions',
    the recommendations' first, each table's in the order of
    _problem_descriptions. -#}
{% macro _input_problems(recommendation_problems, interaction_problems) -%}
select * from (
select 0 as rw_table, problem, column_name, n_rows, example from (
{{ recommendation_problems }}
) as rw_recommendation_problems
union all
select 1 as rw_table, problem, column_name, n_rows, example from (
{{ interaction_problems }}
) as rw_interaction_problems
) as rw_input_problems
{{ rankwise._in_problem_order('problem', first='rw_table') }}
{%- endmacro %}
