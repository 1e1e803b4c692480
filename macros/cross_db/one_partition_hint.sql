{#- The hint, after SELECT, of the outermost query of a result of few rows
    sorted for reading (the means, a comparison): the sort of so few rows needs
    no parallel sort, and on Spark a global ORDER BY otherwise plans a range
    partitioning, which costs a job to sample the rows and a shuffle to spread
    them, for a query whose other work may take less. Not for per-user output,
    whose rows are many. -#}
{% macro _one_partition_hint() %}
    {{- return(adapter.dispatch('_one_partition_hint', 'rankwise')()) -}}
{% endmacro %}

{% macro default___one_partition_hint() -%}
{%- endmacro %}

{#- Spark's COALESCE hint narrows the rows to one partition without a shuffle,
    which a global sort then needs no exchange for; Databricks dispatches here
    after its own:
    https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-hints.html#partitioning-hints -#}
{% macro spark___one_partition_hint() -%}
    {{ ' /*+ COALESCE(1) */' }}
{%- endmacro %}
