{#- A value as text that sorts in the same order on every engine: byte order of
    its UTF-8 text. DuckDB and Spark compare strings by bytes; PostgreSQL by the
    database's collation unless told "C". Numbers sort as their text ('10' before
    '9'): an order, the same everywhere, not the numeric one. -#}
{% macro _in_byte_order(expression) %}
    {{- return(adapter.dispatch('_in_byte_order', 'rankwise')(expression)) -}}
{% endmacro %}

{% macro default___in_byte_order(expression) -%}
    cast({{ expression }} as {{ dbt.type_string() }})
{%- endmacro %}

{#- https://www.postgresql.org/docs/current/collation.html -#}
{% macro postgres___in_byte_order(expression) -%}
    (cast({{ expression }} as text) collate "C")
{%- endmacro %}

{#- Redshift has no COLLATE clause (its COLLATE is a function of two
    collations, case_sensitive and case_insensitive) and turns TEXT into
    VARCHAR(256): https://docs.aws.amazon.com/redshift/latest/dg/r_COLLATE.html,
    https://docs.aws.amazon.com/redshift/latest/dg/r_Character_types.html. Its
    databases compare case-sensitively unless created otherwise
    (https://docs.aws.amazon.com/redshift/latest/dg/r_CREATE_DATABASE.html);
    byte order itself is not checked against a running Redshift. -#}
{% macro redshift___in_byte_order(expression) -%}
    cast({{ expression }} as varchar(65535))
{%- endmacro %}
