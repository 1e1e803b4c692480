{#- Floating point functions evaluated by Jinja while the SQL is rendered, for the
    numbers that depend only on constants known then (a quantile's probability).
    dbt's Jinja context has no math module, so ln, exp and cos are written here
    with + - * / and ** only. Each is accurate to a few units in the last place;
    tests/crosscheck/test_statistics_macros.py checks them against Python's math and
    scipy. None of this text reaches the SQL: these macros return numbers. -#}

{#- Natural logarithm of x > 0: x = m * 2^k with m in [sqrt(1/2), sqrt(2)], then
    ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, as a series in s^2. -#}
{% macro _math_ln(x) %}
    {%- if not (x > 0) -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error: the logarithm of " ~ x ~ " was asked for.") }}
    {%- endif -%}
    {#- halvings and doublings by 2^512, ..., 2^1, unrolled: a loop would carry m
        and k in a namespace, whose every access goes through the sandbox -#}
    {%- set m, k = (x * 1.0, 0) -%}
    {%- set m, k = (m / 2.0 ** 512, k + 512) if m >= 2.0 ** 512 else (m * 2.0 ** 512, k - 512) if m < 1.0 and m * 2.0 ** 512 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 256, k + 256) if m >= 2.0 ** 256 else (m * 2.0 ** 256, k - 256) if m < 1.0 and m * 2.0 ** 256 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 128, k + 128) if m >= 2.0 ** 128 else (m * 2.0 ** 128, k - 128) if m < 1.0 and m * 2.0 ** 128 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 64, k + 64) if m >= 2.0 ** 64 else (m * 2.0 ** 64, k - 64) if m < 1.0 and m * 2.0 ** 64 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 32, k + 32) if m >= 2.0 ** 32 else (m * 2.0 ** 32, k - 32) if m < 1.0 and m * 2.0 ** 32 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 16, k + 16) if m >= 2.0 ** 16 else (m * 2.0 ** 16, k - 16) if m < 1.0 and m * 2.0 ** 16 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 8, k + 8) if m >= 2.0 ** 8 else (m * 2.0 ** 8, k - 8) if m < 1.0 and m * 2.0 ** 8 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 4, k + 4) if m >= 2.0 ** 4 else (m * 2.0 ** 4, k - 4) if m < 1.0 and m * 2.0 ** 4 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 2, k + 2) if m >= 2.0 ** 2 else (m * 2.0 ** 2, k - 2) if m < 1.0 and m * 2.0 ** 2 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0 ** 1, k + 1) if m >= 2.0 ** 1 else (m * 2.0 ** 1, k - 1) if m < 1.0 and m * 2.0 ** 1 < 2.0 else (m, k) -%}
    {%- set m, k = (m / 2.0, k + 1) if m > 1.4142135623730951 else (m, k) -%}
    {%- set s = (m - 1.0) / (m + 1.0) -%}
    {%- set q = s * s -%}
    {#- q <= 0.0295: the terms after q^13 / 27 are below 1e-21 -#}
    {%- set total = s * (1 + q * (1 / 3 + q * (1 / 5 + q * (1 / 7 + q * (1 / 9 + q * (1 / 11 + q * (1 / 13
        + q * (1 / 15 + q * (1 / 17 + q * (1 / 19 + q * (1 / 21 + q * (1 / 23 + q * (1 / 25 + q / 27))))))))))))) -%}
    {{ return(k * 0.6931471805599453 + 2.0 * total) }}
{% endmacro %}

{#- ln(1 + y) for y > -1, accurate when y is tiny (where 1 + y would round):
    2 atanh(s) with s = y / (2 + y) by its series when |y| < 1/2 (|s| < 1/3). -#}
{% macro _math_log1p(y) %}
    {%- if y | abs >= 0.5 -%}
        {{ return(rankwise._math_ln(1.0 + y)) }}
    {%- endif -%}
    {%- set s = y / (2.0 + y) -%}
    {%- set q = s * s -%}
    {#- q < 1/9: the terms after q^16 / 33 are below 1e-18 of the first -#}
    {%- set total = s * (1 + q * (1 / 3 + q * (1 / 5 + q * (1 / 7 + q * (1 / 9 + q * (1 / 11 + q * (1 / 13
        + q * (1 / 15 + q * (1 / 17 + q * (1 / 19 + q * (1 / 21 + q * (1 / 23 + q * (1 / 25 + q * (1 / 27 + q * (1 / 29
        + q * (1 / 31 + q / 33)))))))))))))))) -%}
    {{ return(2.0 * total) }}
{% endmacro %}

{#- e^x: x = k ln 2 + r with |r| <= ln(2) / 2 (ln 2 split in two parts, as in
    Cody and Waite, so that k ln 2 is exact), then the Taylor series of e^r. -#}
{% macro _math_exp(x) %}
    {%- if x < -745.2 -%}
        {{ return(0.0) }}
    {%- endif -%}
    {%- if x > 709.7 -%}
        {{ exceptions.raise_compiler_error("rankwise: internal error: e^" ~ x ~ " overflows.") }}
    {%- endif -%}
    {%- set k = (x / 0.6931471805599453) | round | int -%}
    {%- set r = (x - k * 0.693147180369123816490) - k * 1.90821492927058770002e-10 -%}
    {#- |r| <= 0.347: the terms after r^16 / 16! are below 1e-21 -#}
    {%- set total = 1 + r * (1 + r / 2 * (1 + r / 3 * (1 + r / 4 * (1 + r / 5 * (1 + r / 6 * (1 + r / 7
        * (1 + r / 8 * (1 + r / 9 * (1 + r / 10 * (1 + r / 11 * (1 + r / 12 * (1 + r / 13 * (1 + r / 14 * (1 + r / 15
        * (1 + r / 16))))))))))))))) -%}
    {{ return(total * 2.0 ** k) }}
{% endmacro %}

{#- cos(x) for 0 <= x <= pi, by its Taylor series on [0, pi/2]. -#}
{% macro _math_cos(x) %}
    {%- set pi = 3.141592653589793 -%}
    {%- if x > pi / 2 -%}
        {{ return(-rankwise._math_cos(pi - x)) }}
    {%- endif -%}
    {%- set q = x * x -%}
    {#- q <= 2.47: the terms after q^13 / 26! are below 1e-21 -#}
    {%- set total = 1 - q / 2 * (1 - q / 12 * (1 - q / 30 * (1 - q / 56 * (1 - q / 90 * (1 - q / 132
        * (1 - q / 182 * (1 - q / 240 * (1 - q / 306 * (1 - q / 380 * (1 - q / 462 * (1 - q / 552
        * (1 - q / 650)))))))))))) -%}
    {{ return(total) }}
{% endmacro %}

{#- ln Gamma(x) for x > 0: Stirling's series at z = x + k >= 10, then
    ln Gamma(x) = ln Gamma(x + k) - ln(x (x + 1) ... (x + k - 1)) (for x >= 1e-300;
    the shift is unrolled, as in _math_ln). -#}
{% macro _math_lgamma(x) %}
    {%- set z, product = (x * 1.0, 1.0) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set z, product = (z + 1.0, product * z) if z < 10.0 else (z, product) -%}
    {%- set inverse_square = 1.0 / (z * z) -%}
    {%- set series = (1.0 / 12.0 + inverse_square * (-1.0 / 360.0 + inverse_square * (1.0 / 1260.0
        + inverse_square * (-1.0 / 1680.0 + inverse_square * (1.0 / 1188.0 + inverse_square * (-691.0 / 360360.0
        + inverse_square * (1.0 / 156.0))))))) / z -%}
    {%- set stirling = (z - 0.5) * rankwise._math_ln(z) - z + 0.9189385332046728 + series -%}
    {{ return(stirling - rankwise._math_ln(product)) }}
{% endmacro %}

{#- The n Chebyshev points of [low, high]: mid + half cos(pi (j + 1/2) / n). -#}
{% macro _math_chebyshev_points(low, high, n) %}
    {%- set points = [] -%}
    {%- for j in range(n) -%}
        {%- do points.append((low + high) / 2.0 + (high - low) / 2.0 * rankwise._math_cos(3.141592653589793 * (j + 0.5) / n)) -%}
    {%- endfor -%}
    {{ return(points) }}
{% endmacro %}

{#- The polynomial of degree n - 1 through the n values of a function at the
    points that _math_chebyshev_points returns, in that order, as its coefficients
    [c_0, ..., c_{n-1}] in w = (u - mid) / half, which runs over [-1, 1]: the
    function is about c_0 + w (c_1 + w (c_2 + ...)). First the Chebyshev
    coefficients a_k = (2 / n) sum_j f_j T_k(w_j) (Press et al., Numerical
    Recipes, 5.8, chebft; a_0 halved), then sum_k a_k T_k(w) rewritten in powers
    of w (5.10, chebpc), well conditioned on [-1, 1] when the a_k fall off as fast as
    they do here. -#}
{% macro _math_chebyshev_fit(values) %}
    {%- set n = values | length -%}
    {%- set nodes = [] -%}
    {%- for j in range(n) -%}
        {%- do nodes.append(rankwise._math_cos(3.141592653589793 * (j + 0.5) / n)) -%}
    {%- endfor -%}
    {#- T_k at the nodes, by T_{k+1}(w) = 2 w T_k(w) - T_{k-1}(w) -#}
    {%- set at_nodes = [[], nodes] -%}
    {%- for j in range(n) -%}{%- do at_nodes[0].append(1.0) -%}{%- endfor -%}
    {%- for k in range(2, n) -%}
        {%- set row = [] -%}
        {%- for j in range(n) -%}
            {%- do row.append(2.0 * nodes[j] * at_nodes[k - 1][j] - at_nodes[k - 2][j]) -%}
        {%- endfor -%}
        {%- do at_nodes.append(row) -%}
    {%- endfor -%}
    {#- T_k in powers of w, by the same recurrence on coefficient lists -#}
    {%- set in_powers = [[1.0], [0.0, 1.0]] -%}
    {%- for k in range(2, n) -%}
        {%- set row = [] -%}
        {%- for i in range(k + 1) -%}
            {%- set shifted = 2.0 * in_powers[k - 1][i - 1] if i >= 1 else 0.0 -%}
            {%- set older = in_powers[k - 2][i] if i <= k - 2 else 0.0 -%}
            {%- do row.append(shifted - older) -%}
        {%- endfor -%}
        {%- do in_powers.append(row) -%}
    {%- endfor -%}
    {%- set chebyshev = [] -%}
    {%- for k in range(n) -%}
        {%- set ns = namespace(total=0.0) -%}
        {%- for j in range(n) -%}
            {%- set ns.total = ns.total + values[j] * at_nodes[k][j] -%}
        {%- endfor -%}
        {%- do chebyshev.append(ns.total * (1.0 if k == 0 else 2.0) / n) -%}
    {%- endfor -%}
    {%- set monomials = [] -%}
    {%- for i in range(n) -%}
        {%- set ns = namespace(total=0.0) -%}
        {%- for k in range(i, n) -%}
            {%- set ns.total = ns.total + chebyshev[k] * in_powers[k][i] -%}
        {%- endfor -%}
        {%- do monomials.append(ns.total) -%}
    {%- endfor -%}
    {{ return(monomials) }}
{% endmacro %}
