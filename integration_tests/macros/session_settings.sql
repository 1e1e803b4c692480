{#- Session settings other than the engine's defaults, under which the model
    settings__actual_cases runs some cases again: each (set, reset)
    pair is a pre-hook and a post-hook. rankwise's numbers must not depend on
    them (issue #21). DuckDB's (default_order, default_null_order,
    default_collation...) are checked by tests/unit/test_connection_settings.py
    on a caller's connection; a SET here would be global to dbt's connections. -#}
{% macro session_settings() %}
    {{ return(adapter.dispatch('session_settings')()) }}
{% endmacro %}

{% macro default__session_settings() %}
    {{ return([]) }}
{% endmacro %}

{#- PostgreSQL: how floats and dates become text. No session setting changes
    how PostgreSQL orders or compares (a collation is the database's or the
    column's), so these check that no number passes through text. -#}
{% macro postgres__session_settings() %}
    {{ return([
        ("set extra_float_digits = -15", "reset extra_float_digits"),
        ("set datestyle = 'SQL, DMY'", "reset datestyle"),
    ]) }}
{% endmacro %}

{#- Spark 4 runs in ANSI mode by default (overflow, division by zero and bad casts
    raise); the cases run again with it off, as Spark 3 and many clusters have it. -#}
{% macro spark__session_settings() %}
    {{ return([
        ("set spark.sql.ansi.enabled = false", "set spark.sql.ansi.enabled = true"),
    ]) }}
{% endmacro %}

{#- ClickHouse: a name that is both a column and an alias read as the column
    (the default reads the alias), no Variant as the common type of two types
    (an error instead), NULL rather than 0 or nan from an aggregate over no
    rows, and NULL IN (...) as a comparison. rankwise's SQL must read alike
    under either value of each. -#}
{% macro clickhouse__session_settings() %}
    {{ return([
        ("set prefer_column_name_to_alias = 1", "set prefer_column_name_to_alias = DEFAULT"),
        ("set use_variant_as_common_type = 0", "set use_variant_as_common_type = DEFAULT"),
        ("set aggregate_functions_null_for_empty = 1", "set aggregate_functions_null_for_empty = DEFAULT"),
        ("set transform_null_in = 1", "set transform_null_in = DEFAULT"),
    ]) }}
{% endmacro %}
