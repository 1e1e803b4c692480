{#- The first half of the cases of var('rankwise_test_cases'), as
    actual__cases.sql reads them. -#}
{%- set cases = var('rankwise_test_cases') -%}
{{ cases_query(cases[:(cases | length + 1) // 2]) }}
