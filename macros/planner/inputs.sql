{#- The inputs the metrics read besides the two tables (items, train), the
    catalog's columns they read, and every column read per input, as the
    Python wrapper names them in its messages. -#}

{#- The optional inputs (items, train) and the catalog's columns the metrics
    read, checked, and the columns each input is read for: evaluate's plan and
    compare's (whose group_by has the model column) both take them. -#}
{% macro _plan_inputs(spec, options, group_by, partition_by, items, train) %}
    {%- do spec.update(rankwise._optional_inputs(spec, items, train)) -%}
    {%- do spec.update(rankwise._item_feature_columns(spec, options.item_col, options.item_vector_col, options.item_feature_cols)) -%}
    {%- do spec.update(rankwise._item_group_column(spec, options.item_col, options.item_group_col)) -%}
    {%- set columns_read = rankwise._columns_read(options, group_by, partition_by) -%}
    {%- set partition_columns = [] -%}
    {%- for column, purpose in columns_read.interactions if purpose == 'partition_by column' %}{% do partition_columns.append((column, purpose)) %}{% endfor -%}
    {%- do columns_read.update({'items': [(options.item_col, 'item id')] + spec.item_columns_read + spec.item_group_columns_read,
                                'train': [(options.user_col, 'user id'), (options.item_col, 'item id')] + partition_columns}) -%}
    {%- do spec.update({'columns_read': columns_read}) -%}
{% endmacro %}


{#- Per input, the (column, purpose) pairs evaluate reads, as the Python wrapper
    names them in its messages. -#}
{% macro _columns_read(options, group_by, partition_by) %}
    {%- set user_col, item_col, rank_col, score_col, relevance_col = options.user_col, options.item_col, options.rank_col, options.score_col, options.relevance_col -%}
    {%- set groups = [] if group_by is none else ([group_by] if group_by is string else group_by) -%}
    {%- set partitions = [] if partition_by is none else ([partition_by] if partition_by is string else partition_by) -%}
    {%- set recommendations = [(user_col, 'user id'), (item_col, 'item id'), (score_col, 'score') if score_col is not none else (rank_col, 'rank')] -%}
    {%- for column in groups %}{% do recommendations.append((column, 'group_by column')) %}{% endfor -%}
    {%- if options.model_col is not none and options.model_col | lower not in groups | map('string') | map('lower') | list -%}
        {%- do recommendations.append((options.model_col, 'model column')) -%}
    {%- endif -%}
    {%- set interactions = [(user_col, 'user id'), (item_col, 'item id'), (relevance_col, 'relevance')] -%}
    {%- for column in partitions -%}
        {%- do recommendations.append((column, 'partition_by column')) -%}
        {%- do interactions.append((column, 'partition_by column')) -%}
    {%- endfor -%}
    {%- if options.propensity_col is not none %}{% do interactions.append((options.propensity_col, 'propensity')) %}{% endif -%}
    {%- if options.user_group_col is not none %}{% do interactions.append((options.user_group_col, 'user group')) %}{% endif -%}
    {{ return({'recommendations': recommendations, 'interactions': interactions}) }}
{% endmacro %}


{#- The optional inputs (`items`, `train`) the metrics asked read, each refused
    with the metrics that need it when missing; given but unread, left out. -#}
{% macro _optional_inputs(spec, items, train) %}
    {%- for input, relation in [('items', items), ('train', train)] if input in spec.inputs_read and relation is none -%}
        {%- set needing = [] -%}
        {%- for entry in spec.requested if input in entry.reads and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": " ~ needing | join(', ') ~ " " ~ ("needs" if needing | length == 1 else "need") ~ " the `" ~ input ~ "` input ("
            ~ ("the catalog: one row per item that could be recommended" if input == 'items' else "the interactions the model was trained on, for the items' popularity") ~ ").") }}
    {%- endfor -%}
    {{ return({'items_relation': items, 'train_relation': train}) }}
{% endmacro %}


{#- The columns of the catalog a pair metric's distance reads, checked
    against item_distance: a vector column (an array of doubles) or feature
    columns for 'cosine', feature columns for 'hamming', none for
    'cooccurrence'. A column given that no metric reads is refused, not
    ignored. -#}
{% macro _item_feature_columns(spec, item_col, item_vector_col, item_feature_cols) %}
    {%- set diversity = spec.pair_metrics | length > 0 -%}
    {%- if item_vector_col is not none and (item_vector_col is not string or item_vector_col | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_vector_col` must be a non-empty column name or none; got " ~ rankwise._describe(item_vector_col) ~ ".") }}
    {%- endif -%}
    {%- set features = [] if item_feature_cols is none else ([item_feature_cols] if item_feature_cols is string else item_feature_cols) -%}
    {%- if features is mapping or features is not iterable or (item_feature_cols is not none and features | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_feature_cols` must be a column name or a non-empty list of them, or none; got " ~ rankwise._describe(item_feature_cols) ~ ".") }}
    {%- endif -%}
    {%- for column in features -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": every entry of `item_feature_cols` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column | lower == item_col | lower or column | lower in (features[:loop.index0] | map('lower') | list) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_feature_cols` lists column '" ~ column ~ "' twice, or the item column; list each feature column once.") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set given = (['item_vector_col'] if item_vector_col is not none else []) + (['item_feature_cols'] if features | length > 0 else []) -%}
    {%- if not diversity and given | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `" ~ given | join('` and `') ~ "` " ~ ("is" if given | length == 1 else "are") ~ " given, but only " ~ rankwise._readers_of('item_features') | join(', ') ~ " reads the items' features and it is not asked; add it to `metrics` or leave the argument out.") }}
    {%- endif -%}
    {%- if diversity -%}
        {%- if spec.item_distance == 'cooccurrence' and given | length > 0 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='cooccurrence' compares items by their users in `train` and reads no feature; leave out `" ~ given | join('` and `') ~ "`, or pick item_distance='cosine' or 'hamming'.") }}
        {%- elif spec.item_distance == 'hamming' and (item_vector_col is not none or features | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='hamming' counts the features two items differ in; give the catalog's feature columns as `item_feature_cols` (and no `item_vector_col`).") }}
        {%- elif spec.item_distance == 'cosine' and given | length != 1 -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": item_distance='cosine' compares the items' vectors; give either `item_vector_col` (a column of the catalog holding an array of numbers) or `item_feature_cols` (numeric columns that form the vector), " ~ ("not both." if given | length == 2 else "or pick item_distance='cooccurrence' to compare items by their users in `train`.")) }}
        {%- endif -%}
    {%- endif -%}
    {%- set quoted = [] -%}
    {%- set read = [] -%}
    {%- for column in features -%}
        {%- do quoted.append(rankwise.quote_identifier(column)) -%}
        {%- do read.append((column, 'item feature')) -%}
    {%- endfor -%}
    {%- if item_vector_col is not none %}{% do read.append((item_vector_col, 'item vector')) %}{% endif -%}
    {{ return({'item_vector': none if item_vector_col is none else rankwise.quote_identifier(item_vector_col),
               'item_features': quoted, 'item_columns_read': read}) }}
{% endmacro %}


{#- The catalog's item group column (item_group_col), which the metrics that
    read 'item_groups' need; given when none of them is asked, refused rather
    than ignored. -#}
{% macro _item_group_column(spec, item_col, item_group_col) %}
    {%- if item_group_col is not none and (item_group_col is not string or item_group_col | length == 0) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": argument `item_group_col` must be a non-empty column name or none; got " ~ rankwise._describe(item_group_col) ~ ".") }}
    {%- endif -%}
    {%- set needing = [] -%}
    {%- for entry in spec.requested if 'item_groups' in entry.reads and entry.name not in needing %}{% do needing.append(entry.name) %}{% endfor -%}
    {%- if ('item_groups' in spec.demands) and item_group_col is none -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": " ~ needing | join(', ') ~ (" reads" if needing | length == 1 else " read") ~ " the items' groups; give `item_group_col`, the column of the catalog (`items`) naming each item's group.") }}
    {%- endif -%}
    {%- if item_group_col is not none and not ('item_groups' in spec.demands) -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_group_col` is given, but only " ~ rankwise._readers_of('item_groups') | join(', ') ~ " read the item groups and none is asked; add one to `metrics` or leave the argument out.") }}
    {%- endif -%}
    {%- if item_group_col is not none and item_group_col | lower == item_col | lower -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ spec.macro_name ~ ": `item_group_col` is the item column '" ~ item_col ~ "'; give the column of the catalog naming each item's group.") }}
    {%- endif -%}
    {{ return({'item_group': none if item_group_col is none else rankwise.quote_identifier(item_group_col),
               'item_group_columns_read': [] if item_group_col is none else [(item_group_col, 'item group')]}) }}
{% endmacro %}
