{#- Stages of compare's minimum detectable difference: per comparison row, the
    smallest true mean difference the two-sided paired t test detects with 80%
    power at the row's alpha after the correction (Holm and Benjamini-Hochberg:
    the Bonferroni alpha / m, the strictest threshold any row faces), from the
    standard deviation of the differences and n. docs/statistics.md has the
    method and its measured accuracy.

    With df = n - 1 and S = sqrt(chi2_df / df), the test rejects when
    |T| > c, c the t quantile at 1 - alpha/2, and under a noncentrality delta
    the power is E_S[Phi(delta - c S) + Phi(-delta - c S)]. No engine has the
    noncentral t, and the power equation has no closed form, so c and delta
    are found together by Halley's method, each expectation over S a trapezoid
    rule in y = ln(S^2) on fixed nodes scaled by sqrt(2 / df): the weights are
    the chi-square density at the nodes, normalised by their sum, so no Gamma
    function is needed. The detectable difference is delta / sqrt(n) * sd.

    Every stage reads the one before it once: the rows of the comparison are
    carried through the iterations with the quadrature's rows (one set of nodes
    per distinct n) beside them, so that an engine that inlines its CTEs
    (Spark, ClickHouse, BigQuery) does not compute the comparison again per
    iteration. Each iteration's sums are window sums over the rows of one n;
    the comparison rows weigh 0 in them. -#}

