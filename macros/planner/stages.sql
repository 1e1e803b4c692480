{#- The stages of a plan (macros/evaluate/stage_registry.sql): from its
    roots and what the metrics and components asked demand, every stage they
    read, each after the stages it reads; then the query's CTEs, written by
    walking that order. -#}

{#- The plan's stages for `roots` (stage names) and spec.demands (the reads of
    the metrics and components asked): spec.stages, the planned stage names in
    order; spec.stage_plan, each planned stage's entry under the plan's
    strategies; spec.inputs_planned, the inputs they read. A demand names a
    stage, something a stage provides, or an input; a stage with no provider
    under its strategy is left out, as another stage does its work there. -#}
{% macro _plan_stages(spec, roots) %}
    {%- set registry = rankwise._stage_registry() -%}
    {%- set providing = {} -%}
    {%- for name in registry -%}
        {%- set entry = rankwise._stage_entry(name, spec, registry) -%}
        {%- for demand, reads in (entry or {}).get('provides', {}).items() -%}
            {%- do providing.update({demand: providing.get(demand, []) + [(name, reads)]}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set queue = [] -%}
    {%- for demand in roots + spec.demands -%}
        {%- if demand in registry -%}
            {%- do queue.append(demand) -%}
        {%- endif -%}
        {%- for name, reads in providing.get(demand, []) %}{% do queue.extend([name] + reads) %}{% endfor -%}
    {%- endfor -%}
    {%- set planned = {} -%}
    {%- set inputs = [] -%}
    {%- for name in queue if name not in planned -%}
        {%- set entry = rankwise._stage_entry(name, spec, registry) -%}
        {%- if entry is not none -%}
            {%- do planned.update({name: entry}) -%}
            {%- do queue.extend(entry.reads) -%}
            {%- for case in entry.reads_when if rankwise._options_match(case.when, spec.facts) %}{% do queue.extend(case.reads) %}{% endfor -%}
            {%- for input in entry.inputs if input not in inputs %}{% do inputs.append(input) %}{% endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do spec.update({'stages': rankwise._stage_order(planned, registry), 'stage_plan': planned, 'inputs_planned': inputs}) -%}
{% endmacro %}

{#- The planned stages (`planned`: name to entry) in an order where each comes
    after every planned stage it reads (reads, after, reads_when) and before
    every one its `before` names; of the stages free to come next, the first
    in the registry's order. -#}
{% macro _stage_order(planned, registry) %}
    {%- set names = [] -%}
    {%- for name in registry if name in planned %}{% do names.append(name) %}{% endfor -%}
    {%- set first = {} -%}
    {%- for name in names -%}
        {%- set entry = planned[name] -%}
        {%- set read = entry.reads + entry.after -%}
        {%- for case in entry.reads_when %}{% set read = read + case.reads %}{% endfor -%}
        {%- do first.update({name: read | select('in', planned) | reject('equalto', name) | list}) -%}
    {%- endfor -%}
    {%- for name in names -%}
        {%- for later in planned[name].get('before', []) if later in first %}{% do first[later].append(name) %}{% endfor -%}
    {%- endfor -%}
    {%- set order = [] -%}
    {%- for _ in names if order | length < names | length -%}
        {%- for name in names if name not in order and first[name] | reject('in', order) | list | length == 0 -%}
            {%- do order.append(name) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if order | length < names | length -%}
        {{ exceptions.raise_compiler_error("rankwise: the stages " ~ names | reject('in', order) | join(', ') ~ " read each other; the stage registry must not.") }}
    {%- endif -%}
    {{ return(order) }}
{% endmacro %}

{#- The registry entry of stage `name` under the plan's strategies, with every
    field (reads, after, inputs, provides, reads_when) present; none when its
    strategy has no provider for the plan's value. -#}
{% macro _stage_entry(name, spec, registry=none) %}
    {%- set declared = (registry or rankwise._stage_registry())[name] -%}
    {%- set entry = {'name': name, 'reads': [], 'after': [], 'inputs': [], 'provides': {}, 'reads_when': []} -%}
    {%- for field, value in declared.items() if field != 'providers' %}{% do entry.update({field: value}) %}{% endfor -%}
    {%- if declared.strategy is defined -%}
        {%- set value = spec.strategies[declared.strategy] -%}
        {%- set provider = declared.providers.get(value, declared.providers.get('default')) if value is not none else none -%}
        {%- if provider is none -%}
            {{ return(none) }}
        {%- endif -%}
        {%- do entry.update(provider) -%}
    {%- endif -%}
    {{ return(entry) }}
{% endmacro %}

{#- Whether the plan has stage `name`. -#}
{% macro _planned(spec, name) %}
    {{ return(name in spec.stage_plan) }}
{% endmacro %}

{#- The CTEs of the plan's stages, in order, each opening with what one of
    its rows is and the macro that wrote it. -#}
{% macro _written_stages(spec) %}
    {%- set written = [] -%}
    {%- for name in spec.stages if not spec.stage_plan[name].get('output') -%}
        {%- set stage = spec.stage_plan[name] -%}
        {%- set ctes = rankwise[stage.writes](spec) -%}
        {%- for cte in ([ctes] if ctes is string else ctes) -%}
            {%- do written.append('-- one row per ' ~ stage.row ~ ' (rankwise.' ~ stage.writes ~ ')\n' ~ cte | trim) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(written) }}
{% endmacro %}

{#- The SELECTs of the plan's outputs, in order. -#}
{% macro _written_outputs(spec) %}
    {%- set written = [] -%}
    {%- for name in spec.stages if spec.stage_plan[name].get('output') -%}
        {%- do written.append(rankwise[spec.stage_plan[name].writes](spec) | trim) -%}
    {%- endfor -%}
    {{ return(written) }}
{% endmacro %}
