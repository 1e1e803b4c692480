{#- 1 or 0 with probability 1/2 each, from a draw of rankwise.resample_draw (an
    integer in [0, 2^31 - 1)): 1 when the draw, read as a uniform u = draw / 2^31,
    is at least 1/2. For a randomization (sign-flip) test: in each resample, a
    user's paired difference keeps its sign (0) or changes it (1). -#}
{% macro sign_flip(draw) %}
    {%- set draw_sql = rankwise._sql_operand('sign_flip', 'draw', draw, integer=true) -%}
    {{- return(adapter.dispatch('sign_flip', 'rankwise')(draw_sql)) -}}
{% endmacro %}

{% macro default__sign_flip(draw) -%}
    (case when {{ draw }} >= 1073741824 then 1 when {{ draw }} >= 0 then 0 end)
{%- endmacro %}
