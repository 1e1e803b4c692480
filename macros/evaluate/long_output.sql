{#- Unpivots a wide row into the long output: picks, for each row of the metric
    grid it is cross-joined with, the column of that grid position. `template`
    names the column, with {position} and {k} ('all' for no cutoff) filled in. -#}
{% macro _pick_by_position(entries, template) %}
    {%- set branches = [] -%}
    {%- if entries | length == 1 -%}
        {#- every grid row is the one entry's -#}
        {{ return(template | replace('{position}', entries[0].position | string) | replace('{k}', (entries[0].k if entries[0].k is not none else 'all') | string)) }}
    {%- endif -%}
    {%- for entry in entries -%}
        {%- set column = template | replace('{position}', entry.position | string) | replace('{k}', (entry.k if entry.k is not none else 'all') | string) -%}
        {%- do branches.append('when ' ~ entry.position ~ ' then ' ~ column) -%}
    {%- endfor -%}
    {{ return('(case grid.rw_position ' ~ branches | join(' ') ~ ' end)') }}
{% endmacro %}

{#- The rows (position, metric, label, k) of the long output, one per requested
    metric and cutoff, as a union of literal selects (portable where VALUES is
    not). -#}
{% macro _metric_grid(entries) %}
    {%- set rows = [] -%}
    {%- for entry in entries -%}
        {%- do rows.append("select " ~ entry.position ~ " as rw_position, '" ~ entry.name ~ "' as metric, " ~ rankwise._string_literal(entry.label) ~ " as rw_label, cast("
            ~ (entry.k if entry.k is not none else 'null') ~ " as bigint) as k") -%}
    {%- endfor -%}
    {{ return(rows | join('\n    union all\n    ')) }}
{% endmacro %}
