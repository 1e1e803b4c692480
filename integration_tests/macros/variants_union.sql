{#- The rows of several evaluate calls, one per variant, as one table: a column
    `variant` naming the call, then the key columns as text (so that every
    engine compares them with the seeds' alike) and the value columns as the
    call gives them. `calls` is a list of (variant, query). -#}
{% macro variants_union(calls, text_columns, columns) %}
{% for variant, query in calls %}
select
    cast('{{ variant }}' as {{ dbt.type_string() }}) as variant,
    {%- for column in text_columns %}
    cast({{ column }} as {{ dbt.type_string() }}) as {{ column }},
    {%- endfor %}
    {{ columns | join(',\n    ') }}
from (
    {{ query }}
) as variant_{{ loop.index }}
{{ 'union all' if not loop.last }}
{% endfor %}
{% endmacro %}
