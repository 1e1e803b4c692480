{#- A Poisson(1) count in 0..8 from a draw of rankwise.resample_draw (an integer in
    [0, 2^31 - 1)), by the inverse distribution function: with u = draw / 2^31, the
    least k with u < F(k), F the Poisson(1) distribution function, and 8 for the
    tail beyond F(7) (P(X >= 8) = 1.1e-5). For a Poisson bootstrap: each user
    enters a resample this many times, so no row is resampled by a join on a row
    number. The thresholds are F(k) 2^31 rounded up, computed while rendering, so
    the SQL compares integers only. The draw appears 8 times in the text: pass a
    column. -#}
{% macro poisson_one_weight(draw) %}
    {%- set draw_sql = rankwise._sql_operand('poisson_one_weight', 'draw', draw, integer=true) -%}
    {{- return(adapter.dispatch('poisson_one_weight', 'rankwise')(draw_sql)) -}}
{% endmacro %}

{% macro default__poisson_one_weight(draw) -%}
    {%- set ns = namespace(probability=0.36787944117144233, cumulative=0.0) -%}
    {%- set arms = [] -%}
    {%- for k in range(8) -%}
        {%- set ns.cumulative = ns.cumulative + ns.probability -%}
        {%- do arms.append('when ' ~ draw ~ ' < ' ~ ((ns.cumulative * 2147483648) | round(0, 'ceil') | int) ~ ' then ' ~ k) -%}
        {%- set ns.probability = ns.probability / (k + 1) -%}
    {%- endfor -%}
    (case when {{ draw }} < 0 then null {{ arms | join(' ') }} when {{ draw }} >= 0 then 8 end)
{%- endmacro %}
