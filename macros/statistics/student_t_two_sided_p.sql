{#- Two-sided p-value of Student's t statistic `t` with `df` degrees of freedom,
    P(|T| >= |t|), as scipy.stats.t.sf(abs(t), df) * 2: the p-value of a paired
    or one-sample t test. Both arguments are SQL expressions (columns; df need not
    be an integer). NULL when t or df is NULL or df is below 1.

    No engine has Student's t distribution; this is built from + - * /, ln, exp,
    power, sqrt, greatest, least and CASE, in three regimes:
    - df < 10: p = I_x(df/2, 1/2) with x = df / (df + t^2), the regularized
      incomplete beta function, by its continued fraction (Press et al., Numerical
      Recipes, 2nd ed., 6.4, betai and betacf) cut after a fixed 17 terms, or by
      the fraction of I_{1-x}(1/2, df/2) = 1 - p where that converges faster;
    - 10 <= df < 1e8: Hill's normalizing transformation of t into a standard
      normal z (Comm. ACM 13(10), 1970, algorithm 395), then the normal tail
      (normal_two_sided_p's erfc);
    - df >= 1e8: the normal tail of t itself.
    Accuracy against scipy and the choice of the cut-offs: docs/statistics.md.
    The arguments appear many times in the text (about 18 kB in all with short
    column names; once each on Spark, _bound.sql): pass columns, not long
    expressions. A stage of the package computes the variables once each, as
    columns, instead (_student_t_p_columns below). -#}
{% macro student_t_two_sided_p(t, df) %}
    {%- set t_sql = rankwise._sql_operand('student_t_two_sided_p', 't', t) -%}
    {%- set df_sql = rankwise._sql_operand('student_t_two_sided_p', 'df', df) -%}
    {{- return(adapter.dispatch('student_t_two_sided_p', 'rankwise')(t_sql, df_sql)) -}}
{% endmacro %}

{% macro default__student_t_two_sided_p(t, df) -%}
    {%- set float = rankwise.type_float64() -%}
    {%- set cut = rankwise._student_t_p_cutoffs() -%}
    {%- set t_float, degrees = 'rw_bound_t', 'rw_bound_df' -%}
    {%- set squared = 'power(' ~ t_float ~ ', 2)' -%}
    {%- set ratio = '(' ~ squared ~ ' / ' ~ degrees ~ ')' -%}
    {%- set b = '(48 * power((' ~ degrees ~ ' - 0.5e0), 2))' -%}
    {%- set y = '((' ~ degrees ~ ' - 0.5e0) * ln(1e0 + ' ~ ratio ~ '))' -%}
    {%- set hill_tail = rankwise._bound(rankwise._student_t_hill_z(y, b), 'rw_bound_z', rankwise._erfc_of_nonnegative('rw_bound_z * 0.7071067811865476e0')) -%}
    {#- CASE evaluates a branch only for the rows that reach it -#}
    {%- set p_value -%}
    (case
        {{ rankwise._student_t_p_trivial_cases(t_float, degrees) }}
        when {{ degrees }} >= {{ cut.normal }} then {{ rankwise._erfc_of_nonnegative('least(abs(' ~ t_float ~ '), 40) * 0.7071067811865476e0') }}
        when {{ degrees }} >= {{ cut.hill }} then (case when {{ ratio }} < {{ cut.small_ratio }} then {{ rankwise._student_t_p_of_small_ratio(ratio, b, degrees) }} else {{ hill_tail }} end)
        else {{ rankwise._student_t_p_by_continued_fraction(squared, degrees) }}
    end)
    {%- endset -%}
    {{ rankwise._bound('cast(' ~ t ~ ' as ' ~ float ~ ')', t_float, rankwise._bound('cast(' ~ df ~ ' as ' ~ float ~ ')', degrees, p_value)) }}
{%- endmacro %}

{#- The bounds of the three regimes, and of t: outside 1e-100 <= |t| <= 1e50
    the p-value is 1 or 0 to double precision for every df >= 1; inside,
    neither t^2 nor a product of it overflows or underflows (an error on
    PostgreSQL). From 1e8 degrees of freedom on, t is normal to within 3e-9 in
    p. Where t^2/df < 9e-10, 1 + t^2/df would round (_student_t_p_of_small_ratio). -#}
{% macro _student_t_p_cutoffs() %}
    {{ return({'smallest': '1e-100', 'largest': '1e50', 'normal': '1e8', 'hill': '10', 'small_ratio': '9e-10'}) }}
{% endmacro %}

{#- The first branches of the p-value's CASE: NULL, and t beyond its bounds. -#}
{% macro _student_t_p_trivial_cases(t, df) %}
    {%- set cut = rankwise._student_t_p_cutoffs() -%}
    {{ return('when ' ~ t ~ ' is null or ' ~ df ~ ' is null or ' ~ df ~ ' < 1 then null\n'
              ~ '        when abs(' ~ t ~ ') < ' ~ cut.smallest ~ ' then 1e0\n'
              ~ '        when abs(' ~ t ~ ') > ' ~ cut.largest ~ ' then 0e0') }}
{% endmacro %}

{#- The staged form, for a stage with t and df as 64-bit float columns: the
    p-value's variables computed once each, as columns of two layers of
    selects (_student_t_p_columns), and the p-value reading them
    (_student_t_p_staged), where the expression above writes each in place
    every time it is read (about 18 kB). The first layer reads t and df, the
    second the first. -#}
{% macro _student_t_p_layers() %}
    {{ return([['squared', 'hill_b', 'ratio', 'hill_y'], ['erfc_x', 'erfc_t']]) }}
{% endmacro %}

{#- What each layer of _student_t_p_layers holds, for the SQL's comments. -#}
{% macro _student_t_p_layer_contents() %}
    {{ return(["t^2, t^2/df and Hill's b and y", "the x and 1/(1 + x/2) of the normal tail's erfc"]) }}
{% endmacro %}

{#- The SQL of the staged variable `name` from `v`, the SQL of t, df and of
    the variables it reads. Each is NULL outside the rows of the branch that
    reads it, under a CASE (not an AND, whose operands an engine may evaluate
    in any order): a stage computes it for every row, and PostgreSQL and Spark
    (ANSI mode) raise on an overflow, a division by zero or the ln of 0 even
    where a later CASE would not read the value. -#}
{% macro _student_t_p_variable(name, v) %}
    {%- set cut = rankwise._student_t_p_cutoffs() -%}
    {%- set in_range = 'abs(' ~ v.t ~ ') between ' ~ cut.smallest ~ ' and ' ~ cut.largest -%}
    {%- set hill = v.df ~ ' >= ' ~ cut.hill ~ ' and ' ~ v.df ~ ' < ' ~ cut.normal -%}
    {%- set ratio = 'power(' ~ v.t ~ ', 2) / ' ~ v.df -%}
    {%- if name == 'squared' -%}
        {{ return('case when ' ~ v.df ~ ' >= 1 and ' ~ in_range ~ ' then power(' ~ v.t ~ ', 2) end') }}
    {%- elif name == 'hill_b' -%}
        {{ return('case when ' ~ hill ~ ' then 48 * power(' ~ v.df ~ ' - 0.5e0, 2) end') }}
    {%- elif name == 'ratio' -%}
        {{ return('case when ' ~ hill ~ ' and ' ~ in_range ~ ' then ' ~ ratio ~ ' end') }}
    {%- elif name == 'hill_y' -%}
        {{ return('case when ' ~ hill ~ ' and ' ~ in_range ~ ' then (case when ' ~ ratio ~ ' >= ' ~ cut.small_ratio ~ ' then ('
                  ~ v.df ~ ' - 0.5e0) * ln(1e0 + ' ~ ratio ~ ') end) end') }}
    {%- elif name == 'erfc_x' -%}
        {#- |z| / sqrt(2) of the normal tail: z is t itself, or Hill's z -#}
        {{ return('case when ' ~ v.df ~ ' >= ' ~ cut.normal ~ ' and ' ~ v.squared ~ ' is not null then least(abs(' ~ v.t ~ '), 40) * 0.7071067811865476e0 when '
                  ~ v.hill_y ~ ' is not null then ' ~ rankwise._student_t_hill_z(v.hill_y, v.hill_b) ~ ' * 0.7071067811865476e0 end') }}
    {%- elif name == 'erfc_t' -%}
        {#- the erfc's 1 / (1 + x/2), in the layer of x: one select fewer -#}
        {{ return('1e0 / (1e0 + 5e-1 * (' ~ rankwise._student_t_p_variable('erfc_x', v) ~ '))') }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error('rankwise._student_t_p_variable: no variable ' ~ name) }}
{% endmacro %}

{#- The staged variables as columns named `prefix`_<variable>, of layers of
    selects each over the one before, all under `alias`; the first reads `t`
    and `df`, columns of `alias`: [[(column, SQL), ...] per layer]. -#}
{% macro _student_t_p_columns(t, df, prefix, alias) %}
    {%- set v = rankwise._student_t_p_names(t, df, prefix, alias) -%}
    {%- set layers = [] -%}
    {%- for layer in rankwise._student_t_p_layers() -%}
        {%- set columns = [] -%}
        {%- for name in layer -%}
            {%- do columns.append((prefix ~ '_' ~ name, rankwise._student_t_p_variable(name, v))) -%}
        {%- endfor -%}
        {%- do layers.append(columns) -%}
    {%- endfor -%}
    {{ return(layers) }}
{% endmacro %}

{#- The p-value from the columns of _student_t_p_columns. -#}
{% macro _student_t_p_staged(t, df, prefix, alias) %}
    {%- set v = rankwise._student_t_p_names(t, df, prefix, alias) -%}
    {{ return('(case\n'
        ~ '        ' ~ rankwise._student_t_p_trivial_cases(v.t, v.df) ~ '\n'
        ~ '        when ' ~ v.erfc_x ~ ' is not null then ' ~ rankwise._erfc_of_nonnegative(v.erfc_x, v.erfc_t) ~ '\n'
        ~ '        when ' ~ v.df ~ ' >= ' ~ rankwise._student_t_p_cutoffs().hill ~ ' then '
        ~ rankwise._student_t_p_of_small_ratio(v.ratio, v.hill_b, v.df) ~ '\n'
        ~ '        else ' ~ rankwise._student_t_p_by_continued_fraction(v.squared, v.df) ~ '\n'
        ~ '    end)') }}
{% endmacro %}

{% macro _student_t_p_names(t, df, prefix, alias) %}
    {%- set v = {'t': alias ~ '.' ~ t, 'df': alias ~ '.' ~ df} -%}
    {%- for layer in rankwise._student_t_p_layers() -%}
        {%- for name in layer -%}
            {%- do v.update({name: alias ~ '.' ~ prefix ~ '_' ~ name}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(v) }}
{% endmacro %}

{#- df in [1, 10): I_x(a, b), a = df/2, b = 1/2, x = df / (df + t^2), is
    x^a (1-x)^b / (a B(a, b)) times the continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...)))
    with d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and
    d_{2m} = m(b-m) x / ((a+2m-1)(a+2m)) (betacf). It converges fast for
    x < (a+1)/(a+b+2), that is t^2 (df + 2) > 3 df; elsewhere the same fraction of
    I_{1-x}(b, a) gives 1 - p. Each fraction is cut after d_17 and evaluated from
    its last term up (the same convergent Lentz's method reaches from the first),
    which is one nested expression. Dividing each d_j and the denominator under it
    by x (an equivalence transformation) leaves x only in every other denominator,
    as 1/x, which halves the text. -#}
{% macro _student_t_p_by_continued_fraction(t_squared, df) %}
    {%- set terms = 8 -%}
    {#- the partial numerators without x, as functions of df: for I_x(df/2, 1/2)
        and for I_{1-x}(1/2, df/2), multiplied out so that the halves cancel -#}
    {%- set tail_numerators = [] -%}
    {%- set center_numerators = [] -%}
    {%- for m in range(terms + 1) -%}
        {%- if m >= 1 -%}
            {%- do tail_numerators.append('(' ~ (2 * m * (1 - 2 * m)) ~ ' / ((' ~ df ~ ' + ' ~ (4 * m - 2) ~ ') * (' ~ df ~ ' + ' ~ (4 * m) ~ ')))') -%}
            {%- do center_numerators.append('(' ~ (2 * m) ~ ' * (' ~ df ~ ' - ' ~ (2 * m) ~ ') / ' ~ ((4 * m - 1) * (4 * m + 1)) ~ 'e0)') -%}
        {%- endif -%}
        {%- do tail_numerators.append('(-' ~ rankwise._plus(df, 2 * m) ~ ' * (' ~ df ~ ' + ' ~ (2 * m + 1) ~ ') / (' ~ rankwise._plus(df, 4 * m) ~ ' * (' ~ df ~ ' + ' ~ (4 * m + 2) ~ ')))') -%}
        {%- do center_numerators.append('(-' ~ (2 * m + 1) ~ ' * (' ~ df ~ ' + ' ~ (2 * m + 1) ~ ') / ' ~ ((4 * m + 1) * (4 * m + 3)) ~ 'e0)') -%}
    {%- endfor -%}
    {%- set in_tail = '(' ~ t_squared ~ ' * (' ~ df ~ ' + 2) > 3 * ' ~ df ~ ')' -%}
    {%- set tail_fraction = rankwise._continued_fraction(tail_numerators, '(1e0 + ' ~ t_squared ~ ' / ' ~ df ~ ')') -%}
    {%- set center_fraction = rankwise._continued_fraction(center_numerators, '(1e0 + ' ~ df ~ ' / ' ~ t_squared ~ ')') -%}
    {#- ln(x^a (1-x)^b / B(a, b)) = ln Gamma((df+1)/2) - ln Gamma(df/2) - ln sqrt(pi)
        + (df/2) ln df + ln|t| - ((df+1)/2) ln(df + t^2); held above -700 so that
        its exp stays a normal double -#}
    {%- set log_front = rankwise._log_gamma_half_step(df) ~ ' - 5.72364942924700087e-01 + ' ~ df ~ ' / 2 * ln(' ~ df ~ ') + ln(' ~ t_squared ~ ') / 2 - (' ~ df ~ ' + 1) / 2 * ln(' ~ df ~ ' + ' ~ t_squared ~ ')' -%}
    {{ return('((case when ' ~ in_tail ~ ' then 0 else 1 end) + exp(greatest(' ~ log_front ~ ', -7e2)) * (case when ' ~ in_tail
              ~ ' then 2 / ' ~ df ~ ' * ' ~ tail_fraction ~ ' else -2 * ' ~ center_fraction ~ ' end))') }}
{% endmacro %}

{#- 1 / (1 + K) with K = d_1 / (v + d_2 / (1 + d_3 / (v + d_4 / (1 + ...)))): the
    partial numerators `numerators` d_1 ... d_n (SQL), v (SQL) under the odd ones. -#}
{% macro _continued_fraction(numerators, v) %}
    {%- set ns = namespace(text=none) -%}
    {%- for numerator in numerators | reverse -%}
        {%- set index = numerators | length - loop.index0 -%}
        {%- set below = v if index is odd else '1e0' -%}
        {%- set ns.text = numerator ~ ' / ' ~ (below if ns.text is none else '(' ~ below ~ ' + ' ~ ns.text ~ ')') -%}
    {%- endfor -%}
    {{ return('(1e0 / (1e0 + ' ~ ns.text ~ '))') }}
{% endmacro %}

{#- ln Gamma((df+1)/2) - ln Gamma(df/2) for df >= 1: each ln Gamma(x) is
    ln Gamma(x + 8) - ln(x (x+1) ... (x+7)), with ln Gamma(x + 8), x + 8 >= 8.5, by
    Stirling's series to the x^-9 term (error about 1e-13; the constant
    ln(2 pi)/2 cancels in the difference). -#}
{% macro _log_gamma_half_step(df) %}
    {%- set stirling = [] -%}
    {%- for shift in [17, 16] -%}
        {%- set z = '((' ~ df ~ ' + ' ~ shift ~ ') / 2e0)' -%}
        {%- set inverse_square = '(1e0 / power(' ~ z ~ ', 2))' -%}
        {%- do stirling.append('((' ~ z ~ ' - 5e-1) * ln(' ~ z ~ ') - ' ~ z ~ ' + (8.33333333333333333e-02 - ' ~ inverse_square
            ~ ' * (2.77777777777777778e-03 - ' ~ inverse_square ~ ' * (7.93650793650793651e-04 - ' ~ inverse_square
            ~ ' * (5.95238095238095238e-04 - ' ~ inverse_square ~ ' * 8.41750841750841751e-04)))) / ' ~ z ~ ')') -%}
    {%- endfor -%}
    {%- set rising = [] -%}
    {%- set falling = [] -%}
    {%- for k in range(8) -%}
        {%- do rising.append('(' ~ df ~ ' + ' ~ (2 * k + 1) ~ ')') -%}
        {%- do falling.append(rankwise._plus(df, 2 * k)) -%}
    {%- endfor -%}
    {{ return('(' ~ stirling[0] ~ ' - ' ~ stirling[1] ~ ' - ln(' ~ rising | join(' * ') ~ ' / (' ~ falling | join(' * ') ~ ')))') }}
{% endmacro %}

{#- 10 <= df < 1e8: Hill's transformation (algorithm 395) of t into z, with
    y = a ln(1 + t^2/df), a = df - 1/2, b = 48 a^2:
    z = (1 + ((((-0.4 y - 3.3) y - 24) y - 85.5) / (0.8 y^2 + 100 + b) + y + 3) / b) sqrt(y),
    written here over one denominator,
    z = (1 + (((0.4 y - 0.9) y + b + 76) y + 3 b + 214.5) / (b (0.8 y^2 + b + 100))) sqrt(y),
    then p = erfc(z / sqrt(2)). -#}
{% macro _student_t_hill_z(y, b) %}
    {{ return('((1e0 + (((0.4e0 * ' ~ y ~ ' - 0.9e0) * ' ~ y ~ ' + ' ~ b ~ ' + 76) * ' ~ y ~ ' + 3 * ' ~ b ~ ' + 214.5e0) / ('
              ~ b ~ ' * (0.8e0 * power(' ~ y ~ ', 2) + ' ~ b ~ ' + 100))) * sqrt(' ~ y ~ '))') }}
{% endmacro %}

{#- Hill's regime where t^2/df < 9e-10: 1 + t^2/df would round, so
    ln(1 + t^2/df) is taken as t^2/df (relative error below 5e-10) and, z being
    below 0.22 there (df < 1e8), the erfc as its series to z^7. With y = a t^2/df,
    z = sqrt(y) (h0 + h1 y) to first order in y,
    p = 1 - sqrt(2/pi) z (1 - z^2/6 + z^4/40 - z^6/336). -#}
{% macro _student_t_p_of_small_ratio(ratio, b, df) %}
    {%- set y = '((' ~ df ~ ' - 0.5e0) * ' ~ ratio ~ ')' -%}
    {%- set h0 = '(1e0 + (3e0 - 85.5e0 / (100 + ' ~ b ~ ')) / ' ~ b ~ ')' -%}
    {%- set h1 = '((1e0 - 24e0 / (100 + ' ~ b ~ ')) / ' ~ b ~ ')' -%}
    {%- set z_squared = '(' ~ y ~ ' * power(' ~ h0 ~ ', 2))' -%}
    {{ return('(1e0 - 0.7978845608028654e0 * sqrt(' ~ y ~ ') * (' ~ h0 ~ ' + ' ~ h1 ~ ' * ' ~ y ~ ') * (1e0 - ' ~ z_squared
              ~ ' * (1e0 / 6 - ' ~ z_squared ~ ' * (1e0 / 40 - ' ~ z_squared ~ ' / 336))))') }}
{% endmacro %}

{#- (`x` + `n`) for a whole number n, x itself for n = 0. -#}
{% macro _plus(x, n) %}
    {{ return(x if n == 0 else '(' ~ x ~ ' + ' ~ n ~ ')') }}
{% endmacro %}
