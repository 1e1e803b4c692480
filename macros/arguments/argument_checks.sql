{#- Argument checks shared by the public macros. Each raises a compiler error that
    names the macro, the argument and the value received. -#}

{% macro _check_choice(macro_name, argument, value, choices) %}
    {%- if value not in choices -%}
        {%- set quoted = [] -%}
        {%- for choice in choices %}{% do quoted.append("'" ~ choice ~ "'") %}{% endfor -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be one of " ~ quoted | join(', ') ~ "; got " ~ rankwise._describe(value) ~ ".") }}
    {%- endif -%}
{% endmacro %}

{#- A cutoff: a positive integer the engines can hold (BIGINT), or none for the
    whole list; with `column_allowed`, also a SQL expression (a column) holding
    the cutoff of each row, NULL meaning the whole list. -#}
{% macro _check_cutoff(macro_name, k, argument='k', column_allowed=false) %}
    {%- if column_allowed and k is string and k | length > 0 -%}
        {{ return(none) }}
    {%- endif -%}
    {%- if k is not none and not (k is integer and k is not boolean and k >= 1) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a positive integer" ~ (", a column" if column_allowed else "") ~ " (or none for the whole list); got " ~ rankwise._describe(k) ~ ".") }}
    {%- endif -%}
    {#- 2^63 - 1, the largest BIGINT, stands for the whole list inside evaluate, so
        the largest cutoff is one less: both fit every engine -#}
    {%- if k is not none and k > 9223372036854775806 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` is " ~ k ~ ", past the largest cutoff (2^63 - 2; 2^63 - 1, the largest BIGINT, stands for the whole list); pass none for the whole list.") }}
    {%- endif -%}
{% endmacro %}

{#- The SQL of a cutoff checked by _check_cutoff, with `whole_list` standing for
    none (or for NULL in a cutoff column). -#}
{% macro _cutoff_or(k, whole_list) %}
    {%- if k is none -%}
        {{ return(whole_list) }}
    {%- elif k is string -%}
        {{ return('coalesce(' ~ k ~ ', ' ~ whole_list ~ ')') }}
    {%- else -%}
        {{ return(k | string) }}
    {%- endif -%}
{% endmacro %}

{% macro _check_log_base(macro_name, log_base) %}
    {#- x - x is 0 for every finite number and NaN for NaN and the infinities -#}
    {%- if log_base is not none and not (log_base is number and log_base is not boolean and (log_base - log_base) == 0 and log_base > 0 and log_base != 1) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `log_base` must be a finite positive number other than 1 (or none for the natural log); got " ~ rankwise._describe(log_base) ~ ".") }}
    {%- endif -%}
{% endmacro %}

{#- A numeric option as SQL: checked to be a finite number (not a boolean, not
    text, not NaN or infinite) and written as a numeric literal, so that nothing a
    caller passes reaches the SQL as text. Every numeric option goes through here. -#}
{% macro _number_literal(macro_name, argument, value) %}
    {#- x - x is 0 for every finite number and NaN for NaN and the infinities -#}
    {%- if not (value is number and value is not boolean) or (value - value) != 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a finite number; got " ~ rankwise._describe(value) ~ ".") }}
    {%- endif -%}
    {{ return(value | string) }}
{% endmacro %}

{#- A probability of continuing (RBP's and RBO's p): a number above 0 and below 1. -#}
{% macro _check_probability(macro_name, argument, value) %}
    {%- if not (value is number and value is not boolean and value > 0 and value < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a number above 0 and below 1 (the chance of reading on to the next rank); got " ~ rankwise._describe(value) ~ ".") }}
    {%- endif -%}
{% endmacro %}

{#- A value as the user wrote it: strings quoted, so that '10' and 10 read apart. -#}
{% macro _describe(value) %}
    {%- if value is string -%}
        {{ return("'" ~ value ~ "'") }}
    {%- elif value is none -%}
        {{ return('none') }}
    {%- else -%}
        {{ return(value | string) }}
    {%- endif -%}
{% endmacro %}

{#- `rank <= k`, or always true for the whole list (k = none). -#}
{% macro _within_cutoff(rank, k) %}
    {%- if k is none -%}
        {{ return('1 = 1') }}
    {%- else -%}
        {{ return('(' ~ rank ~ ') <= ' ~ k) }}
    {%- endif -%}
{% endmacro %}
