{#- The layout of the SQL a person reads in target/compiled or from
    rankwise.sql: no line longer than `width`, and no line of spaces alone. The stages write their long
    expressions over several lines where they can; a line still too long (a
    CASE over many metrics, a long formula) is broken at its last space that
    keeps it within the width, outside quoted names and string literals,
    never inside a comment, and continued four spaces deeper. -#}
{% macro _wrapped_lines(sql, width=160) %}
    {%- set lines = [] -%}
    {%- for line in sql.split('\n') -%}
        {#- a clause that rendered to nothing (an empty GROUP BY) leaves its indent -#}
        {%- if line and not line.strip() -%}
        {%- elif line | length <= width -%}
            {%- do lines.append(line) -%}
        {%- else -%}
            {%- do lines.extend(rankwise._wrapped_line(line, width)) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(lines | join('\n')) }}
{% endmacro %}

{#- One line as lines of at most `width` characters where its spaces allow. -#}
{% macro _wrapped_line(line, width) %}
    {%- set indent = ' ' * (line | length - line.lstrip() | length + 4) -%}
    {#- the spaces a line may break at: outside quotes, before any comment -#}
    {%- set breaks = [] -%}
    {%- set ns = namespace(comment=false) -%}
    {%- for token in modules.re.finditer("'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|--| ", line) -%}
        {%- if token.group(0) == '--' -%}
            {%- set ns.comment = true -%}
        {%- elif token.group(0) == ' ' and not ns.comment and token.start() > 0 and line[token.start() - 1] != ' ' -%}
            {%- do breaks.append(token.start()) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set pieces = [] -%}
    {%- set state = namespace(start=0, last=none, prefix='') -%}
    {%- for position in breaks + [line | length] -%}
        {%- if state.prefix | length + position - state.start > width and state.last is not none -%}
            {%- do pieces.append(state.prefix ~ line[state.start:state.last]) -%}
            {%- set state.start = state.last + 1 -%}
            {%- set state.prefix = indent -%}
            {%- set state.last = none -%}
        {%- endif -%}
        {%- set state.last = position -%}
    {%- endfor -%}
    {%- do pieces.append(state.prefix ~ line[state.start:]) -%}
    {{ return(pieces) }}
{% endmacro %}
