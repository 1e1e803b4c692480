{#- The keyword that asks the engine to inline a CTE that is read more than once
    rather than store it: for rw_recommendations when it is a plain projection of
    the input, where storing 20M rows costs more than reading the input again. -#}
{% macro _inlined_cte() %}
    {{- return(adapter.dispatch('_inlined_cte', 'rankwise')()) -}}
{% endmacro %}

{#- Spark, Trino and others have no such keyword: they inline or reuse as they see fit. -#}
{% macro default___inlined_cte() -%}
{%- endmacro %}

{#- DuckDB stores a CTE read more than once (https://duckdb.org/docs/stable/sql/query_syntax/with#cte-materialization). -#}
{% macro duckdb___inlined_cte() -%}
    not materialized
{%- endmacro %}

{#- PostgreSQL (12 and later) stores a CTE read more than once unless told not to
    (https://www.postgresql.org/docs/current/queries-with.html#QUERIES-WITH-CTE-MATERIALIZATION). -#}
{% macro postgres___inlined_cte() -%}
    not materialized
{%- endmacro %}

{#- Redshift dispatches to postgres__ after its own, and has no such keyword
    (https://docs.aws.amazon.com/redshift/latest/dg/r_WITH_clause.html). -#}
{% macro redshift___inlined_cte() -%}
{%- endmacro %}
