{#- One row of a problem report: how many rows of `source` match `condition`
    (or the sum of `count_column`), and the smallest example, written as
    'user / item' from the given columns. -#}
{% macro _problem_row(problem, column_name, source, condition, first, second=none, count_column=none) %}
    {%- set string = dbt.type_string() -%}
    {%- set first_text = "coalesce(cast(" ~ first ~ " as " ~ string ~ "), 'NULL')" -%}
    {%- if second is none -%}
        {%- set example = first_text -%}
    {%- else -%}
        {%- set example = first_text ~ " || ' / ' || coalesce(cast(" ~ second ~ " as " ~ string ~ "), 'NULL')" -%}
    {%- endif -%}
    {{ return("select '" ~ problem ~ "' as problem, " ~ rankwise._string_literal(column_name) ~ " as column_name, "
        ~ ("coalesce(sum(" ~ count_column ~ "), 0)" if count_column is not none else "count(*)") ~ " as n_rows, min(" ~ example ~ ") as example from "
        ~ source ~ " where " ~ condition) }}
{% endmacro %}
