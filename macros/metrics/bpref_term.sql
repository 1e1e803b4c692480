{#- One relevant item's term of bpref (Buckley & Voorhees 2004, as trec_eval's
    m_bpref.c computes it): 1 - min(n, R) / min(N, R), with n the judged
    non-relevant items ranked above it, R the user's relevant items and N its
    judged non-relevant items; 1 when n is 0. bpref is the sum of the terms
    over the relevant items retrieved, over R. Unjudged items count neither
    way. -#}
{% macro bpref_term(nonrelevant_before, n_relevant, n_nonrelevant) %}
    {{- return(adapter.dispatch('bpref_term', 'rankwise')(nonrelevant_before, n_relevant, n_nonrelevant)) -}}
{% endmacro %}

{#- n > 0 implies N >= 1 and R >= 1 (the item itself): the division is never by 0. -#}
{% macro default__bpref_term(nonrelevant_before, n_relevant, n_nonrelevant) -%}
    (case when ({{ nonrelevant_before }}) > 0
        then 1e0 - {{ rankwise.safe_divide('least(' ~ nonrelevant_before ~ ', ' ~ n_relevant ~ ')', 'least(' ~ n_nonrelevant ~ ', ' ~ n_relevant ~ ')') }}
        else 1e0 end)
{%- endmacro %}
