{#- What the Python wrapper needs to know of an evaluation, from the planner
    alone (it re-derives none of it): the options resolved, the metrics asked
    by level (and whether the report's verdict compares each), the optional inputs read, the warning for each optional input
    given that no metric reads, and the group columns (group_by with model_col). The
    arguments are evaluate's; `items` and `train` are true when given; `caller` names
    the function (evaluate, compare...) in the errors and warnings. -#}
{% macro _evaluation_plan(metrics=none, k=none, group_by=none, per_user=false, partition_by=none, confidence=0.95,
                          bootstrap_resamples=none, seed=0, items=false, train=false, caller='evaluate') %}
    {%- set spec = rankwise._evaluation_spec(metrics, k, group_by, per_user, partition_by, confidence, bootstrap_resamples,
                                             seed, 'items' if items else none, 'train' if train else none, kwargs, caller) -%}
    {%- set options = rankwise._updated(spec.options, {}) -%}
    {%- set unread = [] -%}
    {%- for input, given in [('items', items), ('train', train)] if given and input not in spec.inputs_read -%}
        {%- do unread.append({'input': input, 'message': "rankwise." ~ caller ~ ": `" ~ input ~ "` is given but none of the metrics asked reads it ("
                              ~ rankwise._readers_of(input) | join(', ') ~ " do); it is not read or checked."}) -%}
    {%- endfor -%}
    {%- set metrics_asked = [] -%}
    {%- for part in [spec] + spec.parts -%}
        {%- for entry in part.requested -%}
            {#- compared: the report's verdict compares the models on it: a per-user value that depends on the model -#}
            {%- do metrics_asked.append({'name': entry.name, 'k': entry.k, 'level': entry.level, 'reads': entry.reads,
                                         'compared': entry.level == 'user' and rankwise._metric_registry()[entry.name].get('zero_without_list', false)}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return({
        'options': options,
        'metrics': metrics_asked,
        'inputs_read': spec.inputs_read,
        'unread_inputs': unread,
        'metrics_shown_by_a_hit': rankwise._metrics_shown_by_a_hit(),
        'checks_fuse': spec.checks_fuse,
        'group_by': rankwise._groups_with_model(spec.every_metric, group_by, partition_by, spec.options, spec.macro_name),
    }) }}
{% endmacro %}
