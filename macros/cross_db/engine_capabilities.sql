{#- What an engine can do that lets the planner pick a faster strategy
    (macros/evaluate/strategies/); every engine runs the default ones. -#}

{#- Bit operations on BIGINT (<<, &, bit_or, bit_count): the rank_bits
    strategy of the judged components. -#}
{% macro _engine_has_rank_bits() %}
    {{- return(adapter.dispatch('_engine_has_rank_bits', 'rankwise')()) -}}
{% endmacro %}

{% macro default___engine_has_rank_bits() %}
    {{- return(false) -}}
{% endmacro %}

{#- https://duckdb.org/docs/stable/sql/functions/bitwise -#}
{% macro duckdb___engine_has_rank_bits() %}
    {{- return(true) -}}
{% endmacro %}

{#- PostgreSQL's <<, >> and & on BIGINT and its bit_or aggregate, the bits counted
    as a bit string (_bit_count):
    https://www.postgresql.org/docs/current/functions-math.html#FUNCTIONS-MATH-BIT-TABLE,
    https://www.postgresql.org/docs/current/functions-aggregate.html -#}
{% macro postgres___engine_has_rank_bits() %}
    {{- return(true) -}}
{% endmacro %}

{#- Redshift dispatches to postgres__ after its own, and has no bit_count:
    https://docs.aws.amazon.com/redshift/latest/dg/c_Aggregate_Functions.html -#}
{% macro redshift___engine_has_rank_bits() %}
    {{- return(false) -}}
{% endmacro %}

{#- Spark's <<, & and bit_count on BIGINT and its bit_or aggregate:
    https://spark.apache.org/docs/latest/api/sql/index.html -#}
{% macro spark___engine_has_rank_bits() %}
    {{- return(true) -}}
{% endmacro %}

{#- Databricks dispatches to spark__ after its own: rank_bits stays off there
    until its reference (tests/unit/warehouse_catalogue.py) lists these operators. -#}
{% macro databricks___engine_has_rank_bits() %}
    {{- return(false) -}}
{% endmacro %}

{#- A top-n aggregate into a list, lambdas over lists and list slices (max(x, n),
    list_transform, list_slice): the top_k_gains strategy of IDCG. -#}
{% macro _engine_has_top_k_lists() %}
    {{- return(adapter.dispatch('_engine_has_top_k_lists', 'rankwise')()) -}}
{% endmacro %}

{% macro default___engine_has_top_k_lists() %}
    {{- return(false) -}}
{% endmacro %}

{#- https://duckdb.org/docs/stable/sql/functions/list -#}
{% macro duckdb___engine_has_top_k_lists() %}
    {{- return(true) -}}
{% endmacro %}

{#- Whether IDCG is best summed in the aggregate that counts each user's truth,
    over the truth numbered by relevance (the ranked_truth strategy of IDCG),
    rather than in a pass of its own: on PostgreSQL, whose default work_mem
    (4MB) sends every sort and hash of the truth to disk, one grouping of the
    truth instead of two (docs/benchmarks.md, PostgreSQL). Redshift dispatches
    here after its own. -#}
{% macro _engine_groups_ranked_truth() %}
    {{- return(adapter.dispatch('_engine_groups_ranked_truth', 'rankwise')()) -}}
{% endmacro %}

{% macro default___engine_groups_ranked_truth() %}
    {{- return(false) -}}
{% endmacro %}

{% macro postgres___engine_groups_ranked_truth() %}
    {{- return(true) -}}
{% endmacro %}

{#- Lambdas over arrays and the aggregate into them (collect_list, filter,
    transform, aggregate, array_contains, array_position, element_at,
    sort_array, array_distinct, array_min, named_struct): the user_arrays
    strategy of the judged components and the means. Databricks dispatches to
    spark__ after its own, and its reference (tests/unit/warehouse_catalogue.py)
    lists each of these. -#}
{% macro _engine_has_array_lambdas() %}
    {{- return(adapter.dispatch('_engine_has_array_lambdas', 'rankwise')()) -}}
{% endmacro %}

{% macro default___engine_has_array_lambdas() %}
    {{- return(false) -}}
{% endmacro %}

{#- https://spark.apache.org/docs/latest/api/sql/index.html -#}
{% macro spark___engine_has_array_lambdas() %}
    {{- return(true) -}}
{% endmacro %}
