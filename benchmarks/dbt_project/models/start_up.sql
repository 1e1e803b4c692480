{#- dbt's own start-up: parse, connect and build one trivial view. -#}
select 1 as one
