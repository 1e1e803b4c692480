{#- Rank-biased precision (Moffat & Zobel 2008, "Rank-biased precision for
    measurement of retrieval effectiveness", ACM TOIS 27(1)): a user reads rank
    1, then goes on to each next rank with chance p, so rank i is read with
    chance p^(i-1) and RBP@k = (1 - p) * sum over ranks i <= k of r_i p^(i-1).
    `rank_biased_gain` is that sum (an aggregate of rank_biased_weight over a
    list's relevant rows, each times its gain r_i). With `normalize`, it is
    divided by the most a list can score, 1 - p^min(R, k): LensKit's RBP(normalize=True),
    which needs `n_relevant` (R) and `k` (a number or a column; the list's
    length for the whole list). 0 when R is 0. -#}
{% macro rbp_at_k(rank_biased_gain, p=0.8, normalize=false, n_relevant=none, k=none) %}
    {%- do rankwise._check_probability('rbp_at_k', 'p', p) -%}
    {%- if normalize is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise.rbp_at_k: argument `normalize` must be true or false; got " ~ rankwise._describe(normalize) ~ ".") }}
    {%- endif -%}
    {%- if normalize and (n_relevant is none or k is none) -%}
        {{ exceptions.raise_compiler_error("rankwise.rbp_at_k: normalize=true divides by 1 - p^min(R, k); give `n_relevant` (R) and `k` (the cutoff, or the list's length for the whole list).") }}
    {%- endif -%}
    {%- if k is not none and k is not string -%}
        {%- do rankwise._check_cutoff('rbp_at_k', k) -%}
    {%- endif -%}
    {{- return(adapter.dispatch('rbp_at_k', 'rankwise')(rank_biased_gain, p, normalize, n_relevant, k)) -}}
{% endmacro %}

{% macro default__rbp_at_k(rank_biased_gain, p, normalize, n_relevant, k) -%}
    {%- set rbp = '((1e0 - ' ~ rankwise._double_literal(p) ~ ') * (' ~ rank_biased_gain ~ '))' -%}
    {%- if not normalize -%}
    {{ rbp }}
    {%- else -%}
    {#- 1 - p^m is the weight of rank m + 1, taken from one minus it so that no power underflows -#}
    coalesce({{ rankwise.safe_divide(rbp, '(1e0 - ' ~ rankwise.rank_biased_weight('least(' ~ n_relevant ~ ', ' ~ k ~ ') + 1', p) ~ ')') }}, 0e0)
    {%- endif -%}
{%- endmacro %}
