{{ config(enabled=target.type == 'duckdb') }}
{#- The golden default case, as the package models compute it, with
    fail_on_problems=true (DuckDB's error(); other engines have no such function
    and use the generic tests): the checks in the metric query pass on valid input
    and leave its numbers as they are. -#}
{%- set arguments = {'metrics': var('rankwise_metrics'), 'k': var('rankwise_k'), 'group_by': var('rankwise_group_by'),
                     'fail_on_problems': true} -%}
{%- do arguments.update(var('rankwise_options')) -%}
{%- set recommendations = ref(var('rankwise_recommendations')) -%}
{%- set interactions = ref(var('rankwise_interactions')) -%}
{%- set means = rankwise.evaluate(recommendations, interactions, **arguments) -%}
{%- do arguments.update({'metrics': var('rankwise_metrics') | reject('equalto', 'entropy') | list, 'per_user': true}) -%}
{%- set per_user = rankwise.evaluate(recommendations, interactions, **arguments) -%}
{{ long_metric_table('(' ~ means ~ ') as means', '(' ~ per_user ~ ') as per_user') }}
