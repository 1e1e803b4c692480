{#- The chance that a user stops at an item of relevance g (Chapelle, Metzler,
    Zhang & Grinspan 2009, "Expected reciprocal rank for graded relevance",
    CIKM): R = (2^g - 1) / 2^g_max, g_max the largest relevance;
    0 for g <= 0 or NULL (an item not in the truth). Written as 2^(g - g_max) -
    2^-g_max, so that no power overflows however large g_max is; a power below
    2^-1000 counts 0 (PostgreSQL raises an error where a power underflows). -#}
{% macro err_stop_probability(relevance, max_relevance) %}
    {{- return(adapter.dispatch('err_stop_probability', 'rankwise')(relevance, max_relevance)) -}}
{% endmacro %}

{% macro default__err_stop_probability(relevance, max_relevance) -%}
    (case when ({{ relevance }}) > 0 and ({{ max_relevance }}) > 0
        then {{ rankwise._power_of_two('(' ~ relevance ~ ') - (' ~ max_relevance ~ ')') }} - {{ rankwise._power_of_two('-(' ~ max_relevance ~ ')') }}
        else 0e0 end)
{%- endmacro %}

{#- 1 - R of err_stop_probability, the chance of reading on past the item,
    written as 1 - 2^(g - g_max) + 2^-g_max: exactly 2^-g_max at g = g_max,
    where 1 - R would round to 0 once g_max passes 53. -#}
{% macro _err_continuation(relevance, max_relevance) %}
    {{ return('(case when (' ~ relevance ~ ') > 0 and (' ~ max_relevance ~ ') > 0 then 1e0 - '
              ~ rankwise._power_of_two('(' ~ relevance ~ ') - (' ~ max_relevance ~ ')') ~ ' + '
              ~ rankwise._power_of_two('-(' ~ max_relevance ~ ')') ~ ' else 1e0 end)') }}
{% endmacro %}

{#- 2^x for x <= 0, 0 below 2^-1000. -#}
{% macro _power_of_two(exponent) %}
    {{ return('(case when (' ~ exponent ~ ') < -1e3 then 0e0 else power(2e0, ' ~ exponent ~ ') end)') }}
{% endmacro %}
