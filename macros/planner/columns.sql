{#- The column arguments: the user, item, rank, score and relevance columns,
    the group and partition columns, the model column and the user group
    column, checked and quoted. -#}

{#- The column arguments checked, and the group columns quoted. Engines match
    names case-insensitively, so clashes are checked in lower case. -#}
{% macro _checked_columns(options, group_by, argument, macro_name) %}
    {%- set user_col, item_col, rank_col, score_col, relevance_col = options.user_col, options.item_col, options.rank_col, options.score_col, options.relevance_col -%}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col), ('rank_col', rank_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for argument, value in [('score_col', score_col), ('relevance_col', relevance_col)] -%}
        {%- if value is not none and (value is not string or value | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a non-empty column name or none; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if group_by is none -%}{%- set group_by = [] -%}{%- elif group_by is string -%}{%- set group_by = [group_by] -%}{%- endif -%}
    {%- if group_by is mapping or group_by is not iterable -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ argument ~ "` must be a column name or a list of them; got " ~ rankwise._describe(group_by) ~ ".") }}
    {%- endif -%}
    {%- set reserved = ['metric', 'k', 'metric_label', 'value', 'n_users', 'n_users_without_list', 'ci_low', 'ci_high', 'ci_clipped', 'n_relevant', 'n_recommended', 'hits', 'dcg', 'idcg'] -%}
    {%- if user_col | lower in reserved -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `user_col` may not be named '" ~ user_col ~ "': the output has a column of that name. Rename it in a view first.") }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for column in group_by -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": every entry of `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower in reserved or column | lower in [user_col | lower, item_col | lower] or (column | lower).startswith('rw_') -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ argument ~ " column '" ~ column ~ "' clashes with a column rankwise uses (the user and item columns, " ~ reserved | join(', ') ~ ", or a name starting with rw_). Rename it in a view first.") }}
        {%- endif -%}
        {%- if column | lower in groups | map('lower') | list -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ argument ~ " lists column '" ~ column ~ "' twice.") }}
        {%- endif -%}
        {%- do groups.append(column) -%}
    {%- endfor -%}
    {%- set quoted_groups = [] -%}
    {%- for column in groups %}{% do quoted_groups.append(rankwise.quote_identifier(column)) %}{% endfor -%}
    {{ return(quoted_groups) }}
{% endmacro %}


{#- `group_by` with the model column (model_col) added when it is not there:
    the models' lists are told apart as groups of the output. The metrics that
    compare a list with the reference model's (rbo, intersection) need
    model_col and reference; reference is refused when none of them is asked. -#}
{% macro _groups_with_model(every_metric, group_by, partition_by, options, macro_name) %}
    {%- set readers = rankwise._readers_of('reference_lists') -%}
    {%- set asked = every_metric | map(attribute='name') | select('in', readers) | unique | list -%}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set missing = [] -%}
    {%- if options.model_col is none %}{% do missing.append("`model_col` (the column of the recommendations naming the model)") %}{% endif -%}
    {%- if options.reference is none %}{% do missing.append("`reference` (the reference model's value of it)") %}{% endif -%}
    {%- if asked | length > 0 and missing | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": " ~ asked | join(', ') ~ " compare" ~ ("s" if asked | length == 1 else "") ~ " each model's list with the reference model's list of the same user; give " ~ missing | join(' and ') ~ ".") }}
    {%- endif -%}
    {%- if asked | length == 0 and options.reference is not none -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `reference` is given, but only " ~ readers | join(', ') ~ " read it and none is asked; add one to `metrics` or leave `reference` out.") }}
    {%- endif -%}
    {%- if options.model_col is none or groups is mapping or groups is not iterable -%}
        {{ return(group_by) }}
    {%- endif -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- if partitions is iterable and partitions is not mapping and options.model_col | lower in partitions | map('string') | map('lower') | list -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `model_col` '" ~ options.model_col ~ "' is in `partition_by`; the models are groups of the recommendations, not partitions of both inputs: leave it out of `partition_by`.") }}
    {%- endif -%}
    {%- if options.model_col | lower in groups | map('string') | map('lower') | list -%}
        {{ return(groups) }}
    {%- endif -%}
    {{ return(groups + [options.model_col]) }}
{% endmacro %}


{#- The quoted user group column (user_group_col), a group of the output after
    group_by's, read from the interactions; none without it. -#}
{% macro _user_group_column(options, group_by, partition_by, macro_name) %}
    {%- set column = options.user_group_col -%}
    {%- if column is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set taken = ([] if group_by is none else ([group_by] if group_by is string else group_by | list))
                    + ([] if partition_by is none else ([partition_by] if partition_by is string else partition_by | list))
                    + [options.user_col, options.item_col] -%}
    {%- if column | lower in taken | map('string') | map('lower') | list -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": `user_group_col` '" ~ column ~ "' is already the user, item, a group_by or a partition_by column; name the column of the interactions that holds each user's group.") }}
    {%- endif -%}
    {{ return(rankwise.quote_identifier(column)) }}
{% endmacro %}


{#- A value of the model column as a literal of its type: text, or a number. -#}
{% macro _model_literal(value, macro_name) %}
    {%- if value is none -%}
        {{ return(none) }}
    {%- elif value is string -%}
        {{ return(rankwise._string_literal(value)) }}
    {%- endif -%}
    {{ return(rankwise._number_literal(macro_name, 'reference', value)) }}
{% endmacro %}
