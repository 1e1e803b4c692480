{#- One item group's term of miscalibration (Steck 2018, "Calibrated
    recommendations", equation 5): p * ln(p / q~), q~ = (1 - alpha) * q + alpha * p,
    p the group's share of the user's train items and q its share of the list's
    top-k slots. Summed over the groups where p > 0 it is KL(p || q~) in nats;
    alpha > 0 keeps q~ above 0 where the list has none of the group. -#}
{% macro calibration_term(train_share, list_share, alpha) %}
    {%- do rankwise._number_literal('calibration_term', 'alpha', alpha) -%}
    {%- if not (alpha > 0 and alpha < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.calibration_term: argument `alpha` must be above 0 and below 1 (with 0 a group the list lacks makes the divergence infinite); got " ~ alpha ~ ".") }}
    {%- endif -%}
    {{- return(adapter.dispatch('calibration_term', 'rankwise')(train_share, list_share, alpha)) -}}
{% endmacro %}

{% macro default__calibration_term(train_share, list_share, alpha) -%}
    {%- set float = rankwise.type_float64() -%}
    {%- set alpha = rankwise._number_literal('calibration_term', 'alpha', alpha) -%}
    (cast({{ train_share }} as {{ float }}) * ln(cast({{ train_share }} as {{ float }})
        / ((1e0 - {{ alpha }}) * cast({{ list_share }} as {{ float }}) + {{ alpha }} * cast({{ train_share }} as {{ float }}))))
{%- endmacro %}
