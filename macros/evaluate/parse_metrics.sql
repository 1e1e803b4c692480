{#- Turns `metrics` (names, or ranx-style 'name@k' strings) and `k` (cutoffs for the
    names given without @k) into a list of {name, k, parameters, label, key}, in
    the order asked, without duplicates. A metric without a cutoff (k = none)
    covers the whole list. `parameters` holds the value of every parameter the
    registry declares for the metric; `label` is the metric as the output names
    it; `key`, the identifier of its values' columns, is its name for its first
    set of parameters and name__n for the n-th. `macro_name` names the function
    called in the errors. -#}
{% macro _parse_metrics(metrics, k, macro_name) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set known = registry.keys() | list -%}
    {%- if metrics is string -%}{%- set metrics = [metrics] -%}{%- endif -%}
    {%- if metrics is none or metrics is mapping or metrics is not iterable or metrics | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `metrics` must be a non-empty list of metric names such as ['ndcg@10', 'map']; got " ~ rankwise._describe(metrics) ~ ". Valid names: " ~ known | join(', ') ~ ".") }}
    {%- endif -%}

    {%- if k is none -%}
        {%- set default_cutoffs = [none] -%}
    {%- elif k is integer -%}
        {%- set default_cutoffs = [k] -%}
    {%- elif k is iterable and k is not string and k is not mapping and k | length > 0 -%}
        {%- set default_cutoffs = k | list -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `k` must be a positive integer, a non-empty list of them, or none for the whole list; got " ~ rankwise._describe(k) ~ ".") }}
    {%- endif -%}
    {%- for cutoff in default_cutoffs -%}
        {%- do rankwise._check_cutoff(macro_name, cutoff) -%}
    {%- endfor -%}

    {#- a preset's measure set ('beir', 'msmarco') stands for its metrics -#}
    {%- set sets = rankwise._metric_sets() -%}
    {%- set expanded = [] -%}
    {%- for metric in metrics -%}
        {%- if metric is string and metric in sets %}{% do expanded.extend(sets[metric]) %}{% else %}{% do expanded.append(metric) %}{% endif -%}
    {%- endfor -%}
    {%- set metrics = expanded -%}
    {%- set parsed = [] -%}
    {#- a mapping, so that looking a key up does not grow with the number of cutoffs -#}
    {%- set seen = {} -%}
    {%- set keys = {} -%}
    {%- set labels_of = {} -%}
    {%- for metric in metrics -%}
        {%- if metric is not string -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": every entry of `metrics` must be a string such as 'ndcg@10'; got " ~ rankwise._describe(metric) ~ ".") }}
        {%- endif -%}
        {%- set metric = rankwise.metric_alias(metric) or metric -%}
        {%- set parts = metric.split('@') -%}
        {%- set head = parts[0] -%}
        {%- set name = (head.split('(')[0] if '(' in head else head) | trim -%}
        {%- if name not in known or parts | length > 2 -%}
            {%- set close = rankwise._closest_metric(name, known) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": unknown metric '" ~ metric ~ "'." ~ (" Did you mean '" ~ close ~ "'?" if close else "") ~ " Valid names, each optionally followed by @k: " ~ known | join(', ') ~ ".") }}
        {%- endif -%}
        {%- set parameters = rankwise._parsed_parameters(metric, name, head, macro_name) -%}
        {%- if parts | length == 2 -%}
            {%- if not (parts[1].isdigit() and parts[1] | int >= 1) -%}
                {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": the cutoff in metric '" ~ metric ~ "' must be a positive integer, as in '" ~ name ~ "@10'.") }}
            {%- endif -%}
            {%- if not registry[name].cutoff -%}
                {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": metric '" ~ name ~ "' takes no cutoff; write '" ~ name ~ "', not '" ~ metric ~ "'.") }}
            {%- endif -%}
            {%- set cutoffs = [parts[1] | int] -%}
        {%- elif registry[name].cutoff is sameas true -%}
            {%- set cutoffs = default_cutoffs -%}
        {%- else -%}
            {%- set cutoffs = [none] -%}
        {%- endif -%}
        {%- set label = rankwise._parameters_label(name, parameters) -%}
        {%- if label not in keys -%}
            {%- set others = labels_of.get(name, []) -%}
            {%- do keys.update({label: name if others | length == 0 else name ~ '__' ~ (others | length + 1)}) -%}
            {%- do labels_of.update({name: others + [label]}) -%}
        {%- endif -%}
        {%- for cutoff in cutoffs -%}
            {%- set asked = label ~ '@' ~ cutoff -%}
            {%- if asked not in seen -%}
                {%- do seen.update({asked: true}) -%}
                {%- do parsed.append({'name': name, 'k': cutoff, 'parameters': parameters, 'label': label, 'key': keys[label], 'asked': metric}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(parsed) }}
{% endmacro %}

