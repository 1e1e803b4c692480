{#- The contract with the Python wrapper: the macros rankwise's Python calls,
    and no other (tests/unit/test_contract.py holds python/ to this list;
    docs/contributing.md, "The contract with Python"). Python asks; it states
    no rule of its own:
      _python_plan         the plan of a call: everything the wrapper reads
      _python_query        the SQL of a planned call on its inputs
      _python_check_query  the SQL of one input check
      _python_message      the wording of a problem, a missing column, a note
      _python_registry     the registries, for signatures, help and suggestions
      _python_literal      a value as a SQL literal
      quote_identifier     a name as a SQL identifier (public)
    `arguments` is a mapping of the call's keyword arguments, as the public
    macro takes them (the options among them). -#}

{#- The calls of the Python API planned as evaluate plans them; compare
    plans its own. -#}
{% macro _planned_calls() %}
    {{ return(['evaluate', 'exposure_by_item_group', 'check', 'report', 'sql', 'compare']) }}
{% endmacro %}

{#- The plan of `call` (one of _planned_calls) for `arguments`, with `items`
    and `train` true when given: every argument checked, as the macros check
    them, before anything touches a connection. It holds the planner's `spec`,
    which _python_query writes, and what the wrapper reads off it:
      options            every option, resolved under its convention
      metrics            the metrics asked: name, k, label, level, reads,
                         users (the user set of a per-user metric), and
                         `compared` (a per-user value that depends on the
                         model and has a better side, which the report's
                         verdict compares: not judged and unjudged)
      inputs_read        the optional inputs (items, train) the metrics read
      unread_inputs      a warning for each optional input given but unread
      metrics_shown_by_a_hit  the metrics whose mean above 0 proves the tables
                         share a user and an item
      checks_fuse        whether the input checks can run inside the query
      group_by           the group columns of the output (with the model's)
      partition_by       the partition columns
      list_keys          the columns besides the user that tell lists apart
      columns_read       per input, the (column, purpose) pairs read
      relevant_item_groups  whether the relevant items' groups are read (the
                         catalog must hold every relevant item)
      stages, strategies the stages in order (name, CTE, row, macro) and the
                         strategies picked, for rankwise explain
      comparison         compare's own: model_col, baseline, tests -#}
{% macro _python_plan(call, arguments, items=false, train=false) %}
    {%- set given = {} -%}
    {%- set own = rankwise._compare_arguments() if call == 'compare' else rankwise._evaluate_arguments() -%}
    {%- for name, value in arguments.items() if name not in own %}{% do given.update({name: value}) %}{% endfor -%}
    {%- set items_relation, train_relation = 'items' if items else none, 'train' if train else none -%}
    {%- if call == 'compare' -%}
        {%- set spec = rankwise._comparison_spec(arguments.metrics, arguments.k, arguments.model_col, arguments.baseline,
                                                 arguments.group_by, arguments.partition_by, arguments.confidence, arguments.tests,
                                                 arguments.n_resamples, arguments.seed, arguments.correction, arguments.alpha,
                                                 arguments.margin, arguments.equivalence, items_relation, train_relation, given) -%}
    {%- else -%}
        {%- set spec = rankwise._evaluation_spec(arguments.metrics, arguments.k, arguments.group_by, arguments.per_user,
                                                 arguments.partition_by, arguments.confidence, arguments.bootstrap_resamples,
                                                 arguments.seed, items_relation, train_relation, given, call) -%}
        {%- if call == 'exposure_by_item_group' -%}
            {%- do rankwise._plan_stages(spec, rankwise._stage_roots().exposure_by_item_group) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set unread = [] -%}
    {%- for input, given_input in [('items', items), ('train', train)] if given_input and input not in spec.inputs_read -%}
        {%- do unread.append({'input': input, 'message': "rankwise." ~ call ~ ": `" ~ input ~ "` is given but none of the metrics asked reads it ("
                              ~ rankwise._readers_of(input) | join(', ') ~ " do); it is not read or checked."}) -%}
    {%- endfor -%}
    {%- set metrics = [] -%}
    {%- for part in [spec] + spec.get('parts', []) -%}
        {%- for entry in part.requested -%}
            {%- do metrics.append({'name': entry.name, 'k': entry.k, 'label': rankwise._label_of(entry.label, entry.k), 'level': entry.level,
                                   'reads': entry.reads, 'users': entry.get('users'),
                                   'compared': entry.level == 'user' and rankwise._metric_registry()[entry.name].get('zero_without_list', false)
                                               and rankwise._metric_registry()[entry.name].get('summary', 'mean') == 'mean'
                                               and rankwise._metric_registry()[entry.name].get('better') is not none}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set partition_by = rankwise._as_list(arguments.partition_by) -%}
    {%- set group_by = rankwise._groups_with_model(spec.every_metric, arguments.group_by, arguments.partition_by, spec.options, call)
                       if call != 'compare' else rankwise._as_list(arguments.group_by) + [arguments.model_col] -%}
    {%- set stages = [] -%}
    {%- for name in spec.stages -%}
        {%- set stage = spec.stage_plan[name] -%}
        {%- do stages.append({'name': name, 'cte': stage.get('cte'), 'row': stage.row, 'writes': stage.writes,
                              'strategy': stage.get('strategy'), 'output': stage.get('output', false)}) -%}
    {%- endfor -%}
    {{ return({
        'call': call,
        'spec': spec,
        'options': rankwise._updated(spec.options, {}),
        'metrics': metrics,
        'inputs_read': spec.inputs_read,
        'unread_inputs': unread,
        'metrics_shown_by_a_hit': rankwise._metrics_shown_by_a_hit(),
        'checks_fuse': spec.get('checks_fuse', false),
        'group_by': group_by or [],
        'partition_by': partition_by,
        'list_keys': partition_by + (group_by or []),
        'columns_read': spec.columns_read,
        'relevant_item_groups': 'relevance_shares' in spec.demands,
        'stages': stages,
        'strategies': spec.strategies,
        'comparison': {'model_col': arguments.model_col, 'baseline': arguments.baseline, 'tests': spec.tests} if call == 'compare' else none,
    }) }}
{% endmacro %}

{#- The SQL of a planned call (_python_plan's `spec`) on its inputs:
    `relations` maps recommendations, interactions, items and train to the
    SQL of each (items and train none when not given); `guarded`, for
    evaluate, fuses the input checks into the query (stage_input_guard.sql). -#}
{% macro _python_query(call, spec, relations, guarded=false) %}
    {%- set spec = rankwise._updated(spec, {'items_relation': relations.get('items'), 'train_relation': relations.get('train')}) -%}
    {%- if guarded -%}
        {%- set spec = rankwise._guarded_spec(spec) -%}
    {%- endif -%}
    {#- dbt reads each dispatch's macro name off the text: one call per name -#}
    {%- if call == 'compare' -%}
        {{ return(adapter.dispatch('compare', 'rankwise')(relations.recommendations, relations.interactions, spec)) }}
    {%- elif call == 'exposure_by_item_group' -%}
        {{ return(adapter.dispatch('exposure_by_item_group', 'rankwise')(relations.recommendations, relations.interactions, spec)) }}
    {%- endif -%}
    {{ return(adapter.dispatch('evaluate', 'rankwise')(relations.recommendations, relations.interactions, spec)) }}
{% endmacro %}

{#- The SQL of one input check, by name, from the macros of macros/validation/
    with `arguments` as their keyword arguments: 'input_problems' (the
    problems of both tables: `recommendations` and `interactions` each the
    keyword arguments of recommendation_problems and interaction_problems),
    'catalog_problems', 'train_problems', 'ids_shared', 'id_overlap',
    'notes' (evaluation_notes), 'coverage_warnings', 'dropped_rows'
    (dropped_recommendations), 'model_values' (up to 21
    values of a model column) and 'model_present' (a row when the model is a
    value of it). -#}
{% macro _python_check_query(check, arguments) %}
    {%- if check == 'input_problems' -%}
        {{ return(rankwise._input_problems(rankwise.recommendation_problems(**arguments.recommendations),
                                           rankwise.interaction_problems(**arguments.interactions))) }}
    {%- elif check in ['model_values', 'model_present'] -%}
        {%- set column = rankwise.quote_identifier(arguments.model_col) -%}
        {%- if check == 'model_values' -%}
            {{ return('select distinct ' ~ column ~ ' from ' ~ arguments.recommendations ~ ' where ' ~ column ~ ' is not null order by 1 limit 21') }}
        {%- endif -%}
        {{ return('select 1 from ' ~ arguments.recommendations ~ ' where ' ~ column ~ ' = '
                  ~ rankwise._model_literal(arguments.model, arguments.caller) ~ ' limit 1') }}
    {%- endif -%}
    {%- if check in ['catalog_problems', 'train_problems'] -%}
        {%- set problems = rankwise._catalog_problems if check == 'catalog_problems' else rankwise._train_problems -%}
        {{ return(rankwise._problems_in_order(problems(**arguments))) }}
    {%- endif -%}
    {%- set checks = {'ids_shared': rankwise._ids_shared, 'id_overlap': rankwise.id_overlap, 'notes': rankwise.evaluation_notes,
                      'coverage_warnings': rankwise.coverage_warnings, 'dropped_rows': rankwise.dropped_recommendations} -%}
    {{ return(checks[check](**arguments)) }}
{% endmacro %}

{#- The wording of a message, one for the package models and the wrapper:
    'problem' (_problem_message), 'missing_column' (_missing_column_message),
    'note' ({table, message}: _note_table and _note_message). -#}
{% macro _python_message(kind, arguments) %}
    {%- if kind == 'note' -%}
        {{ return({'table': rankwise._note_table(arguments.problem),
                   'message': rankwise._note_message(arguments.problem, arguments.n_rows, arguments.example)}) }}
    {%- endif -%}
    {%- set messages = {'problem': rankwise._problem_message, 'missing_column': rankwise._missing_column_message} -%}
    {{ return(messages[kind](**arguments)) }}
{% endmacro %}

{#- The registries, as the wrapper reads them: 'metric_names' (of
    arguments.level, or every one), 'options' (the option registry),
    'options_read_by' (the options of arguments.options that the metrics
    arguments.metrics read), 'convention_options' (of arguments.convention),
    'readers_of' (the metrics that read arguments.read), 'strategy_descriptions',
    'metric_better' (which way arguments.name is better), 'metric_alias' (the
    rankwise metric string of arguments.metric, another tool's name),
    'metric_aliases' (the table of those names). -#}
{% macro _python_registry(name, arguments={}) %}
    {%- if name == 'metric_names' -%}
        {{ return(rankwise._metric_names_of_level(arguments.level) if arguments.get('level') is not none else rankwise.metric_names()) }}
    {%- elif name == 'options' -%}
        {{ return(rankwise._option_registry()) }}
    {%- elif name == 'options_read_by' -%}
        {{ return(rankwise._options_read_by(arguments.metrics, arguments.options)) }}
    {%- elif name == 'convention_options' -%}
        {{ return(rankwise.convention_options(arguments.convention)) }}
    {%- elif name == 'readers_of' -%}
        {{ return(rankwise._readers_of(arguments.read)) }}
    {%- elif name == 'strategy_descriptions' -%}
        {{ return(rankwise._strategy_descriptions()) }}
    {%- elif name == 'metric_label' -%}
        {#- the output's metric_label of one metric string (its parameters as the label shows them, then @k) -#}
        {%- set parsed = rankwise._parse_metrics([arguments.metric], none, 'trec_eval')[0] -%}
        {{ return(parsed.label ~ ('' if parsed.k is none else '@' ~ parsed.k)) }}
    {%- elif name == 'metric_summary' -%}
        {{ return(rankwise._metric_registry()[arguments.metric].get('summary', 'mean')) }}
    {%- elif name == 'metric_better' -%}
        {{ return(rankwise.metric_better(arguments.name)) }}
    {%- elif name == 'metric_alias' -%}
        {{ return(rankwise.metric_alias(arguments.metric)) }}
    {%- elif name == 'metric_aliases' -%}
        {{ return(rankwise.metric_aliases()) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("rankwise: no registry named '" ~ name ~ "'.") }}
{% endmacro %}

{#- `value` as a SQL literal: text as a string literal, a number (a model
    column's value) as a number literal; `caller` names the function in an
    error. -#}
{% macro _python_literal(value, caller='evaluate') %}
    {{ return(rankwise._string_literal(value) if value is string else rankwise._model_literal(value, caller)) }}
{% endmacro %}

{#- A column argument as a list: none as [], a name as [name]. -#}
{% macro _as_list(value) %}
    {{ return([] if value is none else ([value] if value is string else value | list)) }}
{% endmacro %}
