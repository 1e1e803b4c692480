{#- Checks dbt can make before the SQL runs: argument names, and the columns of
    the input relations. The Python wrapper makes the same checks on its
    inputs with the same messages: the argument names in python/rankwise/_options.py,
    the columns in python/rankwise/_checks.py (check_columns, through
    _missing_column_message). -#}

{#- An argument no macro parameter takes, named with the closest one. dbt would
    otherwise say only "takes no keyword argument". -#}
{% macro _check_no_unknown_arguments(macro_name, given, known) %}
    {%- for name in given -%}
        {%- if name not in known -%}
            {%- set close = rankwise._closest(name, known) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": unknown argument `" ~ name ~ "`." ~ (" Did you mean `" ~ close ~ "`?" if close else "") ~ " Its options: " ~ known | join(', ') ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- The candidate closest to `name`, or none: the same name in another case, one
    that holds the other, one a letter or two away (a swap, a slip), or one that
    shares its first four letters. -#}
{% macro _closest(name, candidates) %}
    {%- set lowered = name | lower -%}
    {%- for candidate in candidates if candidate | lower == lowered %}{{ return(candidate) }}{% endfor -%}
    {%- for candidate in candidates if (lowered in candidate | lower or candidate | lower in lowered) and [lowered | length, candidate | length] | min >= 3 %}{{ return(candidate) }}{% endfor -%}
    {%- for candidate in candidates if candidate | length == lowered | length and (candidate | lower | list | sort) == (lowered | list | sort) %}{{ return(candidate) }}{% endfor -%}
    {%- for candidate in candidates if lowered | length >= 4 and (candidate | lower)[:4] == lowered[:4] %}{{ return(candidate) }}{% endfor -%}
    {{ return(none) }}
{% endmacro %}

{#- The metric name or alias (metric_aliases) closest to an unknown `name`:
    the fewest letters added, dropped, changed or swapped, without regard to
    case (ndgc is ndcg's swap), when that is at most a third of the name's
    letters (at least one); else _closest's guess among the metric names. -#}
{% macro _closest_metric(name, known) %}
    {%- set lowered = name | lower -%}
    {%- set best = namespace(candidate=none, distance=[1, (lowered | length) // 3] | max + 1) -%}
    {%- for candidate in known + (rankwise.metric_aliases() | map(attribute='alias') | list) -%}
        {%- set distance = rankwise._edit_distance(lowered, candidate | lower) | int -%}
        {%- if distance < best.distance -%}
            {%- set best.candidate = candidate -%}
            {%- set best.distance = distance -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(best.candidate if best.candidate is not none else rankwise._closest(name, known)) }}
{% endmacro %}

{#- The optimal string alignment distance of two words: the edits (a letter
    added, dropped, changed, or two neighbours swapped) that turn one into
    the other. -#}
{% macro _edit_distance(first, second) %}
    {%- set before = namespace(row=none) -%}
    {%- set previous = namespace(row=range(second | length + 1) | list) -%}
    {%- for i in range(1, first | length + 1) -%}
        {%- set row = [i] -%}
        {%- for j in range(1, second | length + 1) -%}
            {%- set cost = 0 if first[i - 1] == second[j - 1] else 1 -%}
            {%- set distance = [previous.row[j] + 1, row[j - 1] + 1, previous.row[j - 1] + cost] | min -%}
            {%- if i > 1 and j > 1 and first[i - 1] == second[j - 2] and first[i - 2] == second[j - 1] -%}
                {%- set distance = [distance, before.row[j - 2] + 1] | min -%}
            {%- endif -%}
            {%- do row.append(distance) -%}
        {%- endfor -%}
        {%- set before.row = previous.row -%}
        {%- set previous.row = row -%}
    {%- endfor -%}
    {{ return(previous.row[second | length]) }}
{% endmacro %}

{#- The message of a column an input lacks, as the Python wrapper words it: it
    names the argument that names the column (the command line turns it into
    its flag, `rank_col` into `--rank-col`). -#}
{% macro _missing_column_message(column, purpose, table, columns, suggestion) %}
    {%- set arguments = {'user id': 'user_col', 'item id': 'item_col', 'rank': 'rank_col', 'score': 'score_col',
                         'relevance': 'relevance_col', 'propensity': 'propensity_col', 'user group': 'user_group_col', 'group_by column': 'group_by', 'partition_by column': 'partition_by',
                         'model column': 'model_col', 'item feature': 'item_feature_cols', 'item vector': 'item_vector_col'} -%}
    {%- set fix = "Name the right one with `" ~ arguments[purpose] ~ "`" ~ (", or rank by a score with `score_col`" if purpose == 'rank' else "") if purpose in arguments else "Name the right one with the matching argument" -%}
    {{ return("rankwise: column '" ~ column ~ "' (the " ~ purpose ~ ") is not in the " ~ table ~ "." ~ (" Did you mean '" ~ suggestion ~ "'?" if suggestion else "") ~ " Its columns: " ~ columns | join(', ') ~ ". " ~ fix ~ ".") }}
{% endmacro %}

{#- At run time in dbt, each column evaluate reads, looked up in the relation
    that should hold it; a missing one is a compiler error naming the table and
    the closest column. Inputs that are not relations (a CTE's name, SQL text)
    are left to the engine. -#}
{% macro _check_relation_columns(recommendations, interactions, spec_columns, optional=none) %}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {%- for role, relation in [('recommendations', recommendations), ('interactions', interactions)] + (optional or {}).items() | list
        if relation is not none -%}
        {%- if relation is not string and relation.identifier is defined and relation.identifier -%}
            {%- set present = [] -%}
            {%- set by_name = {} -%}
            {%- for column in adapter.get_columns_in_relation(relation) -%}
                {%- do present.append(column.name) -%}
                {%- do by_name.update({column.name | lower: column}) -%}
            {%- endfor -%}
            {%- set label = role ~ " (" ~ relation ~ ")" -%}
            {%- for column, purpose in spec_columns[role] if column is not none -%}
                {%- if column | lower not in by_name -%}
                    {{ exceptions.raise_compiler_error(rankwise._missing_column_message(column, purpose, label, present, rankwise._closest(column, present))) }}
                {%- endif -%}
                {%- set found = by_name[column | lower] -%}
                {#- adapters name their number types their own way (Spark's int): refuse text, the common mistake -#}
                {%- if purpose in ['rank', 'score', 'relevance', 'propensity'] and found.is_string() -%}
                    {{ exceptions.raise_compiler_error("rankwise: the " ~ purpose ~ " column '" ~ column ~ "' of the " ~ label ~ " is of type " ~ found.data_type ~ "; it must be numeric.") }}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
