{#- Unpivots a wide row into the long output: picks, for each row of the metric
    grid it is cross-joined with, the column of that grid position. `template`
    names the column, with {position} and {k} ('all' for no cutoff) filled in. -#}
{% macro _pick_by_position(entries, template) %}
    {%- set branches = [] -%}
    {%- for entry in entries -%}
        {%- set column = template | replace('{position}', entry.position | string) | replace('{k}', (entry.k if entry.k is not none else 'all') | string) -%}
        {%- do branches.append('when ' ~ entry.position ~ ' then ' ~ column) -%}
    {%- endfor -%}
    {{ return('(case grid.rw_position ' ~ branches | join(' ') ~ ' end)') }}
{% endmacro %}
