{#- Quotes one column name supplied by the user. adapter.quote() does not escape an
    embedded quote character, so a hostile name could close the quotes: here every
    quote character inside the name is doubled, as the SQL standard requires. -#}
{% macro quote_identifier(name) %}
    {%- if name is not string or name | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.quote_identifier: a column name must be a non-empty string; got " ~ (name | string) ~ ".") }}
    {%- endif -%}
    {{- return(adapter.dispatch('quote_identifier', 'rankwise')(name)) -}}
{% endmacro %}

{% macro default__quote_identifier(name) -%}
    "{{ name | replace('"', '""') }}"
{%- endmacro %}

{#- Spark quotes identifiers with backticks:
    https://spark.apache.org/docs/latest/sql-ref-identifier.html -#}
{% macro spark__quote_identifier(name) -%}
    `{{ name | replace('`', '``') }}`
{%- endmacro %}
