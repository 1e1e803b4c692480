{#- Arguments of the statistics macros. The SQL operands (a t statistic, degrees of
    freedom, a user key) are expressions the caller writes, as in safe_divide; the
    options (a probability, a seed) are numbers known when the SQL is rendered and
    reach it only as numeric literals written here. -#}

{#- A numeric SQL operand: an expression (a non-empty string), parenthesised, or a
    finite number, written as a literal; with integer=true, an integer number
    only (engines round a float cast to BIGINT differently). -#}
{% macro _sql_operand(macro_name, argument, value, integer=false) %}
    {%- if value is string and value | trim | length > 0 -%}
        {{ return('(' ~ value ~ ')') }}
    {%- elif value is number and value is not boolean and value is integer -%}
        {{ return('(' ~ value ~ ')') }}
    {%- elif value is number and value is not boolean and not integer and (value - value) == 0 -%}
        {{ return(rankwise._double_literal(value)) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a SQL expression (a column name such as '"
        ~ argument ~ "', as text) or " ~ ("an integer" if integer else "a number") ~ "; got " ~ rankwise._describe(value) ~ ".") }}
{% endmacro %}

{#- A floating point constant as a SQL literal that every engine reads as a 64-bit
    float: the shortest decimal that reads back as the same double (Python's repr),
    in exponent form, since Spark reads 0.5 as a DECIMAL (and its decimal division
    keeps 6 digits) but 0.5e0 as a DOUBLE; parenthesised when negative, so that
    `x - -1e0` cannot become `x --`. -#}
{% macro _double_literal(value) %}
    {%- set text = (value * 1.0) | string -%}
    {%- if 'e' not in text -%}
        {#- 8.0 as 8e0 -#}
        {%- set text = (text[:-2] if text.endswith('.0') else text) ~ 'e0' -%}
    {%- endif -%}
    {{ return('(' ~ text ~ ')' if value < 0 else text) }}
{% endmacro %}

{#- An integer option (a seed) known when the SQL is rendered. -#}
{% macro _check_integer(macro_name, argument, value) %}
    {%- if not (value is integer and value is not boolean) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be an integer; got " ~ rankwise._describe(value) ~ ".") }}
    {%- endif -%}
{% endmacro %}
