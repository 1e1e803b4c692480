{#- Rank-biased overlap, extrapolated (Webber, Moffat & Zobel 2010, "A similarity
    measure for indefinite rankings", ACM TOIS 28(4), equation 32): two lists cut
    at depths s <= l (the shorter S, the longer L), X_d the items S's top
    min(d, s) and L's top d share, p the persistence:

      RBO_ext = (1 - p)/p * (sum_{d=1}^{l} X_d/d p^d + sum_{d=s+1}^{l} X_s (d - s)/(s d) p^d)
                + ((X_l - X_s)/l + X_s/s) p^l

    A shared item at ranks (r_S, r_L) is in X_d from its depth m = max(r_S, r_L)
    on. Summing the first sum item by item, the terms beyond s of the items
    within s cancel against the second sum's -X_s p^d/d, and the rest of the
    second sum is geometric, so that

      RBO_ext = (1 - p)/p * weight_tail + X_s/s p^s + (X_l - X_s)/l p^l

    where weight_tail is the sum over the shared items of p^d/d for d from m to s
    (an item within s) or to l (any other): a difference of two running sums of
    p^d/d, which the caller reads off a table of depths. `common` is X_l,
    `common_within_short` X_s. The lists themselves give 1, lists with nothing
    in common 0. -#}
{% macro rank_biased_overlap(weight_tail, common, common_within_short, short_depth, long_depth, p=0.9) %}
    {%- do rankwise._check_probability('rank_biased_overlap', 'p', p) -%}
    {{- return(adapter.dispatch('rank_biased_overlap', 'rankwise')(weight_tail, common, common_within_short, short_depth, long_depth, p)) -}}
{% endmacro %}

{#- p^s and p^l as the weights of ranks s + 1 and l + 1 (rank_biased_weight),
    which no power underflows to an error. -#}
{% macro default__rank_biased_overlap(weight_tail, common, common_within_short, short_depth, long_depth, p) -%}
    {%- set persistence = rankwise._double_literal(p) -%}
    ((1e0 - {{ persistence }}) / {{ persistence }} * ({{ weight_tail }})
     + {{ rankwise.safe_divide(common_within_short, short_depth) }} * {{ rankwise.rank_biased_weight('(' ~ short_depth ~ ') + 1', p) }}
     + {{ rankwise.safe_divide('(' ~ common ~ ') - (' ~ common_within_short ~ ')', long_depth) }} * {{ rankwise.rank_biased_weight('(' ~ long_depth ~ ') + 1', p) }})
{%- endmacro %}
