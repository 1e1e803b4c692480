{#- Opt-in package model: the metric means of every run, one evaluation per value
    of var('rankwise_evaluation_id') (default: the run's date). A run with a key
    already in the table replaces that evaluation's rows (delete+insert on the
    key; on Spark, overwriting the key's partition), so that re-running a day
    never duplicates it. Enabled with the other package models, unless
    var('rankwise_metrics_history') is false; see models/rankwise_models.yml. -#}
{%- set spark_like = target.type in ['spark', 'databricks'] -%}
{{ config(
    enabled=var('rankwise_recommendations', none) is not none and var('rankwise_metrics_history', true),
    materialized='incremental',
    unique_key='evaluation_id',
    incremental_strategy='insert_overwrite' if spark_like else 'delete+insert',
    partition_by=['evaluation_id'] if spark_like else none,
    on_schema_change='append_new_columns',
) }}
{%- if var('rankwise_recommendations', none) is not none %}
{%- set evaluation_id = var('rankwise_evaluation_id', run_started_at.strftime('%Y-%m-%d')) %}
{#- evaluation_id last: Spark's dynamic partition overwrite takes the partition
    column from the end of the select. #}
select
    rw_metrics.*,
    {{ dbt.current_timestamp() }} as evaluated_at,
    cast({{ rankwise._string_literal(evaluation_id) }} as {{ dbt.type_string() }}) as evaluation_id
from (
{{ rankwise._package_model_query(per_user=false) }}
) as rw_metrics
{%- endif %}
