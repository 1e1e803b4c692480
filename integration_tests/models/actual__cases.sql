{#- Every case of var('rankwise_test_cases'), as means per example and per user,
    in one long table compared with seeds/expected__cases.csv. The cases are
    built in two halves: all of them in one query pass ClickHouse's largest
    syntax tree (max_ast_elements, 50,000). -#}
select * from {{ ref('actual__cases_first_half') }}
union all
select * from {{ ref('actual__cases_second_half') }}
