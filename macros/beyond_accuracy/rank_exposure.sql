{#- The attention a browsing model gives the slot at rank `rank` (the weight an
    item's exposure sums over its slots within k): exposure_model 'dcg',
    1 / log2(rank + 1), the discount of DCG (a user who looks at every rank, less
    and less); or 'rbp', p^(rank - 1), the chance that a user who reads on with
    chance `persistence` reaches the rank (Moffat & Zobel's RBP; LensKit's
    GeometricRankWeight). A persistence of 1 weighs every slot 1, so that
    exposure is the slot count gini reads. Built from the blocks DCG and RBP
    read, so the weights are theirs on every engine. -#}
{% macro rank_exposure(rank, exposure_model='dcg', persistence=0.8) %}
    {%- do rankwise._check_choice('rank_exposure', 'exposure_model', exposure_model, ['dcg', 'rbp']) -%}
    {%- if not (persistence is number and persistence is not boolean and persistence > 0 and persistence <= 1) -%}
        {{ exceptions.raise_compiler_error("rankwise.rank_exposure: argument `persistence` must be a number above 0 and at most 1 (the chance of reading on to the next rank); got " ~ rankwise._describe(persistence) ~ ".") }}
    {%- endif -%}
    {{- return(adapter.dispatch('rank_exposure', 'rankwise')(rank, exposure_model, persistence)) -}}
{% endmacro %}

{% macro default__rank_exposure(rank, exposure_model, persistence) -%}
    {%- if exposure_model == 'dcg' -%}
        {{ rankwise.rank_discount(rank) }}
    {%- elif persistence == 1 -%}
        1e0
    {%- else -%}
        {{ rankwise.rank_biased_weight(rank, persistence) }}
    {%- endif -%}
{%- endmacro %}
