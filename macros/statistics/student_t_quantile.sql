{#- The p-quantile of Student's t distribution with `df` degrees of freedom, the t
    with P(T <= t) = p: for a two-sided confidence interval at level c, p = (1 + c) / 2.
    `df` is a SQL expression (a column: n - 1 per row); `p` is a number known when
    the SQL is rendered. NULL when df is NULL or below 1.

    No engine has this function, and the closed forms (Hill, Comm. ACM 13(10), 1970,
    algorithm 396) are accurate to about 1e-5 only below 10 degrees of freedom; the
    usual remedy, Newton steps on the distribution function, would repeat that
    function's SQL in every step. Instead, for the fixed p, the quantile as a
    function of u = 1/df is smooth enough to be a polynomial: ln t_p(1/u) is
    interpolated at Chebyshev points of u in [0, 1/4] (df >= 4, up to the normal
    limit at u = 0) and of u in [1/4, 1] (1 <= df <= 4), from quantiles computed
    while rendering (see _render_time_math.sql). The SQL is then exp(polynomial in
    1/df): a few hundred characters, no function beyond exp. Accuracy against
    scipy.stats.t.ppf: docs/statistics.md. -#}
{% macro student_t_quantile(p, df) %}
    {%- if not (p is number and p is not boolean and p > 0 and p < 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.student_t_quantile: argument `p` must be a number strictly between 0 and 1, known when the SQL is rendered (for a confidence interval at level c, (1 + c) / 2, such as 0.975); got " ~ rankwise._describe(p) ~ ".") }}
    {%- endif -%}
    {%- set df_sql = rankwise._sql_operand('student_t_quantile', 'df', df) -%}
    {{- return(adapter.dispatch('student_t_quantile', 'rankwise')(p, df_sql)) -}}
{% endmacro %}

{% macro default__student_t_quantile(p, df) -%}
    {%- set float = rankwise.type_float64() -%}
    {{- rankwise._bound('cast(' ~ df ~ ' as ' ~ float ~ ')', 'rw_bound_df', rankwise._student_t_quantile_of(p, 'rw_bound_df')) -}}
{%- endmacro %}

{#- The quantile for `degrees`, a SQL expression of a 64-bit float (a column
    such as rw_df), one Horner step of the polynomial a line. Each piece's
    polynomial is in its own variable of 1/degrees (_student_t_quantile_variables),
    written out, or read from a column when `variables` names one per piece.
    With `whole_degrees` (degrees an integer, as n - 1 is), the degrees below
    the last piece's (1, 2, 3) take their quantile as a literal, computed when
    the SQL is rendered, in place of that piece's polynomial. -#}
{% macro _student_t_quantile_of(p, degrees, variables=none, whole_degrees=false) %}
    {%- if p == 0.5 -%}
        {{ return('(case when ' ~ degrees ~ ' >= 1 then 0e0 end)') }}
    {%- endif -%}
    {#- the quantile of p < 1/2 is minus that of 1 - p -#}
    {%- set upper_tail = 1.0 - p if p > 0.5 else p -%}
    {%- set sign = '-' if p < 0.5 else '' -%}
    {#- the pieces are the fit computed while rendering, the render's costliest step: once -#}
    {%- set pieces = rankwise._student_t_quantile_pieces(upper_tail) -%}
    {%- set written = variables if variables is not none else rankwise._student_t_quantile_variables(p, degrees, pieces) -%}
    {%- set terms = [] -%}
    {%- for piece in (pieces[:1] if whole_degrees else pieces) -%}
        {%- set w = written[loop.index0] -%}
        {%- set steps = [] -%}
        {%- for coefficient in piece.coefficients[:-1] -%}
            {%- do steps.append(rankwise._double_literal(coefficient) ~ ' + ' ~ w ~ ' * (') -%}
        {%- endfor -%}
        {%- do terms.append('when ' ~ degrees ~ ' >= ' ~ rankwise._double_literal(1.0 / piece.high) ~ ' then ' ~ sign ~ 'exp(\n    '
            ~ steps | join('\n    ') ~ '\n    ' ~ rankwise._double_literal(piece.coefficients[-1]) ~ ')' * (steps | length + 1)) -%}
    {%- endfor -%}
    {%- if whole_degrees -%}
        {%- for quantile in rankwise._student_t_whole_degree_quantiles(upper_tail, (1.0 / pieces[0].high) | int) -%}
            {%- do terms.append('when ' ~ degrees ~ ' = ' ~ loop.index ~ ' then ' ~ rankwise._double_literal(quantile * (-1 if p < 0.5 else 1))) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return('(case\n' ~ terms | join('\n') ~ '\nend)') }}
{% endmacro %}

{#- The upper-tail quantiles of Student's t for 1, 2, ..., below - 1 degrees
    of freedom, computed when the SQL is rendered. -#}
{% macro _student_t_whole_degree_quantiles(upper_tail, below) %}
    {%- set quantiles = [] -%}
    {%- for df in range(1, below) -%}
        {%- do quantiles.append(rankwise._math_student_t_quantile(upper_tail, df * 1.0, rankwise._math_student_t_quantile_start(upper_tail, df * 1.0))) -%}
    {%- endfor -%}
    {{ return(quantiles) }}
{% endmacro %}

{#- The variable of each piece's polynomial, (2u - (low + high)) / (high - low)
    with u = 1 / `degrees`, as SQL; `pieces` the quantile's when computed already. -#}
{% macro _student_t_quantile_variables(p, degrees, pieces=none) %}
    {%- set variables = [] -%}
    {%- for piece in (pieces if pieces is not none else rankwise._student_t_quantile_pieces(1.0 - p if p > 0.5 else p)) if p != 0.5 -%}
        {%- do variables.append('(' ~ rankwise._double_literal(2.0 / (piece.high - piece.low)) ~ ' / ' ~ degrees ~ ' - '
            ~ rankwise._double_literal((piece.high + piece.low) / (piece.high - piece.low)) ~ ')') -%}
    {%- endfor -%}
    {{ return(variables) }}
{% endmacro %}

{#- For the upper tail q = P(T > t) in (0, 1/2): the polynomials in
    w = (2u - (low + high)) / (high - low), u = 1/df, that give ln t on each piece,
    as [{low, high, coefficients}], the piece of the larger df first. Nodes per
    piece: enough for 1e-10 relative error up to p = 0.9999 (measured in
    tests/crosscheck/test_statistics_macros.py). -#}
{% macro _student_t_quantile_pieces(upper_tail) %}
    {%- set known = rankwise._student_t_quantile_fits() -%}
    {{- return(known[upper_tail] if upper_tail in known else rankwise._student_t_quantile_fit(upper_tail)) -}}
{% endmacro %}

{#- The pieces of _student_t_quantile_pieces, computed. -#}
{% macro _student_t_quantile_fit(upper_tail) %}
    {%- set pieces = [] -%}
    {%- set ns = namespace(start=none) -%}
    {%- for low, high, n in [(0.0, 0.25, 16), (0.25, 1.0, 20)] -%}
        {%- set points = rankwise._math_chebyshev_points(low, high, n) -%}
        {%- set log_quantiles = [] -%}
        {#- from the smallest u (the largest df) up, each solve starting from the
            quantile at the previous point, so that a few Newton steps do -#}
        {%- for u in points | reverse -%}
            {%- set df = 1.0 / u -%}
            {%- if ns.start is none -%}
                {%- set ns.start = rankwise._math_student_t_quantile_start(upper_tail, df) -%}
            {%- endif -%}
            {%- set ns.start = rankwise._math_student_t_quantile(upper_tail, df, ns.start) -%}
            {%- do log_quantiles.append(rankwise._math_ln(ns.start)) -%}
        {%- endfor -%}
        {%- do pieces.append({'low': low, 'high': high,
                              'coefficients': rankwise._math_chebyshev_fit(log_quantiles | reverse | list)}) -%}
    {%- endfor -%}
    {{ return(pieces) }}
{% endmacro %}
