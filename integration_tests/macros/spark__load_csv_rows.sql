{#- dbt-spark 1.11 loads seeds through the `session` method by formatting each
    value as '<value>', so an empty CSV cell arrives as the string 'None' and a
    quote breaks the statement. This root-project override (dbt looks here
    before the adapter's own macro) writes each value as a literal instead:
    NULL for an empty cell, otherwise a quoted, escaped string cast to the
    column's type. -#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    {%- set value = row[loop.index0] -%}
                    {%- if value is none -%}
                        cast(null as {{ type }})
                    {%- else -%}
                        cast('{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}' as {{ type }})
                    {%- endif -%}
                    {%- if not loop.last %}, {% endif -%}
                {%- endfor -%})
                {%- if not loop.last %},{% endif %}
            {% endfor -%}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 %}{% do statements.append(sql) %}{% endif -%}
    {%- endfor -%}
    {{ return(statements[0]) }}
{% endmacro %}
