{#- A string literal holding `text` exactly (a column name supplied by the user,
    in the problem reports), so that no quote or backslash inside it can end the
    literal early. -#}
{% macro _string_literal(text) %}
    {{- return(adapter.dispatch('_string_literal', 'rankwise')(text | string)) -}}
{% endmacro %}

{#- The SQL standard: a quote inside the literal is doubled, a backslash is itself. -#}
{% macro default___string_literal(text) %}
    {{- return("'" ~ text | replace("'", "''") ~ "'") -}}
{% endmacro %}

{#- Spark reads backslash escapes in a literal and takes 'a''b' for two adjacent
    literals ('ab'), so both characters are escaped with a backslash:
    https://spark.apache.org/docs/latest/sql-ref-literals.html#string-literal -#}
{% macro spark___string_literal(text) %}
    {{- return("'" ~ text | replace('\\', '\\\\') | replace("'", "\\'") ~ "'") -}}
{% endmacro %}

{#- BigQuery reads backslash escapes and refuses a doubled quote (two adjacent
    literals): https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#string_and_bytes_literals -#}
{% macro bigquery___string_literal(text) %}
    {{- return("'" ~ text | replace('\\', '\\\\') | replace("'", "\\'") ~ "'") -}}
{% endmacro %}

{#- Snowflake reads backslash escapes in a single-quoted literal; a doubled quote is
    a quote: https://docs.snowflake.com/en/sql-reference/data-types-text#escape-sequences-in-single-quoted-string-constants -#}
{% macro snowflake___string_literal(text) %}
    {{- return("'" ~ text | replace('\\', '\\\\') | replace("'", "''") ~ "'") -}}
{% endmacro %}

{#- ClickHouse reads backslash escapes in a literal; a doubled quote is a quote:
    https://clickhouse.com/docs/sql-reference/syntax#string -#}
{% macro clickhouse___string_literal(text) %}
    {{- return("'" ~ text | replace('\\', '\\\\') | replace("'", "''") ~ "'") -}}
{% endmacro %}

{#- Redshift, unlike PostgreSQL today, reads backslash escapes in a literal (its LIKE
    writes one backslash as two: https://docs.aws.amazon.com/redshift/latest/dg/r_patternmatching_condition_like.html);
    a doubled quote is a quote. -#}
{% macro redshift___string_literal(text) %}
    {{- return("'" ~ text | replace('\\', '\\\\') | replace("'", "''") ~ "'") -}}
{% endmacro %}
