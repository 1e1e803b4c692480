{#- compare's result: the comparison rows, their p-values corrected over
    every row, sorted for reading. -#}

{#- The adjusted p-value of `p` over every row: Holm's step-down (each p times the
    number of p-values not below it, then the running maximum) or Benjamini and
    Hochberg's step-up (each p times m / its rank, then the running minimum from
    the largest), capped at 1, as statsmodels' multipletests computes them. Rows
    without a p-value are left out of m. -#}
{% macro _adjusted_p(p, correction, suffix='') %}
    {%- set rank, count = 'rw_p_rank' ~ suffix, 'rw_n_tests' ~ suffix -%}
    {%- if correction == 'none' -%}
        {{ return(p) }}
    {%- elif correction == 'holm' -%}
        {{ return('case when ' ~ p ~ ' is not null then least(1e0, max((' ~ count ~ ' - ' ~ rank ~ ' + 1) * ' ~ p
                  ~ ') over (order by ' ~ rank ~ ' asc rows between unbounded preceding and current row)) end') }}
    {%- else -%}
        {{ return('case when ' ~ p ~ ' is not null then least(1e0, min(' ~ count ~ ' * ' ~ p ~ ' / ' ~ rank ~ ')'
                  ~ ' over (order by ' ~ rank ~ ' desc rows between unbounded preceding and current row)) end') }}
    {%- endif -%}
{% endmacro %}

{#- The p-values of compare besides p_value and p_randomization, each corrected
    over every row as p_value is: (output column, column of rw_comparison_p). -#}
{% macro _more_p_values(spec) %}
    {%- set more = [] -%}
    {%- if spec.margin is not none %}{% do more.append(('p_non_inferiority', 'rw_p_non_inferiority')) %}{% endif -%}
    {%- if spec.equivalence %}{% do more.append(('p_equivalence', 'rw_p_equivalence')) %}{% endif -%}
    {{ return(more) }}
{% endmacro %}

{#- Whether the differences of a comparison row (`alias`: rw_sd, rw_diff) spread
    beyond rounding: a standard deviation within 1e-12 of the mean difference is
    the noise differences equal in exact arithmetic leave when each is added in
    another order (the ties' rule, _paired_difference), over which t and d_z
    would be numbers of 1e15 that change from run to run. Read where t and d_z
    are returned: a condition written into rw_sd itself would be repeated in
    every expression that reads it, which PostgreSQL expands past its memory. -#}
{% macro _differences_spread(alias) %}
    {{ return(alias ~ '.rw_sd > 1e-12 * abs(' ~ alias ~ '.rw_diff)') }}
{% endmacro %}

{#- The comparison as it is returned, sorted for reading. -#}
{% macro _output_comparison(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set order = [] -%}
    {%- for column in spec.shared_groups %}{% do order.append(column ~ ' asc nulls last') %}{% endfor -%}
    {%- do order.extend([rankwise._metric_order(spec, 'metric_label'), 'k asc nulls last',
                         rankwise._in_byte_order('model') ~ ' asc', rankwise._in_byte_order('baseline') ~ ' asc']) -%}
select{{ rankwise._one_partition_hint() }} * from (
select
    {{ rankwise._selected_columns(spec.shared_groups, 'ranked') }}ranked.metric as metric,
    ranked.k as k,
    {{ rankwise._metric_label('ranked.rw_label', 'ranked.k') }} as metric_label,
    ranked.rw_model as model,
    ranked.rw_baseline as baseline,
    cast(ranked.rw_n as bigint) as n_users,
    ranked.rw_mean as mean,
    ranked.rw_baseline_mean as baseline_mean,
    ranked.rw_diff as diff,
    {{ rankwise.safe_divide('ranked.rw_diff', 'ranked.rw_baseline_mean') }} as relative_diff,
    ranked.rw_diff - ranked.rw_half_width as ci_low,
    ranked.rw_diff + ranked.rw_half_width as ci_high,
    case when {{ rankwise._differences_spread('ranked') }} then ranked.rw_diff / ranked.rw_sd end as effect_size,
    case when {{ rankwise._differences_spread('ranked') }} then ranked.rw_t end as t_statistic,
    ranked.rw_p_value as p_value,
    {%- if 'randomization' in spec.tests %}
    ranked.rw_p_randomization as p_randomization,
    {%- endif %}
    {%- if 'bootstrap' in spec.tests %}
    ranked.rw_bootstrap_ci_low as bootstrap_ci_low,
    ranked.rw_bootstrap_ci_high as bootstrap_ci_high,
    {%- endif %}
    cast({{ rankwise._adjusted_p('ranked.' ~ spec.corrected_p, spec.correction) }} as {{ float }}) as p_adjusted,
    {%- for column, source in rankwise._more_p_values(spec) %}
    ranked.{{ source }} as {{ column }},
    cast({{ rankwise._adjusted_p('ranked.' ~ source, spec.correction, '__' ~ column) }} as {{ float }}) as {{ column }}_adjusted,
    {%- endfor %}
    {{ rankwise._minimum_detectable_difference('ranked') }} as minimum_detectable_difference,
    ranked.rw_wins as wins,
    cast(ranked.rw_n as bigint) - ranked.rw_wins - ranked.rw_losses as ties,
    ranked.rw_losses as losses,
    {{ rankwise._adjusted_p('ranked.' ~ spec.corrected_p, spec.correction) }} < {{ rankwise._double_literal(spec.alpha) }} as significant
{#- the comparison rows, not the quadrature's #}
from {{ rankwise._detectable_difference_rows() }} as ranked
where ranked.rw_node = 1
) as rw_comparison
order by {{ order | join(', ') }}
{%- endmacro %}