{#- The parameters of metric string `metric` as ir_measures writes them,
    'rbp(p=0.95, normalize=true)@20' (`head` is the part before @, `name` the
    metric's): the value of every parameter the registry declares for the
    metric, those given checked and typed as their kind says, the defaults for
    the others. -#}
{% macro _parsed_parameters(metric, name, head, macro_name) %}
    {%- set declared = rankwise._metric_parameter_declarations(name) -%}
    {%- set allowed = declared.keys() | list -%}
    {%- set takes = name ~ " takes " ~ ("the parameters " ~ allowed | join(', ') if allowed | length > 0 else "no parameter") -%}
    {%- set given = {} -%}
    {%- if '(' in head -%}
        {%- set inner = head[head.index('(') + 1:] -%}
        {%- if not inner.endswith(')') or ')' in inner[:-1] or '(' in inner -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": metric '" ~ metric ~ "' must close its parameters with one ')' before any @k, as in 'rbp(p=0.95)@20'.") }}
        {%- endif -%}
        {%- for pair in inner[:-1].split(',') -%}
            {%- set pieces = pair.split('=') -%}
            {%- set parameter = pieces[0] | trim -%}
            {%- if pieces | length != 2 or parameter | length == 0 or (pieces[1] | trim) | length == 0 -%}
                {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": metric '" ~ metric ~ "': write each parameter as name=value, separated by commas, as in 'rbp(p=0.95, normalize=true)'; " ~ takes ~ ".") }}
            {%- endif -%}
            {%- if parameter not in allowed -%}
                {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": metric '" ~ metric ~ "' gives the parameter '" ~ parameter ~ "', but " ~ takes ~ ".") }}
            {%- endif -%}
            {%- if parameter in given -%}
                {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": metric '" ~ metric ~ "' gives the parameter '" ~ parameter ~ "' twice.") }}
            {%- endif -%}
            {%- do given.update({parameter: rankwise._parameter_value(metric, name, parameter, declared[parameter], pieces[1] | trim, macro_name)}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set values = {} -%}
    {%- for parameter, entry in declared.items() -%}
        {%- do values.update({parameter: given[parameter] if parameter in given else entry.default}) -%}
    {%- endfor -%}
    {{ return(values) }}
{% endmacro %}

{#- The value `text` of parameter `parameter` of a metric string, typed and
    checked as its registry entry `declared` says. -#}
{% macro _parameter_value(metric, name, parameter, declared, text, macro_name) %}
    {%- set problem = "rankwise." ~ macro_name ~ ": metric '" ~ metric ~ "': parameter `" ~ parameter ~ "` of " ~ name ~ " must be " -%}
    {%- if declared.kind == 'boolean' -%}
        {%- if text | lower not in ['true', 'false'] -%}
            {{ exceptions.raise_compiler_error(problem ~ "true or false (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
        {%- endif -%}
        {{ return(text | lower == 'true') }}
    {%- elif declared.kind == 'choice' -%}
        {%- if text not in declared.choices -%}
            {{ exceptions.raise_compiler_error(problem ~ "one of " ~ declared.choices | join(', ') ~ " (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
        {%- endif -%}
        {{ return(text) }}
    {%- endif -%}
    {%- set number = text | float(none) -%}
    {%- if declared.kind == 'number' -%}
        {%- if number is none or (number - number) != 0 -%}
            {{ exceptions.raise_compiler_error(problem ~ "a finite number (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
        {%- endif -%}
        {#- a whole number stays one, so that the label reads rel=2 -#}
        {{ return(number | int if number == number | int else number) }}
    {%- endif -%}
    {%- if declared.kind == 'proportion' -%}
        {%- if number is none or (number - number) != 0 or not (number >= 0 and number <= 1) -%}
            {{ exceptions.raise_compiler_error(problem ~ "a number from 0 to 1 (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
        {%- endif -%}
        {{ return(number) }}
    {%- elif declared.kind == 'positive' -%}
        {%- if number is none or (number - number) != 0 or not (number > 0) -%}
            {{ exceptions.raise_compiler_error(problem ~ "a finite number above 0 (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
        {%- endif -%}
        {{ return(number) }}
    {%- endif -%}
    {%- if number is none or (number - number) != 0 or not (number > 0 and number < 1) -%}
        {{ exceptions.raise_compiler_error(problem ~ "a number above 0 and below 1 (" ~ declared.help ~ "); got '" ~ text ~ "'.") }}
    {%- endif -%}
    {{ return(number) }}
{% endmacro %}

{#- The metric as the output labels it: its name, then in parentheses the
    parameters whose values differ from their defaults, in the registry's
    order, so that two spellings of one metric ('rbp', 'rbp(p=0.8)') are one. -#}
{% macro _parameters_label(name, parameters) %}
    {%- set shown = [] -%}
    {%- for parameter, declared in rankwise._metric_parameter_declarations(name).items() if parameters[parameter] != declared.default -%}
        {%- set value = parameters[parameter] -%}
        {%- do shown.append(parameter ~ '=' ~ ((value | string | lower) if value is boolean else value | string)) -%}
    {%- endfor -%}
    {{ return(name ~ ('(' ~ shown | join(', ') ~ ')' if shown | length > 0 else '')) }}
{% endmacro %}

{#- The parameters a metric string may give metric `name`: those of its
    registry entry, and `rel`, the metric's own relevance threshold, for every
    per-user metric that reads one (all but the graded ones). -#}
{% macro _metric_parameter_declarations(name) %}
    {%- set metric = rankwise._metric_registry()[name] -%}
    {%- set declared = {} -%}
    {%- do declared.update(metric.get('parameters', {})) -%}
    {%- if metric.level == 'user' and not metric.get('graded') -%}
        {%- do declared.update({'rel': {'kind': 'number', 'default': none,
                                        'help': "the metric's own relevance threshold: an item is relevant, and earns a DCG gain, when its relevance is at least this"}}) -%}
    {%- endif -%}
    {{ return(declared) }}
{% endmacro %}

{#- The options a metric's parameters set in place of the call's, as
    {option: value}: `rel` is relevance_threshold, and with it gain_items='relevant'
    (so that a threshold of its own reaches NDCG's gains too, as ranx's rel_lvl
    does); {} when it gives none. -#}
{% macro _parameter_overrides(parameters) %}
    {%- if parameters.get('rel') is none -%}
        {{ return({}) }}
    {%- endif -%}
    {{ return({'relevance_threshold': parameters.rel, 'gain_items': 'relevant'}) }}
{% endmacro %}
