{#- The dot product of two arrays of numbers of one length, a 64-bit float.
    Each engine has its own array functions. -#}
{% macro vector_dot_product(first, second) %}
    {{- return(adapter.dispatch('vector_dot_product', 'rankwise')(first, second)) -}}
{% endmacro %}

{#- DuckDB: https://duckdb.org/docs/stable/sql/functions/list#list_dot_productlist1-list2 -#}
{% macro default__vector_dot_product(first, second) -%}
    list_dot_product(cast({{ first }} as {{ rankwise.type_float64() }}[]), cast({{ second }} as {{ rankwise.type_float64() }}[]))
{%- endmacro %}

{#- PostgreSQL has no dot product of arrays; unnest with two arrays pairs their
    elements: https://www.postgresql.org/docs/current/functions-array.html -#}
{% macro postgres__vector_dot_product(first, second) -%}
    (select sum(cast(rw_a as double precision) * cast(rw_b as double precision)) from unnest({{ first }}, {{ second }}) as rw_elements(rw_a, rw_b))
{%- endmacro %}

{#- Spark: zip_with pairs the elements, aggregate sums them:
    https://spark.apache.org/docs/latest/api/sql/#zip_with -#}
{% macro spark__vector_dot_product(first, second) -%}
    aggregate(zip_with({{ first }}, {{ second }}, (rw_a, rw_b) -> cast(rw_a as double) * cast(rw_b as double)), cast(0 as double), (rw_sum, rw_term) -> rw_sum + rw_term)
{%- endmacro %}

{#- BigQuery: the first array unnested with each element's offset, the second
    read at that offset (an error, not a silent NULL, if it is shorter):
    https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#unnest_operator -#}
{% macro bigquery__vector_dot_product(first, second) -%}
    (select sum(cast(rw_a as float64) * cast(({{ second }})[offset(rw_offset)] as float64)) from unnest({{ first }}) as rw_a with offset as rw_offset)
{%- endmacro %}

{#- Trino: zip_with pairs the elements, reduce sums them:
    https://trino.io/docs/current/functions/array.html#zip_with -#}
{% macro trino__vector_dot_product(first, second) -%}
    reduce(zip_with({{ first }}, {{ second }}, (rw_a, rw_b) -> cast(rw_a as double) * cast(rw_b as double)), cast(0 as double), (rw_sum, rw_term) -> rw_sum + rw_term, rw_sum -> rw_sum)
{%- endmacro %}

{#- Snowflake: the products at each index of the first array (TRANSFORM over
    ARRAY_GENERATE_RANGE), summed by REDUCE:
    https://docs.snowflake.com/en/sql-reference/functions/transform,
    https://docs.snowflake.com/en/sql-reference/functions/reduce -#}
{% macro snowflake__vector_dot_product(first, second) -%}
    reduce(transform(array_generate_range(0, array_size({{ first }})), rw_i -> cast(({{ first }})[rw_i] as double) * cast(({{ second }})[rw_i] as double)), cast(0 as double), (rw_sum, rw_term) -> rw_sum + rw_term)
{%- endmacro %}

{#- ClickHouse: dotProduct of two arrays of one length, whose elements may not
    be Nullable (a NULL element fails the cast):
    https://clickhouse.com/docs/sql-reference/functions/distance-functions#dotproduct -#}
{% macro clickhouse__vector_dot_product(first, second) -%}
    dotProduct(cast({{ first }} as Array(Float64)), cast({{ second }} as Array(Float64)))
{%- endmacro %}
