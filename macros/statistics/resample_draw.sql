{#- A pseudo-random integer in [0, 2^31 - 1) for one user in one resample, the same
    on every engine: a hash of (user_key_int, resample, seed) computed with
    integer +, * and % only (not every engine has XOR or shifts, and their hash
    functions differ). user_key_int and resample are SQL expressions of integer
    type (a user's integer key; the resample's number, 0, 1, ...); seed is an
    integer known when the SQL is rendered. Divided by 2^31 it is a uniform draw
    in [0, 1): rankwise.sign_flip and rankwise.poisson_one_weight read it so.

    State: an integer h in [0, P), P = 2^31 - 1 (a prime). A round is
    h <- (h (h + A) + C) mod P with A < 2^30 and C < 2^31, so h (h + A) + C stays
    below 1.5 * 2^62 and no BIGINT overflows (an error on PostgreSQL, DuckDB and
    Spark's ANSI mode). The seed goes through two rounds while rendering; the
    resample is added mod P and mixed by two rounds, then the user key, then two
    more. A round is quadratic, not affine: with affine rounds the sign pattern
    of a resample would be a shifted copy of another's. Each round writes its
    input twice, so user_key_int appears 4 times in the text and resample 16:
    pass columns. Keys equal mod P get the same draws (a 31-bit state: among a
    million users, some 230 pairs share their draws). Statistical checks:
    tests/crosscheck/test_statistics_macros.py; docs/statistics.md. -#}
{% macro resample_draw(user_key_int, resample, seed) %}
    {%- set user_sql = rankwise._sql_operand('resample_draw', 'user_key_int', user_key_int, integer=true) -%}
    {%- set resample_sql = rankwise._sql_operand('resample_draw', 'resample', resample, integer=true) -%}
    {%- do rankwise._check_integer('resample_draw', 'seed', seed) -%}
    {{- return(adapter.dispatch('resample_draw', 'rankwise')(user_sql, resample_sql, seed)) -}}
{% endmacro %}

{% macro default__resample_draw(user_key_int, resample, seed) -%}
    {%- set modulus = 2147483647 -%}
    {#- the seed's two rounds, in Jinja's exact integers -#}
    {%- set mixed_seed = rankwise._resample_round_value(rankwise._resample_round_value(seed % modulus, 0), 1) -%}
    {%- set h = '(' ~ rankwise._integer_mod(mixed_seed ~ ' + ' ~ rankwise._nonnegative_mod(resample, modulus), modulus) ~ ')' -%}
    {%- set h = rankwise._resample_round(rankwise._resample_round(h, 2), 3) -%}
    {%- set h = '(' ~ rankwise._integer_mod(h ~ ' + ' ~ rankwise._nonnegative_mod(user_key_int, modulus), modulus) ~ ')' -%}
    {{ rankwise._resample_round(rankwise._resample_round(h, 4), 5) }}
{%- endmacro %}

{#- The constants (A, C) of the six rounds: A < 2^30, C < 2^31 (arbitrary odd
    numbers of many bits; any such work, these are fixed so that every engine
    and every version of rankwise draw the same numbers). -#}
{% macro _resample_round_constants(index) %}
    {{ return([(1013904223, 1664525), (362436069, 521288629), (88675123, 5783321),
               (123459876, 1812433253), (987654321, 1103515245), (716151937, 1597334677)][index]) }}
{% endmacro %}

{% macro _resample_round_value(h, index) %}
    {%- set a, c = rankwise._resample_round_constants(index) -%}
    {{ return((h * (h + a) + c) % 2147483647) }}
{% endmacro %}

{% macro _resample_round(h, index) %}
    {%- set a, c = rankwise._resample_round_constants(index) -%}
    {{ return('(' ~ rankwise._integer_mod(h ~ ' * (' ~ h ~ ' + ' ~ a ~ ') + ' ~ c, 2147483647) ~ ')') }}
{% endmacro %}

{#- x mod m in [0, m) for a BIGINT x of either sign (% takes the sign of x). -#}
{% macro _nonnegative_mod(x, m) %}
    {{ return(rankwise._integer_mod(rankwise._integer_mod('cast(' ~ x ~ ' as bigint)', m) ~ ' + ' ~ m, m)) }}
{% endmacro %}

{% macro _integer_mod(x, m) %}
    {{- return(adapter.dispatch('_integer_mod', 'rankwise')(x, m)) -}}
{% endmacro %}

{% macro default___integer_mod(x, m) %}
    {{ return('(' ~ x ~ ') % ' ~ m) }}
{% endmacro %}

{#- BigQuery has no % operator: https://cloud.google.com/bigquery/docs/reference/standard-sql/mathematical_functions#mod -#}
{% macro bigquery___integer_mod(x, m) %}
    {{ return('mod(' ~ x ~ ', ' ~ m ~ ')') }}
{% endmacro %}
