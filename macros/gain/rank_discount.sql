{#- The DCG position discount 1 / log2(rank + 1), applied at every rank (rank 1 gets
    1, so this is also the "rel_1 + sum over i >= 2" form of document 004 in docs/metrics.md's Sources).
    ln() is used because one-argument log() is base 10 on DuckDB and PostgreSQL but
    natural on Spark. -#}
{% macro rank_discount(rank) %}
    {{- return(adapter.dispatch('rank_discount', 'rankwise')(rank)) -}}
{% endmacro %}

{% macro default__rank_discount(rank) -%}
    (ln(cast(2 as {{ rankwise.type_float64() }})) / ln(cast(({{ rank }}) as {{ rankwise.type_float64() }}) + 1))
{%- endmacro %}
