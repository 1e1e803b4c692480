{#- The query of the package models rankwise_metrics and rankwise_user_metrics,
    built from the project's vars. Group-level metrics (entropy) are left out of
    the per-user model. -#}
{% macro _package_model_query(per_user, exposure_by_item_group=false) %}
    {%- set interactions = var('rankwise_interactions', none) -%}
    {%- if interactions is none -%}
        {{ exceptions.raise_compiler_error("rankwise: var `rankwise_recommendations` is set but `rankwise_interactions` is not; set both to the names of the two input models, seeds or snapshots.") }}
    {%- endif -%}
    {%- set options = var('rankwise_options', {}) -%}
    {%- if options is not mapping -%}
        {{ exceptions.raise_compiler_error("rankwise: var `rankwise_options` must be a mapping of the options of rankwise.evaluate (user_col, score_col, relevance_col, the conventions...); got " ~ rankwise._describe(options) ~ ".") }}
    {%- endif -%}
    {%- for reserved in ['metrics', 'k', 'group_by', 'partition_by', 'per_user', 'items', 'train'] -%}
        {%- if reserved in options -%}
            {{ exceptions.raise_compiler_error("rankwise: set `" ~ reserved ~ "` through its own var (rankwise_" ~ reserved ~ "), not inside `rankwise_options`.") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set metrics = rankwise._metrics_of_vars() -%}
    {%- if per_user -%}
        {%- set registry = rankwise._metric_registry() -%}
        {%- set user_level = [] -%}
        {%- for metric in ([metrics] if metrics is string else metrics) -%}
            {%- if registry.get(metric.split('@')[0], {}).get('level') != 'group' %}{% do user_level.append(metric) %}{% endif -%}
        {%- endfor -%}
        {%- set metrics = user_level -%}
        {#- the options only the group-level metrics read (item_group_col) are left out -#}
        {%- set names = [] -%}
        {%- for metric in metrics %}{% do names.append(metric.split('@')[0].split('(')[0]) %}{% endfor -%}
        {%- set options = rankwise._options_read_by(names, options) -%}
    {%- endif -%}
    {%- set recommendations_relation = rankwise._root_ref(var('rankwise_recommendations')) -%}
    {%- set interactions_relation = rankwise._root_ref(interactions) -%}
    {#- the catalog and the train interactions, when the project names them -#}
    {%- set items_relation = rankwise._root_ref(var('rankwise_items')) if var('rankwise_items', none) is not none else none -%}
    {%- set train_relation = rankwise._root_ref(var('rankwise_train')) if var('rankwise_train', none) is not none else none -%}
    {%- if var('rankwise_validate', true) -%}
        {%- do rankwise._refuse_bad_input(recommendations_relation, interactions_relation, options,
                                           var('rankwise_group_by', []), var('rankwise_partition_by', []),
                                           items_relation, train_relation, rankwise._package_skip_hint()) -%}
    {%- endif -%}
    {%- if exposure_by_item_group -%}
        {{ return(rankwise.exposure_by_item_group(
            recommendations_relation,
            interactions_relation,
            items_relation,
            k=var('rankwise_k', [5, 10, 20]),
            group_by=var('rankwise_group_by', []),
            partition_by=var('rankwise_partition_by', []),
            **rankwise._options_read_by(['exposure_disparity'], options)
        )) }}
    {%- endif -%}
    {{ return(rankwise.evaluate(
        recommendations_relation,
        interactions_relation,
        metrics=metrics,
        k=var('rankwise_k', [5, 10, 20]),
        group_by=var('rankwise_group_by', []),
        partition_by=var('rankwise_partition_by', []),
        per_user=per_user,
        items=items_relation,
        train=train_relation,
        validate=false,
        **options
    )) }}
{% endmacro %}

{#- A node named by a var: `name` in the root project, or `package.name`. The
    package name is explicit so that dbt does not look for the node in rankwise
    first (require_ref_prefers_node_package_to_root). -#}
{% macro _root_ref(name) %}
    {%- set parts = name.split('.') -%}
    {%- if parts | length == 2 -%}
        {{ return(ref(parts[0], parts[1])) }}
    {%- endif -%}
    {{ return(ref(project_name, name)) }}
{% endmacro %}

{#- Post-hook of rankwise_metrics: the warnings of rankwise.coverage_warnings on
    the table just built, as log lines (dbt has no warnings of a model's data). -#}
{% macro _log_coverage_warnings(relation) %}
    {%- if execute -%}
        {%- set users = rankwise._options_resolved(var('rankwise_options', {})).users -%}
        {%- set found = run_query(rankwise.coverage_warnings(relation, var('rankwise_group_by', []), var('rankwise_partition_by', []), users)) -%}
        {%- for row in found.rows -%}
            {%- do log('Warning: ' ~ row[1], info=true) -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}

{#- The query of the package model rankwise_comparison: rankwise.compare with the
    arguments of var('rankwise_comparison') (model_col, baseline, tests...; and
    recommendations / interactions to compare other inputs than those of
    rankwise_recommendations and rankwise_interactions), over the per-user
    metrics of rankwise_metrics (entropy and idcg are left out: they have no
    paired difference), rankwise_k, rankwise_group_by, rankwise_partition_by and
    rankwise_options, and the list-level metrics of rankwise_metrics (novelty,
    popularity_lift...) with the catalog and train interactions of
    rankwise_items and rankwise_train; the options only other metrics read
    (item_group_col without miscalibration...) are left out, as compare refuses
    an option no metric of it reads. -#}
{% macro _package_comparison_query() %}
    {%- set comparison = var('rankwise_comparison') -%}
    {%- if comparison is not mapping -%}
        {{ exceptions.raise_compiler_error("rankwise: var `rankwise_comparison` must be a mapping of rankwise.compare arguments (model_col, baseline, tests, n_resamples, seed, correction, alpha, confidence, margin, equivalence; recommendations and interactions to compare other inputs); got " ~ rankwise._describe(comparison) ~ ".") }}
    {%- endif -%}
    {%- set allowed = ['recommendations', 'interactions', 'model_col', 'baseline', 'confidence', 'tests', 'n_resamples', 'seed', 'correction', 'alpha',
                       'margin', 'equivalence'] -%}
    {%- do rankwise._check_no_unknown_arguments('compare', comparison, allowed) -%}
    {%- set options = var('rankwise_options', {}) -%}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set metrics = rankwise._metrics_of_vars() -%}
    {%- set paired = [] -%}
    {%- set names = [] -%}
    {%- set list_level = [] -%}
    {%- for metric in ([metrics] if metrics is string else metrics) -%}
        {%- set entry = registry.get(metric.split('@')[0].split('(')[0], {}) -%}
        {#- compare tests paired per-user means: not a property of the truth, nor a total or geometric mean -#}
        {%- if entry.get('level') == 'list' or (entry.get('level') == 'user' and entry.get('zero_without_list', true)
                                                and entry.get('summary', 'mean') == 'mean') -%}
            {%- do paired.append(metric) -%}
            {%- do names.append(metric.split('@')[0].split('(')[0]) -%}
            {%- if entry.get('level') == 'list' %}{% do list_level.append(metric) %}{% endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set options = rankwise._options_read_by(names, options) -%}
    {#- the catalog and the train interactions only for the list-level metrics,
        which alone read them -#}
    {%- set items_relation = rankwise._root_ref(var('rankwise_items')) if list_level and var('rankwise_items', none) is not none else none -%}
    {%- set train_relation = rankwise._root_ref(var('rankwise_train')) if list_level and var('rankwise_train', none) is not none else none -%}
    {%- set recommendations_relation = rankwise._root_ref(comparison.get('recommendations', var('rankwise_recommendations'))) -%}
    {%- set interactions_relation = rankwise._root_ref(comparison.get('interactions', var('rankwise_interactions'))) -%}
    {%- set model_col = comparison.get('model_col', 'model') -%}
    {%- set group_by = var('rankwise_group_by', []) -%}
    {%- if var('rankwise_validate', true) -%}
        {%- do rankwise._refuse_bad_input(recommendations_relation, interactions_relation, options,
                                           ([group_by] if group_by is string else group_by) + [model_col], var('rankwise_partition_by', []),
                                           items_relation, train_relation, rankwise._package_skip_hint()) -%}
    {%- endif -%}
    {%- set arguments = rankwise._updated(options, {}) -%}
    {%- for name, value in comparison.items() if name not in ['recommendations', 'interactions'] -%}
        {%- do arguments.update({name: value}) -%}
    {%- endfor -%}
    {{ return(rankwise.compare(
        recommendations_relation,
        interactions_relation,
        metrics=paired,
        k=var('rankwise_k', [5, 10, 20]),
        group_by=group_by,
        partition_by=var('rankwise_partition_by', []),
        items=items_relation,
        train=train_relation,
        validate=false,
        **arguments
    )) }}
{% endmacro %}

{#- How to skip the package models' check of their inputs. -#}
{% macro _package_skip_hint() %}
    {{ return("The package models check their inputs first; set the var rankwise_validate: false to skip it.") }}
{% endmacro %}

{#- The var rankwise_metrics, each name as rankwise writes it (an alias such as
    P@10 or ndcg_cut_10 resolved by metric_alias), so that the package models
    find each metric in the registry: an alias left as written would be taken
    for no metric and left out of the comparison. -#}
{% macro _metrics_of_vars() %}
    {%- set metrics = var('rankwise_metrics', ['precision', 'recall', 'f1', 'hit_rate', 'map', 'mrr', 'ndcg', 'entropy']) -%}
    {%- if metrics is string or metrics is not iterable or metrics is mapping -%}
        {{ return(metrics if metrics is not string else [rankwise.metric_alias(metrics) or metrics]) }}
    {%- endif -%}
    {%- set resolved = [] -%}
    {%- for metric in metrics -%}
        {%- do resolved.append(rankwise.metric_alias(metric) or metric) -%}
    {%- endfor -%}
    {{ return(resolved) }}
{% endmacro %}
