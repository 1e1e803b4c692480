{#- The SQL dbt compiles for each of var('rankwise_parity_cases'), stored as text
    for the Python wrapper's parity test, which renders for DuckDB. -#}
{{ config(enabled=target.type == 'duckdb') }}
{%- for case in var('rankwise_parity_cases') %}
select
    '{{ case.name }}' as case_name,
    '{{ context['rankwise'][case.macro](*case.args, **case.kwargs) | trim | replace("'", "''") }}' as rendered_sql
{%- if not loop.last %}
union all
{%- endif %}
{%- endfor %}