{#- The quadrature and the iterations: nodes u = first + (j - 1) * step for
    j = 1..nodes, y = sqrt(2 / df) u; nodes whose log weight is below
    lowest_log_weight (relative to the mode's) are left out. `resolved`: the
    trapezoid rule resolves Phi(delta - c S), whose width in u is about
    2 / (delta sqrt(2 / df)), while step * delta * sqrt(2 / df) stays at most
    this; beyond it (fewer than 6 users with a strict alpha) the column is
    NULL. -#}
{% macro _power_quadrature() %}
    {{ return({'nodes': 481, 'first': -40, 'step': 0.1, 'lowest_log_weight': -50, 'resolved': 2,
               'steps': 5, 'converged': 1e-3, 'power': 0.8}) }}
{% endmacro %}

{#- The columns of a comparison row that the output reads, which every stage
    below carries by name: each step writes its rw_c and rw_delta under the
    names it read them, so a step cannot pass its input on with `*`. -#}
{% macro _comparison_row_columns(spec) %}
    {%- set columns = spec.shared_groups + ['metric', 'k', 'rw_model', 'rw_baseline', 'rw_n', 'rw_mean', 'rw_baseline_mean', 'rw_diff',
                                            'rw_half_width', 'rw_sd', 'rw_t', 'rw_p_value', 'rw_wins', 'rw_losses', 'rw_p_rank', 'rw_n_tests'] -%}
    {%- if 'randomization' in spec.tests %}{% do columns.append('rw_p_randomization') %}{% endif -%}
    {%- if 'bootstrap' in spec.tests %}{% do columns.extend(['rw_bootstrap_ci_low', 'rw_bootstrap_ci_high']) %}{% endif -%}
    {%- for column, source in rankwise._more_p_values(spec) -%}
        {%- do columns.extend([source, 'rw_p_rank__' ~ column, 'rw_n_tests__' ~ column]) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}

{#- The carried columns of `alias`, then those of the quadrature, each in a
    select list. -#}
{% macro _carried(spec, alias, quadrature=['rw_df', 'rw_alpha_each', 'rw_node', 'rw_s', 'rw_w']) %}
    {{ return(rankwise._selected_columns(rankwise._comparison_row_columns(spec) + quadrature, alias)) }}
{% endmacro %}

{#- rw_comparison_ranked: the rows of rw_comparison_p with each p-value's rank
    and count (for the corrections), the alpha a row's test faces after the
    correction, and rw_first_of_n, 1 on one row per distinct n (the row whose
    nodes the quadrature uses). -#}
{% macro _stage_comparison_ranked(spec) %}
    {%- set alpha = rankwise._double_literal(spec.alpha) -%}
rw_comparison_ranked as (
    select
        p.*,
        row_number() over (order by p.{{ spec.corrected_p }} asc nulls last) as rw_p_rank,
        count(p.{{ spec.corrected_p }}) over () as rw_n_tests,
        {%- for column, source in rankwise._more_p_values(spec) %}
        row_number() over (order by p.{{ source }} asc nulls last) as rw_p_rank__{{ column }},
        count(p.{{ source }}) over () as rw_n_tests__{{ column }},
        {%- endfor %}
        {%- if spec.correction == 'none' %}
        {{ alpha }} as rw_alpha_each,
        {%- else %}
        {{ alpha }} / greatest(count(p.{{ spec.corrected_p }}) over (), 1) as rw_alpha_each,
        {%- endif %}
        row_number() over (partition by p.rw_n order by p.{{ spec.corrected_p }} asc nulls last) as rw_first_of_n
    from rw_comparison_p as p
)
{%- endmacro %}

{#- rw_power_nodes: every comparison row (rw_node = 1, weight 0 unless it also
    is a node), and for one row per n of at least 2 the quadrature's nodes: S
    at the node (rw_s) and its normalised weight (rw_w); and the starting
    critical value rw_c: the normal quantile of Abramowitz and Stegun 26.2.23
    with the first Cornish-Fisher term for t (26.7.5). -#}
{% macro _stage_power_nodes(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set q = rankwise._power_quadrature() -%}
    {%- set y = 'located.rw_y' -%}
    {#- 1 + y - exp(y), by its series where the two cancel (many users: y near 0) -#}
    {%- set log_weight = '(located.rw_df / 2 * (case when abs(' ~ y ~ ') < 1e-2 then -' ~ y ~ ' * ' ~ y ~ ' / 2 * (1 + ' ~ y ~ ' / 3 * (1 + ' ~ y ~ ' / 4 * (1 + ' ~ y ~ ' / 5 * (1 + ' ~ y ~ ' / 6)))) else 1 + ' ~ y ~ ' - exp(' ~ y ~ ') end))' -%}
    {%- set kept = 'located.rw_is_node = 1 and ' ~ log_weight ~ ' > ' ~ rankwise._double_literal(q.lowest_log_weight) -%}
    {%- set root = 'weighted.rw_root' -%}
    {%- set z = 'greatest(' ~ root ~ ' - (2.515517e0 + 0.802853e0 * ' ~ root ~ ' + 0.010328e0 * ' ~ root ~ ' * ' ~ root ~ ') / (1 + 1.432788e0 * '
                ~ root ~ ' + 0.189269e0 * ' ~ root ~ ' * ' ~ root ~ ' + 0.001308e0 * ' ~ root ~ ' * ' ~ root ~ ' * ' ~ root ~ '), 1e-3)' -%}
rw_power_nodes as (
    select
        {{ rankwise._carried(spec, 'weighted', ['rw_df', 'rw_alpha_each', 'rw_node', 'rw_s']) }}
        case when weighted.rw_weight > 0 then weighted.rw_weight / sum(weighted.rw_weight) over (partition by weighted.rw_n) else 0e0 end as rw_w,
        {{ z }} + ({{ z }} * {{ z }} * {{ z }} + {{ z }}) / (4 * weighted.rw_df) as rw_c
    from (
        select
            located.*,
            exp(located.rw_y / 2) as rw_s,
            case when {{ kept }} then exp({{ log_weight }}) else 0e0 end as rw_weight,
            sqrt(-2 * ln(located.rw_alpha_each / 2)) as rw_root
        from (
            select
                spread.*,
                case when spread.rw_is_node = 1 then sqrt(2 / spread.rw_df) * ({{ rankwise._double_literal(q.first) }} + cast(spread.rw_node - 1 as {{ float }}) * {{ rankwise._double_literal(q.step) }}) else 0e0 end as rw_y
            from (
                select
                    {{ rankwise._carried(spec, 'ranked', ['rw_alpha_each']) }}
                    greatest(ranked.rw_n - 1, 1e0) as rw_df,
                    node.rw_position as rw_node,
                    case when ranked.rw_first_of_n = 1 and ranked.rw_n >= 2 then 1 else 0 end as rw_is_node
                from rw_comparison_ranked as ranked
                cross join {{ rankwise._positions(q.nodes) }} as node
                where node.rw_position = 1 or (ranked.rw_first_of_n = 1 and ranked.rw_n >= 2)
            ) as spread
        ) as located
        where located.rw_node = 1 or ({{ kept }})
    ) as weighted
)
{%- endmacro %}

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
    step -f/f' divided by 1 - f f'' / (2 f'^2), where that correction is
    small (|f f''| <= f'^2), else Newton's step. -#}
{% macro _halley_step(f, f1, f2) %}
    {{ return('(case when abs(' ~ f ~ ' * ' ~ f2 ~ ') <= ' ~ f1 ~ ' * ' ~ f1 ~ ' then -' ~ f ~ ' / ' ~ f1 ~ ' / (1 - ' ~ f ~ ' * ' ~ f2 ~ ' / (2 * '
              ~ f1 ~ ' * ' ~ f1 ~ ')) else -' ~ f ~ ' / ' ~ f1 ~ ' end)') }}
{% endmacro %}

{#- rw_power_<i>: one step of Halley's method towards each of c and delta, at
    once (delta's step uses the c of the step before; both converge within
    the steps of _power_quadrature wherever the row is resolved, measured
    against scipy: docs/statistics.md).

    c: P(T > c) = alpha / 2 on v = ln c, f = ln P(T > e^v) - ln(alpha / 2),
    which is concave in v. With the window sums P = E[Phi(-c S)],
    D = E[S phi(c S)] and D3 = E[S^3 phi(c S)]: f' = -c D / P and
    f'' = -c (D - c^2 D3) / P - f'^2. v is held in [-23, 28] (c from 1e-10
    to 1e12), so that nothing overflows where the quadrature cannot resolve
    the row.

    delta: g = ln H - ln 0.8 with the power H = E[Phi(delta - c S) +
    Phi(-delta - c S)], concave in delta (H is the distribution function of
    c S - Z, whose density is log-concave). With A = delta - c S and
    B = delta + c S, H' = E[phi(A) - phi(B)] and H'' = E[B phi(B) - A phi(A)]:
    g' = H' / H and g'' = H'' / H - g'^2. delta is held in [0, 1e12]. -#}
{% macro _stage_power_step(spec, step) %}
    {%- set q = rankwise._power_quadrature() -%}
    {%- set previous = 'rw_power_nodes' if step == 1 else 'rw_power_' ~ (step - 1) -%}
    {#- the first step starts delta at the normal approximation c + z_0.8 sqrt(1 + c^2 / (2 df)) -#}
    {%- set delta = 'p.rw_c + 0.8416212335729143e0 * sqrt(1 + p.rw_c * p.rw_c / (2 * p.rw_df))' if step == 1 else 'p.rw_delta' -%}
    {%- set below, beyond = '(' ~ delta ~ ' - p.rw_c * p.rw_s)', '(' ~ delta ~ ' + p.rw_c * p.rw_s)' -%}
    {%- set quadrature = ['rw_df', 'rw_alpha_each', 'rw_node', 'rw_s', 'rw_w'] -%}
rw_power_{{ step }} as (
    select
        {{ rankwise._carried(spec, 'moved', quadrature) }}
        exp(least(greatest(ln(moved.rw_c) + {{ rankwise._halley_step('moved.rw_f', 'moved.rw_f1', 'moved.rw_f2') }}, -2.3e1), 2.8e1)) as rw_c,
        case
            when moved.rw_g1 > 0 then least(greatest(moved.rw_delta + {{ rankwise._halley_step('moved.rw_g', 'moved.rw_g1', 'moved.rw_g2') }}, 0e0), 1e12)
            else moved.rw_delta
        end as rw_delta,
        {#- how far this step's start was from both roots, in ln P and ln H #}
        greatest(abs(moved.rw_f), abs(moved.rw_g)) as rw_residual
    from (
        select
            {{ rankwise._carried(spec, 'summed', quadrature + ['rw_c', 'rw_delta']) }}
            ln(summed.rw_tail) - ln(summed.rw_alpha_each / 2) as rw_f,
            -summed.rw_c * summed.rw_slope / summed.rw_tail as rw_f1,
            -summed.rw_c * (summed.rw_slope - summed.rw_c * summed.rw_c * summed.rw_slope_s3) / summed.rw_tail
                - power(summed.rw_c * summed.rw_slope / summed.rw_tail, 2) as rw_f2,
            ln(summed.rw_power) - ln({{ rankwise._double_literal(q.power) }}) as rw_g,
            summed.rw_power_slope / summed.rw_power as rw_g1,
            summed.rw_power_curvature / summed.rw_power - power(summed.rw_power_slope / summed.rw_power, 2) as rw_g2
        from (
            select
                terms.*,
                greatest(sum(terms.rw_w * {{ rankwise._erfc_of_nonnegative('terms.rw_x') }} / 2) over (partition by terms.rw_n), 1e-300) as rw_tail,
                greatest(sum(terms.rw_w * terms.rw_s * terms.rw_density) over (partition by terms.rw_n), 1e-300) as rw_slope,
                sum(terms.rw_w * terms.rw_s * terms.rw_s * terms.rw_s * terms.rw_density) over (partition by terms.rw_n) as rw_slope_s3,
                {#- Phi(A) + Phi(-B), from the normal's tails beyond |A| and B (B >= 0) #}
                greatest(sum(terms.rw_w * ((case when terms.rw_below < 0 then {{ rankwise._erfc_of_nonnegative('terms.rw_x_below') }} / 2
                                                 else 1 - {{ rankwise._erfc_of_nonnegative('terms.rw_x_below') }} / 2 end)
                                           + {{ rankwise._erfc_of_nonnegative('terms.rw_x_beyond') }} / 2)) over (partition by terms.rw_n), 1e-300) as rw_power,
                sum(terms.rw_w * (terms.rw_density_below - terms.rw_density_beyond)) over (partition by terms.rw_n) as rw_power_slope,
                sum(terms.rw_w * (terms.rw_beyond * terms.rw_density_beyond - terms.rw_below * terms.rw_density_below)) over (partition by terms.rw_n) as rw_power_curvature
            from (
                select
                    {{ rankwise._carried(spec, 'p', quadrature + ['rw_c']) }}
                    {{ delta }} as rw_delta,
                    {{ below }} as rw_below,
                    {{ beyond }} as rw_beyond,
                    {{ rankwise._erfc_argument('p.rw_c * p.rw_s') }} as rw_x,
                    {{ rankwise._normal_density('p.rw_c * p.rw_s') }} as rw_density,
                    {{ rankwise._erfc_argument(below) }} as rw_x_below,
                    {{ rankwise._erfc_argument(beyond) }} as rw_x_beyond,
                    {{ rankwise._normal_density(below) }} as rw_density_below,
                    {{ rankwise._normal_density(beyond) }} as rw_density_beyond
                from {{ previous }} as p
            ) as terms
        ) as summed
    ) as moved
)
{%- endmacro %}

{#- The stages above, in order. -#}
{% macro _detectable_difference_stages(spec) %}
    {%- set stages = [rankwise._stage_comparison_ranked(spec), rankwise._stage_power_nodes(spec)] -%}
    {%- for step in range(1, rankwise._power_quadrature().steps + 1) %}{% do stages.append(rankwise._stage_power_step(spec, step)) %}{% endfor -%}
    {{ return(stages) }}
{% endmacro %}

{#- The relation the output reads: the last stage's comparison rows. -#}
{% macro _detectable_difference_rows() %}
    {{ return('rw_power_' ~ rankwise._power_quadrature().steps) }}
{% endmacro %}

{#- The minimum detectable difference of a row of `alias`: delta / sqrt(n) * sd
    where the quadrature resolves the row and the last step started within
    `converged` of both roots (a step of Halley's method from there leaves
    an error far below the erfc's); 0 when every difference is the same
    (sd = 0: any other true difference is told apart, as the t interval is a
    point); NULL for fewer than 2 users. -#}
{% macro _minimum_detectable_difference(alias) %}
    {%- set q = rankwise._power_quadrature() -%}
    {%- set delta = alias ~ '.rw_delta' -%}
    {{ return('case when ' ~ alias ~ '.rw_n < 2 then null when ' ~ alias ~ '.rw_sd = 0 then 0e0 when ' ~ delta ~ ' * sqrt(2 / ' ~ alias ~ '.rw_df) * '
              ~ rankwise._double_literal(q.step) ~ ' <= ' ~ rankwise._double_literal(q.resolved) ~ ' and ' ~ alias ~ '.rw_residual <= '
              ~ rankwise._double_literal(q.converged) ~ ' then ' ~ delta ~ ' / sqrt(' ~ alias ~ '.rw_n) * ' ~ alias ~ '.rw_sd end') }}
{% endmacro %}
