{#- The number of set bits of a BIGINT, where the engine counts them (the
    engines of _engine_has_rank_bits). -#}
{% macro _bit_count(expression) %}
    {{- return(adapter.dispatch('_bit_count', 'rankwise')(expression)) -}}
{% endmacro %}

{#- DuckDB and Spark: bit_count on an integer:
    https://duckdb.org/docs/stable/sql/functions/bitwise,
    https://spark.apache.org/docs/latest/api/sql/index.html#bit_count -#}
{% macro default___bit_count(expression) %}
    {{- return('bit_count(' ~ expression ~ ')') -}}
{% endmacro %}

{#- PostgreSQL (14 and later) counts the bits of a bit string, into which a
    BIGINT casts as its 64 bits:
    https://www.postgresql.org/docs/current/functions-bitstring.html -#}
{% macro postgres___bit_count(expression) %}
    {{- return('bit_count(cast(' ~ expression ~ ' as bit(64)))') -}}
{% endmacro %}
