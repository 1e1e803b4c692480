{#- Turns `metrics` (names, or ranx-style 'name@k' strings) and `k` (cutoffs for the
    names given without @k) into a list of {name, k, parameters, label, key}, in
    the order asked, without duplicates. A metric without a cutoff (k = none)
    covers the whole list. `parameters` holds the value of every parameter the
    registry declares for the metric; `label` is the metric as the output names
    it; `key`, the identifier of its values' columns, is its name for its first
    set of parameters and name__n for the n-th. -#}
{% macro _parse_metrics(metrics, k) %}
    {%- set registry = rankwise._metric_registry() -%}
    {%- set known = registry.keys() | list -%}
    {%- if metrics is string -%}{%- set metrics = [metrics] -%}{%- endif -%}
    {%- if metrics is none or metrics is mapping or metrics is not iterable or metrics | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `metrics` must be a non-empty list of metric names such as ['ndcg@10', 'map']; got " ~ rankwise._describe(metrics) ~ ". Valid names: " ~ known | join(', ') ~ ".") }}
    {%- endif -%}

    {%- if k is none -%}
        {%- set default_cutoffs = [none] -%}
    {%- elif k is integer -%}
        {%- set default_cutoffs = [k] -%}
    {%- elif k is iterable and k is not string and k is not mapping and k | length > 0 -%}
        {%- set default_cutoffs = k | list -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `k` must be a positive integer, a non-empty list of them, or none for the whole list; got " ~ rankwise._describe(k) ~ ".") }}
    {%- endif -%}
    {%- for cutoff in default_cutoffs -%}
        {%- do rankwise._check_cutoff('evaluate', cutoff) -%}
    {%- endfor -%}

    {%- set parsed = [] -%}
    {#- a mapping, so that looking a key up does not grow with the number of cutoffs -#}
    {%- set seen = {} -%}
    {%- set keys = {} -%}
    {%- set labels_of = {} -%}
    {%- for metric in metrics -%}
        {%- if metric is not string -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: every entry of `metrics` must be a string such as 'ndcg@10'; got " ~ rankwise._describe(metric) ~ ".") }}
        {%- endif -%}
        {%- set parts = metric.split('@') -%}
        {%- set name = parts[0] -%}
        {%- if name not in known or parts | length > 2 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: unknown metric '" ~ metric ~ "'. Valid names, each optionally followed by @k: " ~ known | join(', ') ~ ".") }}
        {%- endif -%}
        {%- set parameters = rankwise._metric_parameters(name) -%}
        {%- if parts | length == 2 -%}
            {%- if not (parts[1].isdigit() and parts[1] | int >= 1) -%}
                {{ exceptions.raise_compiler_error("rankwise.evaluate: the cutoff in metric '" ~ metric ~ "' must be a positive integer, as in '" ~ name ~ "@10'.") }}
            {%- endif -%}
            {%- if not registry[name].cutoff -%}
                {{ exceptions.raise_compiler_error("rankwise.evaluate: metric '" ~ name ~ "' takes no cutoff; write '" ~ name ~ "', not '" ~ metric ~ "'.") }}
            {%- endif -%}
            {%- set cutoffs = [parts[1] | int] -%}
        {%- elif registry[name].cutoff -%}
            {%- set cutoffs = default_cutoffs -%}
        {%- else -%}
            {%- set cutoffs = [none] -%}
        {%- endif -%}
        {%- set label = name -%}
        {%- if label not in keys -%}
            {%- set others = labels_of.get(name, []) -%}
            {%- do keys.update({label: name if others | length == 0 else name ~ '__' ~ (others | length + 1)}) -%}
            {%- do labels_of.update({name: others + [label]}) -%}
        {%- endif -%}
        {%- for cutoff in cutoffs -%}
            {%- set asked = label ~ '@' ~ cutoff -%}
            {%- if asked not in seen -%}
                {%- do seen.update({asked: true}) -%}
                {%- do parsed.append({'name': name, 'k': cutoff, 'parameters': parameters, 'label': label, 'key': keys[label]}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(parsed) }}
{% endmacro %}

{#- The default of every parameter the registry declares for metric `name`. -#}
{% macro _metric_parameters(name) %}
    {%- set values = {} -%}
    {%- for parameter, declared in rankwise._metric_registry()[name].get('parameters', {}).items() -%}
        {%- do values.update({parameter: declared.default}) -%}
    {%- endfor -%}
    {{ return(values) }}
{% endmacro %}
