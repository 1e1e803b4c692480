{#- The novelty of one recommended item, in bits: -log2(p), p its share of the
    train table's users (or interactions) who interacted with it. An item nobody
    interacted with counts as one (`unseen`='one', RecTools' MeanInvUserFreq),
    the most novel an item can be, rather than an infinite self-information;
    'zero' gives it 0 (Recommenders' novelty), 'dropped' NULL, so that a mean
    leaves it out (Evidently's NoveltyMetric). -#}
{% macro item_novelty(item_count, train_count, unseen='one') %}
    {%- do rankwise._check_choice('item_novelty', 'unseen', unseen, ['one', 'dropped', 'zero']) -%}
    {{- return(adapter.dispatch('item_novelty', 'rankwise')(item_count, train_count, unseen)) -}}
{% endmacro %}

{% macro default__item_novelty(item_count, train_count, unseen) -%}
    {%- set float = rankwise.type_float64() -%}
    {%- if unseen == 'one' -%}
    (-ln(cast(coalesce({{ item_count }}, 1) as {{ float }}) / cast({{ train_count }} as {{ float }})) / ln(2e0))
    {%- else -%}
    (case when {{ item_count }} is null then {{ 'cast(null as ' ~ float ~ ')' if unseen == 'dropped' else '0e0' }}
          else -ln(cast({{ item_count }} as {{ float }}) / cast({{ train_count }} as {{ float }})) / ln(2e0) end)
    {%- endif -%}
{%- endmacro %}
