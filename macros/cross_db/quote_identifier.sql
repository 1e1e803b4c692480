{#- Quotes one column name supplied by the user. adapter.quote() does not escape an
    embedded quote character, so a hostile name could close the quotes: here every
    quote character inside the name is escaped, doubled as the SQL standard
    requires (backslash-escaped on BigQuery). -#}
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

{#- BigQuery quotes identifiers with backticks, and a quoted identifier takes the
    backslash escapes of a string literal (a doubled backtick would end it):
    https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#quoted_identifiers -#}
{% macro bigquery__quote_identifier(name) -%}
    `{{ name | replace('\\', '\\\\') | replace('`', '\\`') }}`
{%- endmacro %}
