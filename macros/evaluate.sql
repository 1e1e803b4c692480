{#- rankwise.evaluate: every requested metric at every cutoff, each table read
    once per kind of aggregate, with no window over the full recommendations.
    Returns a SELECT with one row per (group, metric, k): partition and group
    columns, metric, k, value, n_users, n_users_without_list, and unless
    `confidence` is none, ci_low and ci_high (the Student t interval of the mean
    of the per-user values; for group-level metrics NULL, or with
    bootstrap_resamples a Poisson bootstrap interval over the users); or, with per_user=true,
    one row per (group, user, metric, k) with the per-user components for
    drill-down. `convention` picks the
    option values of a peer library; an option given explicitly wins. The
    conventions are documented in docs/metrics.md. `partition_by` names columns
    both tables have (fold, week...): each partition's lists are judged against
    that partition's interactions only.

    The columns and conventions are keyword arguments, the options declared in
    macros/conventions/convention_options.sql: user_col, item_col, rank_col,
    score_col, relevance_col, convention and the conventions.

    Resolve, validate, dispatch: the planner (macros/planner/) checks every
    argument and resolves the plan, the stages it needs among those of the
    stage registry (macros/evaluate/stage_registry.sql) in the order they read
    each other; the implementation writes them, one CTE per stage
    (macros/evaluate/stage_*.sql, macros/evaluate/strategies/). -#}
{% macro evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                  partition_by=none, confidence=0.95, bootstrap_resamples=none, seed=0, items=none, train=none,
                  validate=true) %}
    {%- set spec = rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                             seed, items, train, kwargs, 'evaluate') -%}
    {%- do rankwise._check_relation_columns(recommendations, interactions, spec.columns_read,
                                            {'items': spec.items_relation, 'train': spec.train_relation}) -%}
    {%- if rankwise._dbt_is_parsing() -%}{{ return('') }}{%- endif -%}
    {%- do rankwise._validated_call('evaluate', validate, recommendations, interactions, kwargs,
                                    rankwise._as_list(group_by) + rankwise._as_list(spec.options.model_col), partition_by,
                                    spec.items_relation, spec.train_relation) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- evaluate's query with the input checks fused into it (stage_input_guard.sql),
    for the Python wrapper: it has its rows only when the inputs pass every
    check. Its plan must be one query over the per-user metrics
    (the plan's checks_fuse). -#}
{% macro _guarded_evaluate(recommendations, interactions, metrics=none, k=none, group_by=none, per_user=false,
                           partition_by=none, confidence=0.95, bootstrap_resamples=none, seed=0, items=none, train=none) %}
    {%- set spec = rankwise._guarded_spec(rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence,
                                                                    bootstrap_resamples, seed, items, train, kwargs, 'evaluate')) -%}
    {{- return(adapter.dispatch('evaluate', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- The query of the plan, and of each of its parts (the metrics whose
    parameters set options of their own, such as 'ndcg(rel=2)'), each reading
    the inputs under its options, the rows of all in one order. -#}
{% macro default__evaluate(recommendations, interactions, spec) -%}
{%- if spec.parts | length == 0 -%}
    {%- set query = rankwise._evaluation_query(recommendations, interactions, spec) ~ '\n' ~ rankwise._output_order(spec) -%}
{%- else -%}
    {%- set queries = [] -%}
    {%- for part in ([spec] if spec.requested | length > 0 else []) + spec.parts -%}
        {%- do queries.append('select * from (\n' ~ rankwise._evaluation_query(recommendations, interactions, part, outermost=false) ~ '\n) as rw_part_'
                              ~ loop.index) -%}
    {%- endfor -%}
    {%- set query = 'select' ~ rankwise._sorted_result_hint(spec) ~ ' * from (\n' ~ queries | join('\n\nunion all\n\n') ~ '\n) as rw_parts\n'
                    ~ rankwise._output_order(spec) -%}
{%- endif -%}
{{ rankwise._wrapped_lines(query) }}
{%- endmacro %}

{#- The plan's stages, each a CTE, then its outputs; with the input guard
    (planned unless the one pass counts the problems itself), no row unless the
    inputs pass. The `outermost` query, the one sorted, has the hint of a
    sorted result. -#}
{% macro _evaluation_query(recommendations, interactions, spec, outermost=true) -%}
{%- do spec.update({'relations': {'recommendations': recommendations, 'interactions': interactions,
                                  'items': spec.items_relation, 'train': spec.train_relation}}) -%}
{%- set outputs = rankwise._written_outputs(spec) -%}
with

{{ rankwise._written_stages(spec) | join(',\n\n') }}

{# one relation to order, whose columns the ORDER BY's expressions read:
    ClickHouse orders only the last SELECT of a UNION, and PostgreSQL's ORDER BY
    reads an output column's name only bare, never in an expression -#}
select{{ rankwise._sorted_result_hint(spec) if outermost }} * from (
{{ outputs | join('\n\nunion all\n\n') }}
) as rw_result
{%- if rankwise._planned(spec, 'input_guard') %}
where exists (select 1 from rw_input_guard)
{%- endif %}
{%- endmacro %}
