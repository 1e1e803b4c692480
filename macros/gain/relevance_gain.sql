{#- The gain of one judged item in DCG. Only items with relevance > 0 earn a gain,
    as in trec_eval; `linear` (trec_eval, document 004) or `exponential` (2^rel - 1,
    Burges et al. 2005). -#}
{% macro relevance_gain(relevance, gain='linear') %}
    {%- if gain not in ['linear', 'exponential'] -%}
        {{ exceptions.raise_compiler_error("rankwise.relevance_gain: argument `gain` must be 'linear' or 'exponential'; got '" ~ gain ~ "'.") }}
    {%- endif -%}
    {{- return(adapter.dispatch('relevance_gain', 'rankwise')(relevance, gain)) -}}
{% endmacro %}

{% macro default__relevance_gain(relevance, gain) -%}
    {%- if gain == 'linear' -%}
    (case when ({{ relevance }}) > 0 then cast(({{ relevance }}) as {{ rankwise.type_float64() }}) else 0 end)
    {%- else -%}
    (case when ({{ relevance }}) > 0 then power(cast(2 as {{ rankwise.type_float64() }}), ({{ relevance }})) - 1 else 0 end)
    {%- endif -%}
{%- endmacro %}
