{#- Small pieces the stages share, so that each is written once. -#}

{#- The group columns for a select list or a GROUP BY, each followed by a comma
    and qualified by `alias` when given; '' without groups. -#}
{% macro _group_columns(groups, alias=none) %}
    {%- set columns = [] -%}
    {%- for column in groups -%}
        {%- do columns.append((alias ~ '.' if alias else '') ~ column ~ ', ') -%}
    {%- endfor -%}
    {{ return(columns | join('')) }}
{% endmacro %}

{#- The columns `columns` of the relation `alias` for a select list, each under
    its own name (`alias.c as c`) and followed by a comma; '' without columns.
    Every qualified column of a select list is named: ClickHouse names a column
    that two relations of a join of three or more have by its qualified name
    (`alias.c`), which no later stage could read as `c`. -#}
{% macro _selected_columns(columns, alias) %}
    {%- set selected = [] -%}
    {%- for column in columns -%}
        {%- do selected.append(alias ~ '.' ~ column ~ ' as ' ~ column ~ ', ') -%}
    {%- endfor -%}
    {{ return(selected | join('')) }}
{% endmacro %}

{#- `group by g1, g2` (qualified by `alias` when given), or '' without groups
    (one group: the whole input). -#}
{% macro _group_by_groups(groups, alias=none) %}
    {%- set columns = rankwise._group_columns(groups, alias) -%}
    {{ return('group by ' ~ columns[:-2] if groups | length > 0 else '') }}
{% endmacro %}

{#- The join condition on the group columns of two relations, each led by `and`;
    NULL group values match each other. -#}
{% macro _groups_match(left, right, groups) %}
    {%- set conditions = [] -%}
    {%- for column in groups -%}
        {%- do conditions.append(' and ' ~ rankwise.null_safe_equals(left ~ '.' ~ column, right ~ '.' ~ column)) -%}
    {%- endfor -%}
    {{ return(conditions | join('')) }}
{% endmacro %}

{#- Whether a relevance counts as relevant for the binary metrics. -#}
{% macro _is_relevant(relevance, spec) %}
    {{ return('(' ~ relevance ~ ') >= ' ~ rankwise._number_literal('evaluate', 'relevance_threshold', spec.relevance_threshold)) }}
{% endmacro %}

{#- The window spec of one list in rank order, rank ascending whatever the
    connection's default order. -#}
{% macro _over_list_in_rank_order(spec, alias) %}
    {{ return('partition by ' ~ rankwise._group_columns(spec.groups, alias) ~ alias ~ '.rw_user order by ' ~ alias ~ '.rw_rank asc rows between unbounded preceding and current row') }}
{% endmacro %}

{#- The sum of `expression` over the rows of the list of `alias`'s row ranked
    strictly before it, so that items sharing a rank (ties='shared') see the
    same rows before them: the rows up to it in the order (rank, item), less
    those of its rank up to it in the order of item. Both are ROWS frames over a
    total order (a list holds an item once), which every warehouse documents
    (Redshift has no RANGE frame). -#}
{% macro _before_rank_in_list(expression, spec, alias) %}
    {%- set list = rankwise._group_columns(spec.groups, alias) ~ alias ~ '.rw_user' -%}
    {%- set frame = ' rows between unbounded preceding and current row)' -%}
    {{ return('(sum(' ~ expression ~ ') over (partition by ' ~ list ~ ' order by ' ~ alias ~ '.rw_rank asc, ' ~ alias ~ '.rw_item asc' ~ frame
              ~ ' - sum(' ~ expression ~ ') over (partition by ' ~ list ~ ', ' ~ alias ~ '.rw_rank order by ' ~ alias ~ '.rw_item asc' ~ frame ~ ')') }}
{% endmacro %}

{#- `name as (`, with the engine's keyword for inlining a CTE read more than once
    when `inlined` (see cross_db/inlined_cte.sql). -#}
{% macro _cte_as(name, inlined) %}
    {%- set hint = rankwise._inlined_cte() | trim if inlined else '' -%}
    {{ return(name ~ ' as ' ~ (hint ~ ' ' if hint else '') ~ '(') }}
{% endmacro %}

{#- The join condition between a relation of the recommendations' side and one of
    the truth's: the partition columns, each led by `and`; '' without partitions.
    The user (and item) stay the equality keys, so this is a filter on the join. -#}
{% macro _partitions_match(left, right, spec) %}
    {{ return(rankwise._groups_match(left, right, spec.partitions)) }}
{% endmacro %}

{#- The partition columns for a select list or a GROUP BY, each followed by a
    comma; '' without partitions. -#}
{% macro _partition_columns(spec, alias=none) %}
    {{ return(rankwise._group_columns(spec.partitions, alias)) }}
{% endmacro %}

{#- dbt's parse phase of a node: dbt renders every model when it reads the
    project, for its ref(), source() and config() calls only, with `execute`
    false. evaluate, compare and exposure_by_item_group check their arguments
    there (a misspelt option fails `dbt parse`) and return before writing the
    query, which is most of the time a parse would take; dbt renders them again,
    in full, when it compiles the model. The Python wrapper renders outside dbt,
    with `execute` false too (no macro runs a query there) but no `model`: it
    gets the query. -#}
{% macro _dbt_is_parsing() %}
    {{- return(not execute and model is defined) -}}
{% endmacro %}

{#- Selects each over the one before, the first over the relation `source`,
    every one named `alias`: `layers` is [{carry: [column], columns: [(column,
    SQL)], comment: optional}], the innermost first; each select carries the
    columns `carry` of the one below, by name, and adds `columns`, under the
    one-line SQL comment `comment` when there is one. -#}
{% macro _select_layers(alias, source, layers) %}
    {%- set ns = namespace(sql=source ~ ' as ' ~ alias) -%}
    {%- for layer in layers -%}
        {%- set carried = [] -%}
        {#- bare: a qualified column of a select list is named `alias.column` by ClickHouse -#}
        {%- for column in layer.carry -%}
            {%- do carried.append(column) -%}
        {%- endfor -%}
        {%- set columns = [carried | join(', ')] -%}
        {%- for column, sql in layer.columns -%}
            {%- do columns.append(sql | indent(4) ~ ' as ' ~ column) -%}
        {%- endfor -%}
        {%- set below = ns.sql if loop.first else '(\n' ~ ns.sql | indent(4, first=true) ~ '\n) as ' ~ alias -%}
        {%- set heading = '-- ' ~ layer.get('comment') ~ '\n' if layer.get('comment') else '' -%}
        {%- set ns.sql = heading ~ 'select\n    ' ~ columns | join(',\n    ') ~ '\nfrom ' ~ below -%}
    {%- endfor -%}
    {{ return(ns.sql) }}
{% endmacro %}
