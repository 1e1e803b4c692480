{#- The aggregates of the per-list components of trec_eval's measures beyond
    precision, recall, AP, RR and nDCG (the component registry's entries name
    them): over the judged rows within the cutoff, each with rw_rank,
    rw_relevance, rw_is_relevant and what the component reads
    (component_registry.sql: rw_hits_so_far, rw_judged_so_far,
    rw_n_relevant, rw_n_nonrelevant, rw_dcg_so_far, rw_ideal_prefix,
    rw_n_gains). -#}

{#- bpref's sum over the relevant rows of 1 - min(n, R) / min(N, R), n the
    judged non-relevant rows above it (the judged rows up to it less the hits
    up to it, both counting the row itself) and N the user's judged
    non-relevant items (bpref_term.sql). -#}
{% macro _aggregate_bpref_sum(spec) %}
    {%- set term = rankwise.bpref_term('rw_judged_so_far - rw_hits_so_far', 'rw_n_relevant', 'rw_n_nonrelevant') -%}
    {{ return('sum(case when rw_is_relevant = 1 then ' ~ term ~ ' else 0e0 end)') }}
{% endmacro %}

{#- Whether `hits` relevant items reach recall level `recall` of R as
    trec_eval counts it (m_iprec_at_recall.c): at least lround(recall R), R
    times recall rounded half away from zero, which for a whole number of hits
    is hits + 0.5 > recall R, exactly, on the double trec_eval rounds. -#}
{% macro _reaches_recall_level(hits, recall, n_relevant) %}
    {{ return(hits ~ ' + 0.5e0 > ' ~ rankwise._double_literal(recall) ~ ' * ' ~ n_relevant) }}
{% endmacro %}

{#- Interpolated precision at recall level `recall`: the largest P@rank at the
    ranks where the running hits reach the level. That largest precision is
    at a relevant rank (a rank that is not relevant has the hits of the
    relevant rank above it, over more ranks), so the judged rows suffice;
    NULL when no row reaches the level. -#}
{% macro _interpolated_precision_at(recall) %}
    {{ return('max(case when ' ~ rankwise._reaches_recall_level('rw_hits_so_far', recall, 'rw_n_relevant')
              ~ ' then rw_hits_so_far / cast(rw_rank as ' ~ rankwise.type_float64() ~ ') end)') }}
{% endmacro %}

{% macro _aggregate_interpolated_precision(spec, parameters) %}
    {{ return(rankwise._interpolated_precision_at(parameters.recall)) }}
{% endmacro %}

{#- The sum of the interpolated precisions at recall 0, 0.1, ..., 1, each 0
    where no relevant item reaches its level (trec_eval's 11pt_avg). -#}
{% macro _aggregate_interpolated_precision_11pt(spec) %}
    {%- set terms = [] -%}
    {%- for tenths in range(11) -%}
        {%- do terms.append('coalesce(' ~ rankwise._interpolated_precision_at(tenths / 10.0) ~ ', 0e0)') -%}
    {%- endfor -%}
    {{ return('(\n            ' ~ terms | join('\n            + ') ~ '\n        )') }}
{% endmacro %}

{#- trec_eval's Rprec_mult's rank: floor(m R + 0.9), in floating point as its
    m_Rprec_mult.c computes it. -#}
{% macro _rank_at_multiple_of_relevant(m, n_relevant) %}
    {{ return('floor(' ~ rankwise._double_literal(m) ~ ' * ' ~ n_relevant ~ ' + 0.9e0)') }}
{% endmacro %}

{#- The relevant items within rank floor(m R + 0.9). -#}
{% macro _aggregate_hits_within_multiple_of_relevant(spec, parameters) %}
    {{ return('count(case when rw_is_relevant = 1 and rw_rank <= ' ~ rankwise._rank_at_multiple_of_relevant(parameters.m, 'rw_n_relevant') ~ ' then 1 end)') }}
{% endmacro %}

{#- binG's sum over the relevant rows of 1 / log2(2 + n), n the items above
    the row that are not relevant (its rank less its running hits): the DCG
    discount of rank n + 1. -#}
{% macro _aggregate_bin_g_sum(spec) %}
    {{ return('sum(case when rw_is_relevant = 1 then ' ~ rankwise.rank_discount('rw_rank - rw_hits_so_far + 1') ~ ' else 0e0 end)') }}
{% endmacro %}

{#- G's sum over the rows that earn a gain g of g / log2(2 + C - S) (trec_eval's
    m_G.c): S the gains of the list up to the row, C the cost of the ideal list
    up to its rank, max(gain, 1) per position (1 past the ideal list's end):
    the rank plus the ideal list's gains above 1 up to it. -#}
{% macro _aggregate_g_sum(spec) %}
    {%- set gain = rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) -%}
    {%- set cost = 'rw_rank + coalesce(rw_ideal_excess, 0e0)' -%}
    {{ return('sum(case when ' ~ gain ~ ' <> 0 then ' ~ gain ~ ' * ' ~ rankwise.rank_discount('1 + ' ~ cost ~ ' - rw_gain_so_far')
              ~ ' else 0e0 end)') }}
{% endmacro %}

{#- The gains of the user's interactions, carried on each judged row. -#}
{% macro _aggregate_gain_total(spec) %}
    {{ return('max(rw_gain_total)') }}
{% endmacro %}

{#- Rndcg's sum of nDCG at the ends of the gain levels (trec_eval's
    m_Rndcg.c), as a sum over the rows: a row's DCG term over the IDCG of each
    level end at or after its rank (none past the ideal list's end). -#}
{% macro _aggregate_rndcg_sum(spec) %}
    {%- set term = rankwise.dcg_term('rw_rank', 'rw_relevance', spec.gain, spec.min_gain_relevance) -%}
    {{ return('sum(' ~ term ~ ' * rw_level_end_weight)') }}
{% endmacro %}

{#- The user's distinct gains, carried on each judged row. -#}
{% macro _aggregate_n_gain_levels(spec) %}
    {{ return('max(rw_n_gain_levels)') }}
{% endmacro %}

{#- The sum over the judged rows of p^(rank - 1), RBP's weights of the ranks
    whose item is judged. -#}
{% macro _aggregate_judged_rank_biased_weight(spec, parameters) %}
    {{ return('sum(' ~ rankwise.rank_biased_weight('rw_rank', parameters.p) ~ ')') }}
{% endmacro %}

{#- infAP's sum over the relevant rows of its estimate of P@rank (Yilmaz &
    Aslam 2006, in trec_eval's form, m_infap.c): 1/r + ((r - 1)/r) times the
    share of the r - 1 items above that are judged (here: in the
    interactions, or with negative_relevance='pooled' in the pool) times the
    smoothed share of the judged ones that are relevant, (h + eps) / (j + 2
    eps), h and j the relevant and judged items above and eps = 1e-5;
    (r - 1)/r times (j / (r - 1)) is j / r. -#}
{% macro _aggregate_inf_ap_sum(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set above = '(rw_judged_so_far - 1)' -%}
    {%- set pooled_above = '(rw_judged_so_far - 1 + rw_pooled_before)' if spec.negative_relevance == 'pooled' else above -%}
    {{ return('sum(case when rw_is_relevant = 1 then 1e0 / rw_rank + ' ~ pooled_above ~ ' / cast(rw_rank as ' ~ float ~ ')'
              ~ ' * ((rw_hits_so_far - 1 + 1e-5) / (' ~ above ~ ' + 2e-5)) else 0e0 end)') }}
{% endmacro %}

{#- ndcg_rel's sum over the rows that earn a gain of nDCG at their rank: the
    DCG up to the row over the IDCG at its rank (at the ideal list's end past
    it, as trec_eval's m_ndcg_rel.c). -#}
{% macro _aggregate_ndcg_rel_sum(spec) %}
    {%- set earns = rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) ~ ' > 0' -%}
    {{ return('sum(case when ' ~ earns ~ ' then rw_dcg_so_far / rw_ideal_prefix else 0e0 end)') }}
{% endmacro %}

{#- The items within the cutoff that earn a DCG gain. -#}
{% macro _aggregate_gains_retrieved(spec) %}
    {{ return('count(case when ' ~ rankwise.relevance_gain('rw_relevance', spec.gain, spec.min_gain_relevance) ~ ' > 0 then 1 end)') }}
{% endmacro %}

{#- The user's interactions that earn a gain, carried on each judged row. -#}
{% macro _aggregate_n_gains(spec) %}
    {{ return('max(rw_n_gains)') }}
{% endmacro %}
