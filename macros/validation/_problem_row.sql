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

{#- True for NaN and infinite values. Engines disagree on NaN: PostgreSQL, DuckDB
    and Spark hold NaN = NaN (so the IN list finds it), IEEE engines hold
    NaN <> NaN; isnan()/isinf() exist on DuckDB and Spark only. -#}
{% macro _is_not_finite(expression) %}
    {%- set float64 = rankwise.type_float64() -%}
    {%- set value = 'cast((' ~ expression ~ ') as ' ~ float64 ~ ')' -%}
    {{ return('(' ~ value ~ ' <> ' ~ value ~ ' or ' ~ value ~ " in (cast('NaN' as " ~ float64 ~ "), cast('Infinity' as "
        ~ float64 ~ "), cast('-Infinity' as " ~ float64 ~ ")))") }}
{% endmacro %}
