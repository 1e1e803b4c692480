{#- IDCG in the aggregate that counts each user's truth (rw_user_truth_counts)
    instead of a pass of its own (ideal_ranks.sql): that aggregate reads the
    interactions numbered by relevance within their user, and sums each
    cutoff's DCG terms of the ideal list as one more column per cutoff. The
    truth is then grouped by user once, where ideal_ranks groups it twice
    (once sorted), which is what an engine that sorts and hashes under little
    memory (PostgreSQL at its default work_mem) pays most for: the numbering's
    order is its user's, so the aggregate after it can read the rows as they
    come. Every user's IDCG is summed, there being no second pass to spare.
    The plan picks it on such an engine (_engine_groups_ranked_truth) when
    every cutoff is finite and they are few (a column each). -#}

{#- The interactions with rw_ideal_rank, each row's position in its user's
    ideal list, for rw_user_truth_counts to read under the name it reads
    rw_interactions by. -#}
{% macro _ranked_interactions(spec) %}
    {%- set ranked -%}
(
        select
            rw_interactions.*,
            row_number() over (partition by {{ rankwise._partition_columns(spec) }}rw_user order by rw_relevance desc nulls last) as rw_ideal_rank
        from rw_interactions
    ) as rw_interactions
    {%- endset -%}
    {{ return(ranked) }}
{% endmacro %}

{#- rw_user_truth_counts' IDCG columns: per cutoff, the DCG terms of the
    ideal positions within it. -#}
{% macro _idcg_columns__ranked_truth(spec) %}
    {%- set term = rankwise.dcg_term('rw_ideal_rank', 'rw_relevance', spec.gain, spec.min_gain_relevance) -%}
    {%- set names = rankwise._idcg_column_names__ranked_truth(spec) -%}
    {%- set columns = [] -%}
    {%- for cutoff in spec.cutoffs -%}
        {%- do columns.append('sum(case when rw_ideal_rank <= ' ~ cutoff ~ ' then ' ~ term ~ ' else 0 end) as ' ~ names[loop.index0]) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}

{% macro _idcg_column_names__ranked_truth(spec) %}
    {%- set names = [] -%}
    {%- for cutoff in spec.cutoffs -%}
        {%- do names.append('rw_idcg_at_' ~ cutoff) -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}

{#- The truth row the IDCG is read off is already joined, as `truth`, by
    every stage that reads IDCG (rw_user_components, whose rows with every
    user carry the columns on, rw_idcg_sums, rw_truth_idcg_sums). -#}
{% macro _join_ideal_lists__ranked_truth(alias, limit, spec) %}
    {%- if alias != 'truth' -%}
        {{ exceptions.raise_compiler_error("rankwise: the ranked_truth IDCG is read off the truth row joined as `truth`, not `" ~ alias ~ "`.") }}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}

{% macro _idcg_value__ranked_truth(limit, spec) %}
    {%- set cases = [] -%}
    {%- for cutoff in spec.cutoffs -%}
        {%- do cases.append(' when ' ~ cutoff ~ ' then truth.rw_idcg_at_' ~ cutoff) -%}
    {%- endfor -%}
    {{ return('(case ' ~ limit ~ cases | join('') ~ ' end)') }}
{% endmacro %}
