{#- Two-sided p-value of a standard normal statistic z: P(|Z| >= |z|) = erfc(|z| / sqrt(2)).
    No engine has erfc; this is the Chebyshev fit of Press et al., Numerical
    Recipes (2nd ed., 1992, 6.2, erfcc), relative error below 1.2e-7 for every z,
    so that tiny p-values keep their digits. NULL when z is NULL. -#}
{% macro normal_two_sided_p(z) %}
    {%- set z_sql = rankwise._sql_operand('normal_two_sided_p', 'z', z) -%}
    {{- return(adapter.dispatch('normal_two_sided_p', 'rankwise')(z_sql)) -}}
{% endmacro %}

{#- |z| is held in [1e-100, 40]: p is 1 below and under 1e-300 above, and
    _erfc_of_nonnegative needs its argument there. greatest() and least() skip a
    NULL, hence the CASE. -#}
{% macro default__normal_two_sided_p(z) -%}
    (case when {{ z }} is not null then {{ rankwise._erfc_of_nonnegative('least(greatest(abs(cast(' ~ z ~ ' as ' ~ rankwise.type_float64() ~ ')), 1e-100), 40) * 0.7071067811865476e0') }} end)
{%- endmacro %}

{#- erfc(x) for 1e-140 <= x <= 1e5 (NULL stays NULL): t exp(-x^2 + P(t)) with
    t = 1 / (1 + x/2) (erfcc). PostgreSQL raises an error where exp(), a power or a
    product underflows to 0: the exponent is held above -700, and within those
    bounds of x neither x^2 nor t times e^-700 underflows; an erfc below about
    1e-304 (x > 26.4) comes out between 1e-309 and 1e-304. x appears eleven times
    in the text. -#}
{% macro _erfc_of_nonnegative(x, t=none) %}
    {#- `t`: 1 / (1 + x/2) when the caller has it as a column, so that the text
        repeats a column, not the expression of x -#}
    {%- set t = '(1e0 / (1e0 + 5e-1 * ' ~ x ~ '))' if t is none else t -%}
    {%- set ns = namespace(polynomial='1.7087277e-01') -%}
    {%- for coefficient in ['-1.26551223e+00', '1.00002368e+00', '3.7409196e-01', '9.678418e-02', '-1.8628806e-01',
                            '2.7886807e-01', '-1.13520398e+00', '1.48851587e+00', '-8.2215223e-01'] | reverse -%}
        {%- set ns.polynomial = '(' ~ coefficient ~ ') + ' ~ t ~ ' * (' ~ ns.polynomial ~ ')' -%}
    {%- endfor -%}
    {{ return('(' ~ t ~ ' * exp(greatest(-power(' ~ x ~ ', 2) + ' ~ ns.polynomial ~ ', -7e2)))') }}
{% endmacro %}
