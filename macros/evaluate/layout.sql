{#- The layout of the SQL a person reads in target/compiled or from
    rankwise.sql: no line longer than `width`, and no line of spaces alone. The stages write their long
    expressions over several lines where they can; a line still too long (a
    CASE over many metrics, a long formula) is broken at its last space that
    keeps it within the width, outside quoted names and string literals,
    never inside a comment, and continued four spaces deeper. -#}
{% macro _wrapped_lines(sql, width=160) %}
    {#- a clause that rendered to nothing (an empty GROUP BY) leaves its indent: a line of spaces alone, dropped -#}
    {%- set sql = modules.re.sub('(?:^|\n)[^\\S\n]+\\Z', '', modules.re.sub('(?m)^[^\\S\n]+\n', '', sql)) -%}
    {#- Jinja loops over the long lines only -#}
    {%- set state = namespace(sql='', start=0) -%}
    {%- for long in modules.re.finditer('(?m)^.{' ~ (width + 1) ~ ',}$', sql) -%}
        {%- set state.sql = state.sql ~ sql[state.start:long.start()] ~ rankwise._wrapped_line(long.group(0), width) | join('\n') -%}
        {%- set state.start = long.end() -%}
    {%- endfor -%}
    {{ return(state.sql ~ sql[state.start:]) }}
{% endmacro %}

{#- One line as lines of at most `width` characters where its spaces allow:
    each piece ends at the last space within the width (the first, when none
    is), found by a regular expression over the line with the spaces it may
    not break at (inside quotes, in a comment) masked, so that Jinja loops
    over the pieces and the quoted tokens, not over every space. -#}
{% macro _wrapped_line(line, width) %}
    {%- set indent = ' ' * (line | length - line.lstrip() | length + 4) -%}
    {%- set masked = namespace(line=line) -%}
    {%- for token in modules.re.finditer("'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|--", line) if ' ' in token.group(0) or token.group(0) == '--' -%}
        {%- set unbroken = line[token.start():] if token.group(0) == '--' else token.group(0) -%}
        {%- set masked.line = masked.line[:token.start()] ~ unbroken.replace(' ', '_') ~ masked.line[token.start() + unbroken | length:] -%}
    {%- endfor -%}
    {#- a break is a space after a character other than a space -#}
    {%- set pieces = [] -%}
    {%- set state = namespace(start=0, prefix='') -%}
    {%- for _ in range(line | length) -%}
        {%- set room = width - state.prefix | length -%}
        {%- set rest = masked.line[state.start:] -%}
        {%- if rest | length <= room -%}{% break %}{%- endif -%}
        {%- set piece = (room > 0 and modules.re.match('.{0,' ~ (room - 1) ~ '}[^ ](?= )', rest)) or modules.re.match('.*?[^ ](?= )', rest) -%}
        {%- if not piece -%}{% break %}{%- endif -%}
        {%- do pieces.append(state.prefix ~ line[state.start:state.start + piece.end()]) -%}
        {%- set state.start = state.start + piece.end() + 1 -%}
        {%- set state.prefix = indent -%}
    {%- endfor -%}
    {%- do pieces.append(state.prefix ~ line[state.start:]) -%}
    {{ return(pieces) }}
{% endmacro %}
