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
    this; beyond it (a handful of users at a strict alpha) the column is NULL,
    as it is where the last step started more than `converged` from the roots
    (in ln P(T > c) and ln of the power). `steps` of Halley's method from the
    starting values below reach both roots wherever the row is resolved (two
    suffice from 15 users on). Each step is a stage of three selects, and
    Spark's analyzer spends several of its at most 100 passes on each, while
    ClickHouse refuses a query of more than 50,000 syntax elements: no more
    steps, selects or repeated text than that (docs/statistics.md). -#}
{% macro _power_quadrature() %}
    {{ return({'nodes': 481, 'first': -40, 'step': 0.1, 'lowest_log_weight': -50, 'resolved': 2,
               'steps': 3, 'converged': 1e-3, 'power': 0.8}) }}
{% endmacro %}

{#- The columns of a comparison row that the output reads, which every stage
    below carries by name: each step writes its rw_c and rw_delta under the
    names it read them, so it cannot pass its input on with `*` (which would
    also cost Spark's analyzer a pass more per select). -#}
{% macro _comparison_row_columns(spec) %}
    {%- set columns = spec.shared_groups + ['metric', 'rw_label', 'k', 'rw_model', 'rw_baseline', 'rw_n', 'rw_mean', 'rw_baseline_mean', 'rw_diff',
                                            'rw_half_width', 'rw_sd', 'rw_t', 'rw_p_value', 'rw_wins', 'rw_losses', 'rw_p_rank', 'rw_n_tests'] -%}
    {%- if 'randomization' in spec.tests %}{% do columns.append('rw_p_randomization') %}{% endif -%}
    {%- if 'bootstrap' in spec.tests %}{% do columns.extend(['rw_bootstrap_ci_low', 'rw_bootstrap_ci_high']) %}{% endif -%}
    {%- for column, source in rankwise._more_p_values(spec) -%}
        {%- do columns.extend([source, 'rw_p_rank__' ~ column, 'rw_n_tests__' ~ column]) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}

{#- The carried columns of `alias`, then those of the quadrature, each in a
    select list, by their bare names: no other relation of the selects that
    carry them has such a column, and a qualified column of a select list is
    named `alias.column` by ClickHouse where relations are joined (the rule of
    tests/unit/test_dialects.py's column_problem holds for every select). -#}
{% macro _carried(spec, alias, quadrature=['rw_df', 'rw_alpha_each', 'rw_node', 'rw_s', 'rw_w']) %}
    {%- set selected = [] -%}
    {%- for column in rankwise._comparison_row_columns(spec) + quadrature -%}
        {%- do selected.append(column ~ ', ') -%}
    {%- endfor -%}
    {{ return(selected | join('')) }}
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
    values of the critical value rw_c (the normal quantile, then Cornish and
    Fisher's t) and the noncentrality rw_delta. Three selects, each value
    written once: see _power_quadrature. -#}
{% macro _stage_power_nodes(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set q = rankwise._power_quadrature() -%}
    {%- set is_node = '(ranked.rw_first_of_n = 1 and ranked.rw_n >= 2)' -%}
    {%- set y = 'spread.rw_y' -%}
    {#- 1 + y - exp(y), by its series where the two cancel (many users: y near 0) -#}
    {%- set log_weight = '(spread.rw_df / 2 * (case when abs(' ~ y ~ ') < 1e-2 then -' ~ y ~ ' * ' ~ y ~ ' / 2 * (1 + ' ~ y ~ ' / 3 * (1 + '
                         ~ y ~ ' / 4 * (1 + ' ~ y ~ ' / 5 * (1 + ' ~ y ~ ' / 6)))) else 1 + ' ~ y ~ ' - exp(' ~ y ~ ') end))' -%}
    {%- set kept = 'seeded.rw_log_weight > ' ~ rankwise._double_literal(q.lowest_log_weight) -%}
    {%- set weight = 'case when ' ~ kept ~ ' then exp(seeded.rw_log_weight) else 0e0 end' -%}
    {%- set c = 'seeded.rw_c' -%}
rw_power_nodes as (
    select
        {{ rankwise._carried(spec, 'seeded', ['rw_df', 'rw_alpha_each', 'rw_node']) }}
        exp(seeded.rw_y / 2) as rw_s,
        case when {{ kept }} then exp(seeded.rw_log_weight) / sum({{ weight }}) over (partition by seeded.rw_n) else 0e0 end as rw_w,
        {{ c }} as rw_c,
        {#- the normal approximation of the noncentral t (Abramowitz and Stegun 26.7.10) solved for a power of 0.8 #}
        {{ c }} * (1 - 1 / (4 * seeded.rw_df)) + 0.8416212335729143e0 * sqrt(1 + {{ c }} * {{ c }} / (2 * seeded.rw_df)) as rw_delta,
        0e0 as rw_residual
    from (
        select
            {{ rankwise._carried(spec, 'spread', ['rw_df', 'rw_alpha_each', 'rw_node']) }}
            spread.rw_y as rw_y,
            case when spread.rw_is_node then {{ log_weight }} else {{ rankwise._double_literal(q.lowest_log_weight) }} end as rw_log_weight,
            {#- held above 0, where steps on ln c can start #}
            greatest({{ rankwise._cornish_fisher('spread.rw_z', 'spread.rw_df') }}, 1e-10) as rw_c
        from (
            select
                {{ rankwise._carried(spec, 'ranked', ['rw_alpha_each']) }}
                greatest(ranked.rw_n - 1, 1e0) as rw_df,
                {{ rankwise._normal_upper_quantile('ranked.rw_alpha_each / 2') }} as rw_z,
                node.rw_position as rw_node,
                {{ is_node }} as rw_is_node,
                case when {{ is_node }} then sqrt(2 / greatest(ranked.rw_n - 1, 1e0)) * node.rw_u else 0e0 end as rw_y
            from rw_comparison_ranked as ranked
            cross join (
                {#- the node's u, before its scaling to the row's df #}
                select positions.rw_position as rw_position, {{ rankwise._double_literal(q.first) }} + cast(positions.rw_position - 1 as {{ float }}) * {{ rankwise._double_literal(q.step) }} as rw_u
                from {{ rankwise._positions(q.nodes) }} as positions
            ) as node
            where node.rw_position = 1 or {{ is_node }}
        ) as spread
    ) as seeded
    {#- the nodes of negligible weight left out, before their weights are summed #}
    where seeded.rw_node = 1 or {{ kept }}
)
{%- endmacro %}

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
    g' = H' / H and g'' = H'' / H - g'^2. delta is held in [0, 1e12].

    Three selects: each node's c S, A and B with the x and t of their erfc,
    the window sums, and the step. -#}
{% macro _stage_power_step(spec, step) %}
    {%- set q = rankwise._power_quadrature() -%}
    {%- set previous = 'rw_power_nodes' if step == 1 else 'rw_power_' ~ (step - 1) -%}
    {%- set quadrature = ['rw_df', 'rw_alpha_each', 'rw_node', 'rw_s', 'rw_w'] -%}
    {#- the window sums P, D and the power H come held above 1e-300, where their ln is finite -#}
    {%- set tail, slope, cubed = 'summed.rw_tail', 'summed.rw_slope', 'summed.rw_slope_s3' -%}
    {%- set f = '(ln(' ~ tail ~ ') - ln(summed.rw_alpha_each / 2))' -%}
    {%- set f1 = '(-summed.rw_c * ' ~ slope ~ ' / ' ~ tail ~ ')' -%}
    {%- set f2 = '(-summed.rw_c * (' ~ slope ~ ' - summed.rw_c * summed.rw_c * ' ~ cubed ~ ') / ' ~ tail ~ ' - ' ~ f1 ~ ' * ' ~ f1 ~ ')' -%}
    {%- set power, power_slope = 'summed.rw_power', 'summed.rw_power_slope' -%}
    {%- set g = '(ln(' ~ power ~ ') - ln(' ~ rankwise._double_literal(q.power) ~ '))' -%}
    {%- set g1 = '(' ~ power_slope ~ ' / ' ~ power ~ ')' -%}
    {%- set g2 = '(summed.rw_power_curvature / ' ~ power ~ ' - ' ~ g1 ~ ' * ' ~ g1 ~ ')' -%}
    {%- set window = ' over (partition by terms.rw_n)' -%}
    {#- each node's c S, A and B, the x and t = 1 / (1 + x/2) of the erfc of the
        normal's tail beyond |c S|, |A| and B, and phi at each -#}
    {%- set tails = [('cs', 'p.rw_c * p.rw_s'), ('below', 'p.rw_delta - p.rw_c * p.rw_s'), ('beyond', 'p.rw_delta + p.rw_c * p.rw_s')] -%}
rw_power_{{ step }} as (
    select
        {{ rankwise._carried(spec, 'summed', quadrature) }}
        exp(least(greatest(ln(summed.rw_c) + {{ rankwise._halley_step(f, f1, f2) }}, -2.3e1), 2.8e1)) as rw_c,
        case
            when {{ power_slope }} > 0 then least(greatest(summed.rw_delta + {{ rankwise._halley_step(g, g1, g2) }}, 0e0), 1e12)
            else summed.rw_delta
        end as rw_delta,
        {#- how far this step started from both roots, in ln P(T > c) and ln of the power #}
        greatest(abs({{ f }}), abs({{ g }})) as rw_residual
    from (
        select
            {{ rankwise._carried(spec, 'terms', quadrature + ['rw_c', 'rw_delta']) }}
            greatest(sum(terms.rw_w * {{ rankwise._erfc_of_nonnegative('terms.rw_x_cs', 'terms.rw_t_cs') }} / 2){{ window }}, 1e-300) as rw_tail,
            greatest(sum(terms.rw_w * terms.rw_s * terms.rw_phi_cs){{ window }}, 1e-300) as rw_slope,
            sum(terms.rw_w * terms.rw_s * terms.rw_s * terms.rw_s * terms.rw_phi_cs){{ window }} as rw_slope_s3,
            {#- Phi(A) + Phi(-B) from the normal's tails beyond |A| and B (B >= 0):
                Phi(A) is the tail below A < 0, and 1 - the tail above A >= 0 #}
            greatest(sum(terms.rw_w * ((case when terms.rw_below < 0 then 0e0 else 1e0 end)
                                       + (case when terms.rw_below < 0 then 1e0 else -1e0 end) * {{ rankwise._erfc_of_nonnegative('terms.rw_x_below', 'terms.rw_t_below') }} / 2
                                       + {{ rankwise._erfc_of_nonnegative('terms.rw_x_beyond', 'terms.rw_t_beyond') }} / 2)){{ window }}, 1e-300) as rw_power,
            sum(terms.rw_w * (terms.rw_phi_below - terms.rw_phi_beyond)){{ window }} as rw_power_slope,
            sum(terms.rw_w * (terms.rw_beyond * terms.rw_phi_beyond - terms.rw_below * terms.rw_phi_below)){{ window }} as rw_power_curvature
        from (
            select
                {{ rankwise._carried(spec, 'p', quadrature + ['rw_c', 'rw_delta']) }}
                {%- for name, value in tails %}{{ ',' if not loop.first }}
                {{ value }} as rw_{{ name }},
                {{ rankwise._erfc_argument(value) }} as rw_x_{{ name }},
                1e0 / (1e0 + 5e-1 * {{ rankwise._erfc_argument(value) }}) as rw_t_{{ name }},
                {{ rankwise._normal_density(value) }} as rw_phi_{{ name }}
                {%- endfor %}
            from {{ previous }} as p
        ) as terms
    ) as summed
)
{%- endmacro %}

{#- rw_power_1 ... rw_power_<steps>: the steps of Halley's method, each a CTE. -#}
{% macro _stage_power_steps(spec) %}
    {%- set stages = [] -%}
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
