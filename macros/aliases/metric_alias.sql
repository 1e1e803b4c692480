{#- Metric string `metric` as rankwise writes it, by the alias table
    (metric_aliases.sql): a rankwise metric string is returned as given; an
    alias of the table becomes the metric's name, with
    the string's parameters and @k kept ('P(rel=2)@10' -> 'precision(rel=2)@10',
    'P_10' -> 'precision@10', 'MAP' -> 'map'); none for a name that is neither
    (or that, read without regard to case, could be two metrics). The parser
    checks what follows the name. -#}
{% macro metric_alias(metric) %}
    {{- return(adapter.dispatch('metric_alias', 'rankwise')(metric)) -}}
{% endmacro %}

{% macro default__metric_alias(metric) %}
    {{ return(rankwise._aliased_metric(metric, rankwise.metric_aliases())) }}
{% endmacro %}

{#- metric_alias against the table `aliases` (the tests give tables of their
    own). -#}
{% macro _aliased_metric(metric, aliases) %}
    {%- if metric is not string -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set stem = metric.split('@')[0].split('(')[0] -%}
    {%- set name = stem | trim -%}
    {%- set tail = metric[stem | length:] -%}
    {%- set exact = rankwise._metrics_named(name, tail, aliases, false) -%}
    {%- if exact | length > 0 -%}
        {{ return(exact[0]) }}
    {%- endif -%}
    {%- set folded = rankwise._metrics_named(name, tail, aliases, true) | unique | list -%}
    {{ return(folded[0] if folded | length == 1 else none) }}
{% endmacro %}

{#- The metric strings `name` (followed by `tail`, its parameters and @k) may
    stand for: rankwise's metric of that name, or the metric of each alias it
    matches, by its form; `fold_case` compares the names in lower case. -#}
{% macro _metrics_named(name, tail, aliases, fold_case) %}
    {%- set key = name | lower if fold_case else name -%}
    {%- set found = [] -%}
    {%- for known in rankwise._metric_registry().keys() if (known | lower if fold_case else known) == key -%}
        {%- do found.append(known ~ tail) -%}
    {%- endfor -%}
    {%- set base, value = (name.rsplit('_', 1) + [''])[:2] -%}
    {%- set base_key = base | lower if fold_case else base -%}
    {%- for entry in aliases -%}
        {%- set alias = entry.alias | lower if fold_case else entry.alias -%}
        {%- if entry.form == 'name' and alias == key -%}
            {%- do found.append(entry.metric ~ tail) -%}
        {%- elif entry.form == 'name_k' and alias == base_key and tail == '' and value.isdigit() and value | int > 0 -%}
            {%- do found.append(entry.metric ~ '@' ~ value | int) -%}
        {%- elif entry.form == 'name_value' and alias == base_key and tail == '' and value | length > 0 and value | float(none) is not none -%}
            {%- do found.append(entry.metric ~ '(' ~ entry.parameter ~ '=' ~ value ~ ')') -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(found) }}
{% endmacro %}
