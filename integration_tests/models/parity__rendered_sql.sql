{#- The SQL dbt compiles for each of var('rankwise_parity_cases'), stored as text
    for the Python wrapper's parity test, which renders for DuckDB. -#}
{{ config(enabled=target.type == 'duckdb') }}
{%- for case in var('rankwise_parity_cases') %}
{#- the SQL only, never run: evaluate and compare skip the check of inputs
    that are names in the cases, not tables #}
{%- set kwargs = dict(case.kwargs) %}
{%- if case.macro in ['evaluate', 'compare'] %}{% do kwargs.update({'validate': false}) %}{% endif %}
select
    '{{ case.name }}' as case_name,
    '{{ context['rankwise'][case.macro](*case.args, **kwargs) | trim | replace("'", "''") }}' as rendered_sql
{%- if not loop.last %}
union all
{%- endif %}
{%- endfor %}
