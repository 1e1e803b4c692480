{#- Rows of a problem report from one filtered read of a column: the rows of
    `source` matching `condition` are counted by kind, so that the problems of one
    column (null, NaN or infinite, not whole) cost one read of it rather than one
    each. `kinds` lists (problem, condition, example columns); a matched row counts
    for the first kind whose condition holds, a condition of none holding for
    every row left. Gives one row per kind found, with the columns of
    rankwise._problem_row: problem, column_name, n_rows, example. -#}
{% macro _problem_rows_by_kind(column_name, source, condition, kinds) %}
    {%- set string = dbt.type_string() -%}
    {%- set problems = [] -%}
    {%- set examples = [] -%}
    {%- for problem, kind_condition, example_columns in kinds -%}
        {%- set texts = [] -%}
        {%- for column in example_columns -%}
            {%- do texts.append("coalesce(cast(" ~ column ~ " as " ~ string ~ "), 'NULL')") -%}
        {%- endfor -%}
        {%- set branch = 'else' if kind_condition is none else 'when ' ~ kind_condition ~ ' then' -%}
        {%- do problems.append(branch ~ " '" ~ problem ~ "'") -%}
        {%- do examples.append(branch ~ " " ~ texts | join(" || ' / ' || ")) -%}
    {%- endfor -%}
    {{ return("select problem, " ~ rankwise._string_literal(column_name) ~ " as column_name, count(*) as n_rows, min(example) as example from ("
        ~ "select case " ~ problems | join(' ') ~ " end as problem, case " ~ examples | join(' ') ~ " end as example from "
        ~ source ~ " where " ~ condition ~ ") as rw_matched where problem is not null group by problem") }}
{% endmacro %}
