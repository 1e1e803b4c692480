{#- The pieces of the power computation of compare's minimum detectable
    difference (stage_detectable.sql): the normal quantile, the Cornish-Fisher
    start, the normal density and erfc's argument, and one Halley step. -#}

{#- The normal quantile of upper tail `p` (below 1/2): Acklam's rational
    approximation, relative error 1.2e-9, its lower region below 0.02425 and
    its central one above. -#}
{% macro _normal_upper_quantile(p) %}
    {%- set low = 'sqrt(-2 * ln(' ~ p ~ '))' -%}
    {%- set central = '(' ~ p ~ ' - 5e-1)' -%}
    {%- set squared = '(' ~ central ~ ' * ' ~ central ~ ')' -%}
    {{ return('(case when ' ~ p ~ ' < 0.02425e0 then '
        ~ '-((((((-7.784894002430293e-03 * ' ~ low ~ ' - 3.223964580411365e-01) * ' ~ low ~ ' - 2.400758277161838e+00) * ' ~ low
        ~ ' - 2.549732539343734e+00) * ' ~ low ~ ' + 4.374664141464968e+00) * ' ~ low ~ ' + 2.938163982698783e+00)'
        ~ ' / ((((7.784695709041462e-03 * ' ~ low ~ ' + 3.224671290700398e-01) * ' ~ low ~ ' + 2.445134137142996e+00) * ' ~ low
        ~ ' + 3.754408661907416e+00) * ' ~ low ~ ' + 1))'
        ~ ' else -((((((-3.969683028665376e+01 * ' ~ squared ~ ' + 2.209460984245205e+02) * ' ~ squared ~ ' - 2.759285104469687e+02) * '
        ~ squared ~ ' + 1.383577518672690e+02) * ' ~ squared ~ ' - 3.066479806614716e+01) * ' ~ squared ~ ' + 2.506628277459239e+00) * '
        ~ central ~ ' / (((((-5.447609879822406e+01 * ' ~ squared ~ ' + 1.615858368580409e+02) * ' ~ squared ~ ' - 1.556989798598866e+02) * '
        ~ squared ~ ' + 6.680131188771972e+01) * ' ~ squared ~ ' - 1.328068155288572e+01) * ' ~ squared ~ ' + 1)) end)') }}
{% endmacro %}

{#- The t quantile from the normal one `z` (a column) with `df` degrees of
    freedom: the Cornish-Fisher expansion in 1/df to its fourth term
    (Abramowitz and Stegun 26.7.5), z + g1/df + g2/df^2 + g3/df^3 + g4/df^4.
    Poor below 5 degrees of freedom, where the steps of Halley's method make
    up for it. -#}
{% macro _cornish_fisher(z, df) %}
    {%- set z2 = '(' ~ z ~ ' * ' ~ z ~ ')' -%}
    {{ return('(' ~ z ~ ' * (1 + ((' ~ z2 ~ ' + 1) / 4 + ((5 * ' ~ z2 ~ ' + 16) * ' ~ z2 ~ ' + 3) / 96 / ' ~ df
              ~ ' + (((3 * ' ~ z2 ~ ' + 19) * ' ~ z2 ~ ' + 17) * ' ~ z2 ~ ' - 15) / 384 / (' ~ df ~ ' * ' ~ df ~ ')'
              ~ ' + ((((79 * ' ~ z2 ~ ' + 776) * ' ~ z2 ~ ' + 1482) * ' ~ z2 ~ ' - 1920) * ' ~ z2 ~ ' - 945) / 92160 / (' ~ df ~ ' * ' ~ df ~ ' * ' ~ df ~ ')) / '
              ~ df ~ '))') }}
{% endmacro %}

{#- phi(x), the standard normal density; the exponent held above -700 (an
    underflow is an error on PostgreSQL). -#}
{% macro _normal_density(x) %}
    {{ return('(exp(greatest(-(' ~ x ~ ') * (' ~ x ~ ') / 2, -7e2)) * 0.3989422804014327e0)') }}
{% endmacro %}

{#- |x| / sqrt(2), held where _erfc_of_nonnegative needs it: the tail of the
    standard normal beyond |x| is erfc of this / 2 (relative error below
    1.2e-7). -#}
{% macro _erfc_argument(x) %}
    {{ return('least(greatest(abs(' ~ x ~ '), 1e-100), 40) * 0.7071067811865476e0') }}
{% endmacro %}

{#- A step of Halley's method from f and its first two derivatives: Newton's
    step -f/f' divided by 1 - f f'' / (2 f'^2) where that correction is small
    (|f f''| <= f'^2), else by 1 (Newton's step, exactly). -#}
{% macro _halley_step(f, f1, f2) %}
    {{ return('(-' ~ f ~ ' / ' ~ f1 ~ ' / (case when abs(' ~ f ~ ' * ' ~ f2 ~ ') <= ' ~ f1 ~ ' * ' ~ f1 ~ ' then 1 - ' ~ f ~ ' * ' ~ f2
              ~ ' / (2 * ' ~ f1 ~ ' * ' ~ f1 ~ ') else 1 end))') }}
{% endmacro %}
