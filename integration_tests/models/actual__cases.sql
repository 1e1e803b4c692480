{#- Every case of var('rankwise_test_cases'), as means per example and per user,
    in one long table compared with seeds/expected__cases.csv. -#}
{{ cases_query(var('rankwise_test_cases')) }}
