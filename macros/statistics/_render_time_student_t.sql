{#- Student's t distribution evaluated by Jinja while the SQL is rendered
    (with the functions of _render_time_math.sql): its tail, density and
    quantile, for the fits of student_t_quantile.sql. -#}

{#- The continued fraction of the regularized incomplete beta function I_x(a, b),
    by the modified Lentz method (Press et al., Numerical Recipes, 2nd ed., 6.4,
    betacf), run until a term changes it by less than 1e-16 (at most 1000 terms,
    in chunks of 10 so that no empty iteration runs after convergence). -#}
{% macro _math_incomplete_beta_cf(a, b, x) %}
    {%- set tiny = 1e-300 -%}
    {%- set ns = namespace(c=1.0, d=1.0 - (a + b) * x / (a + 1.0), h=0.0, done=false) -%}
    {%- if ns.d | abs < tiny -%}{%- set ns.d = tiny -%}{%- endif -%}
    {%- set ns.d = 1.0 / ns.d -%}
    {%- set ns.h = ns.d -%}
    {%- for chunk in range(100) if not ns.done -%}
        {%- for m in range(10 * chunk + 1, 10 * chunk + 11) if not ns.done -%}
            {%- set even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)) -%}
            {%- set d = 1.0 + even * ns.d -%}
            {%- set c = 1.0 + even / ns.c -%}
            {%- set d = 1.0 / (d if d | abs >= tiny else tiny) -%}
            {%- set c = c if c | abs >= tiny else tiny -%}
            {%- set h = ns.h * d * c -%}
            {%- set odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)) -%}
            {%- set d = 1.0 + odd * d -%}
            {%- set c = 1.0 + odd / c -%}
            {%- set d = 1.0 / (d if d | abs >= tiny else tiny) -%}
            {%- set c = c if c | abs >= tiny else tiny -%}
            {%- set ns.h = h * d * c -%}
            {%- set ns.c = c -%}
            {%- set ns.d = d -%}
            {%- set ns.done = (d * c - 1.0) | abs < 1e-16 -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if not ns.done -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error: the incomplete beta continued fraction did not converge for a=" ~ a ~ ", b=" ~ b ~ ", x=" ~ x ~ ".") }}
    {%- endif -%}
    {{ return(ns.h) }}
{% endmacro %}

{#- ln Gamma((df + 1) / 2) - ln Gamma(df / 2), which the tail and the density of
    Student's t share. -#}
{% macro _math_student_t_log_gamma_ratio(df) %}
    {{ return(rankwise._math_lgamma((df + 1.0) / 2.0) - rankwise._math_lgamma(df / 2.0)) }}
{% endmacro %}

{#- [P(T > t), f(t)]: the upper tail of Student's t with df degrees of freedom at
    t >= 0, and its density there, which share ln(1 + t^2/df). The tail is
    I_x(df/2, 1/2) / 2 with x = df / (df + t^2), through the continued fraction of
    I_x(a, b) or of I_{1-x}(b, a), whichever converges fast (betai).
    log_gamma_ratio: what _math_student_t_log_gamma_ratio returns for df. -#}
{% macro _math_student_t_tail_and_density(t, df, log_gamma_ratio) %}
    {%- set a = df / 2.0 -%}
    {%- set b = 0.5 -%}
    {%- set y = t * t / df -%}
    {%- set log1p_y = rankwise._math_log1p(y) -%}
    {#- ln f(t) = ln Gamma((df+1)/2) - ln Gamma(df/2) - ln(df pi) / 2 - (df+1)/2 ln(1 + y) -#}
    {%- set density = rankwise._math_exp(log_gamma_ratio - 0.5 * rankwise._math_ln(df * 3.141592653589793) - (a + b) * log1p_y) -%}
    {%- if t == 0 -%}
        {{ return([0.5, density]) }}
    {%- endif -%}
    {%- set x = 1.0 / (1.0 + y) -%}
    {%- set one_minus_x = y / (1.0 + y) -%}
    {#- ln(x^a (1 - x)^b / B(a, b)), with ln Gamma(1/2) = ln(sqrt(pi)),
        ln x = -ln(1 + y) and ln(1 - x) = ln y - ln(1 + y) -#}
    {%- set front = rankwise._math_exp(log_gamma_ratio - 0.5723649429247001
        - a * log1p_y + b * (rankwise._math_ln(y) - log1p_y)) -%}
    {%- if x < (a + 1.0) / (a + b + 2.0) -%}
        {{ return([front * rankwise._math_incomplete_beta_cf(a, b, x) / a / 2.0, density]) }}
    {%- else -%}
        {{ return([(1.0 - front * rankwise._math_incomplete_beta_cf(b, a, one_minus_x) / b) / 2.0, density]) }}
    {%- endif -%}
{% endmacro %}

{#- The t > 0 with P(T > t) = upper_tail (0 < upper_tail < 1/2) for df degrees of
    freedom, from a starting value `start` > 0: Newton's method on
    g(v) = ln P(T > e^v) - ln(upper_tail) in v = ln t. g is decreasing and concave
    (its slope -t f(t) / P(T > t) falls from 0 to -df: checked numerically for df
    from 1/2 to 1e4), so Newton's iterates
    converge from any start, from above after the first step; in the tail, where
    P(T > t) ~ c t^-df, g is nearly linear and a few steps suffice. It stops after
    a step that changes t by less than 1e-12 of itself: the next would change it
    by about the square of that, below the rounding of the tail itself. -#}
{% macro _math_student_t_quantile(upper_tail, df, start) %}
    {%- set ratio = rankwise._math_student_t_log_gamma_ratio(df) -%}
    {%- set target = rankwise._math_ln(upper_tail) -%}
    {%- set ns = namespace(v=rankwise._math_ln(start), done=false) -%}
    {%- for _ in range(100) if not ns.done -%}
        {%- set t = rankwise._math_exp(ns.v) -%}
        {%- set tail, density = rankwise._math_student_t_tail_and_density(t, df, ratio) -%}
        {%- set slope = -t * density / tail -%}
        {%- set step = -(rankwise._math_ln(tail) - target) / slope -%}
        {#- a bound on the first steps from a poor start, where g is flat -#}
        {%- set step = [[step, 2.0] | min, -2.0] | max -%}
        {%- set ns.v = ns.v + step -%}
        {%- set ns.done = step | abs <= 1e-12 -%}
    {%- endfor -%}
    {%- if not ns.done -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error: the quantile of Student's t did not converge for upper tail " ~ upper_tail ~ " and df=" ~ df ~ ".") }}
    {%- endif -%}
    {{ return(rankwise._math_exp(ns.v)) }}
{% endmacro %}

{#- A starting value for _math_student_t_quantile: the normal quantile of the
    upper tail q (Abramowitz and Stegun 26.2.23, error below 4.5e-4), widened by
    the first Cornish-Fisher term of Student's t (26.7.5), and kept positive. -#}
{% macro _math_student_t_quantile_start(upper_tail, df) %}
    {%- set w = (-2.0 * rankwise._math_ln(upper_tail)) ** 0.5 -%}
    {%- set z = w - (2.515517 + w * (0.802853 + w * 0.010328)) / (1.0 + w * (1.432788 + w * (0.189269 + w * 0.001308))) -%}
    {{ return([z * (1.0 + (z * z + 1.0) / (4.0 * df)), 1e-3] | max) }}
{% endmacro %}
