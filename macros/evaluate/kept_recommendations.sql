{#- The rows of the recommendations an evaluation keeps under the options
    that drop some before ranking, each said in the output's warnings
    (the public macro dropped_recommendations counts them):
      judged_only               an item not in its user's interactions (trec_eval's
                                -J; Sakai's condensed lists)
      ignore_identical_ids      an item whose id equals its user's (BEIR: a
                                document retrieved for itself)
      duplicate_recommendations='first'  every occurrence of an item in a list
                                but its first (the best rank, or score)
    The ranks of the rows kept: derived from the scores of the rows kept with
    score_col; with rank_col, each rank less the rows dropped before it, so
    that the list closes up and a gap of the input stays a gap. -#}

{#- Whether an evaluation drops rows before ranking. -#}
{% macro _drops_recommendations(spec) %}
    {{ return(spec.judged_only or spec.ignore_identical_ids or spec.duplicate_recommendations == 'first') }}
{% endmacro %}

{#- The recommendations with a flag per reason to drop a row (rw_unjudged,
    rw_identical, rw_repeated: 1 or 0) and rw_dropped, the three's largest;
    `columns` the quoted names: user, item, rank (none with score), score,
    lists (the columns besides the user that tell lists apart) and partitions. -#}
{% macro _flagged_recommendations(recommendations, interactions, columns, drops) %}
    {%- set list = [] -%}
    {%- for column in columns.lists + [columns.user] %}{% do list.append('recommendation.' ~ column) %}{% endfor -%}
    {%- set list = list | join(', ') -%}
    {%- set order = 'recommendation.' ~ columns.rank ~ ' asc' if columns.score is none else 'recommendation.' ~ columns.score ~ ' desc nulls last' -%}
    {%- set unjudged = 'case when coalesce(judgement.rw_in_judgments, 0) = 0 then 1 else 0 end' if drops.judged_only else '0' -%}
    {%- set identical = 'case when recommendation.' ~ columns.user ~ ' = recommendation.' ~ columns.item ~ ' then 1 else 0 end' if drops.ignore_identical_ids else '0' -%}
    {%- set repeated = 'case when row_number() over (partition by ' ~ list ~ ', recommendation.' ~ columns.item ~ ' order by ' ~ order ~ ') > 1 then 1 else 0 end'
                       if drops.duplicate_recommendations == 'first' else '0' -%}
    {%- set flagged -%}
        select
            recommendation.*,
            {{ unjudged }} as rw_unjudged,
            {{ identical }} as rw_identical,
            {{ repeated }} as rw_repeated
        from {{ recommendations }} as recommendation
        {%- if drops.judged_only %}
        left join (
            select distinct {% for column in columns.partitions %}{{ column }}, {% endfor %}{{ columns.user }} as rw_judged_user, {{ columns.item }} as rw_judged_item, 1 as rw_in_judgments
            from {{ interactions }}
        ) as judgement
            on judgement.rw_judged_user = recommendation.{{ columns.user }}
            and judgement.rw_judged_item = recommendation.{{ columns.item }}
            {%- for column in columns.partitions %}
            and {{ rankwise.null_safe_equals('judgement.' ~ column, 'recommendation.' ~ column) }}
            {%- endfor %}
        {%- endif %}
    {%- endset -%}
    {{ return(flagged) }}
{% endmacro %}

{#- The relation rw_recommendations reads in place of the recommendations
    when rows are dropped: the rows kept, with rw_kept_rank under rank_col. -#}
{% macro _kept_recommendations(spec) %}
    {%- set lists = rankwise._list_columns_of_the_input(spec) -%}
    {%- set flagged = rankwise._flagged_recommendations(spec.relations.recommendations, spec.relations.interactions, rankwise._kept_columns(spec), spec) -%}
    {%- set kept -%}
(
        -- the rows kept, those dropped before ranking flagged first: {{ rankwise._drop_reasons(spec) | join(', ') }}
        select rw_counted.*
        from (
            select
                rw_flagged.*
                {%- if spec.score is none %},
                {{ spec.rank }} - coalesce(sum(greatest(rw_unjudged, rw_identical, rw_repeated)) over (
                    partition by {{ (lists + [spec.user]) | join(', ') }} order by {{ spec.rank }}
                    rows between unbounded preceding and current row), 0) as rw_kept_rank
                {%- endif %}
            from (
                {{ flagged | indent(8) }}
            ) as rw_flagged
        ) as rw_counted
        where rw_unjudged = 0 and rw_identical = 0 and rw_repeated = 0
    )
    {%- endset -%}
    {{ return(kept) }}
{% endmacro %}

{#- The quoted columns _flagged_recommendations reads, from the plan. -#}
{% macro _kept_columns(spec) %}
    {{ return({'user': spec.user, 'item': spec.item, 'rank': spec.rank, 'score': spec.score,
               'lists': rankwise._list_columns_of_the_input(spec), 'partitions': spec.partitions}) }}
{% endmacro %}

{#- The group columns of the recommendations as given: the user group is
    joined on from the interactions, and a user is in one. -#}
{% macro _list_columns_of_the_input(spec) %}
    {{ return(spec.groups | reject('equalto', spec.user_group) | list) }}
{% endmacro %}

{#- The options under which the plan drops rows, as the query's comment names them. -#}
{% macro _drop_reasons(spec) %}
    {%- set reasons = [] -%}
    {%- if spec.judged_only %}{% do reasons.append('judged_only') %}{% endif -%}
    {%- if spec.ignore_identical_ids %}{% do reasons.append('ignore_identical_ids') %}{% endif -%}
    {%- if spec.duplicate_recommendations == 'first' %}{% do reasons.append("duplicate_recommendations='first'") %}{% endif -%}
    {{ return(reasons) }}
{% endmacro %}
