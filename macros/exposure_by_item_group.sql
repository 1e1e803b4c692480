{#- rankwise.exposure_by_item_group: who the lists give attention to, item group
    by item group, for a chart or a dashboard. One row per (group of the output,
    k, item group of the catalog), every item group of the catalog in every
    group (0 where the lists never show it):

      <partition_by and group_by columns>, k (NULL for the whole list),
      item_group        the value of item_group_col
      n_items           the catalog's items in the item group
      exposure          the sum of its items' exposure within k (each slot
                        weighted by exposure_model, as exposure_gini reads it)
      exposure_share    E_g: exposure over the group's total (NULL if none)
      n_relevant_pairs  the relevant (user, item) pairs of the interactions (per
                        partition) whose item is in the item group
      relevance_share   R_g: n_relevant_pairs over the partition's total (NULL
                        if the partition has no relevant pair)
      exposure_ratio    E_g / R_g: 1 when attention is proportional to relevance
                        (NULL where R_g is 0 or NULL)

    exposure_disparity@k is 1/2 the sum of |exposure_share - relevance_share|
    over the rows of one (group, k): the same stages (stage_item_groups.sql).
    The arguments and options mean what they mean in evaluate; item_group_col
    is required. -#}
{% macro exposure_by_item_group(recommendations, interactions, items, k=none, group_by=none, partition_by=none) %}
    {%- set spec = rankwise._evaluation_spec(['exposure_disparity'], k, group_by, false, partition_by, none, none, 0, items, none, kwargs, 'exposure_by_item_group') -%}
    {%- do rankwise._plan_stages(spec, rankwise._stage_roots().exposure_by_item_group) -%}
    {%- do rankwise._check_relation_columns(recommendations, interactions, spec.columns_read, {'items': items, 'train': none}) -%}
    {%- if rankwise._dbt_is_parsing() -%}{{ return('') }}{%- endif -%}
    {{- return(adapter.dispatch('exposure_by_item_group', 'rankwise')(recommendations, interactions, spec)) -}}
{% endmacro %}

{#- evaluate's stages up to each item group's shares, then one SELECT per cutoff. -#}
{% macro default__exposure_by_item_group(recommendations, interactions, spec) -%}
{%- do spec.update({'relations': {'recommendations': recommendations, 'interactions': interactions, 'items': spec.items_relation}}) -%}
{%- set keys = [] -%}
{%- for column in spec.groups %}{% do keys.append(column ~ ' asc nulls last') %}{% endfor -%}
{%- set query -%}
with

{{ rankwise._written_stages(spec) | join(',\n\n') }}

select{{ rankwise._one_partition_hint() }} * from (
{{ rankwise._written_outputs(spec) | join('\n\nunion all\n\n') }}
) as rw_result
order by {{ (keys + ['k asc nulls last', 'item_group asc nulls last']) | join(', ') }}
{%- endset -%}
{{ rankwise._wrapped_lines(query) }}
{%- endmacro %}

{#- The item groups' shares at each cutoff, one SELECT per cutoff. -#}
{% macro _output_item_group_exposure(spec) %}
    {%- set float = rankwise.type_float64() -%}
    {%- set outputs = [] -%}
    {%- for entry in spec.item_group_metrics -%}
        {%- do outputs.append('select\n    ' ~ rankwise._selected_columns(spec.groups, 'shares')
            ~ 'cast(' ~ (entry.k if entry.k is not none else 'null') ~ ' as bigint) as k,\n'
            ~ '    shares.rw_item_group as item_group,\n'
            ~ '    cast(shares.rw_n_items as bigint) as n_items,\n'
            ~ '    cast(shares.rw_exposure__' ~ entry.position ~ ' as ' ~ float ~ ') as exposure,\n'
            ~ '    cast(shares.rw_exposure_share__' ~ entry.position ~ ' as ' ~ float ~ ') as exposure_share,\n'
            ~ '    cast(shares.rw_relevant_pairs as bigint) as n_relevant_pairs,\n'
            ~ '    cast(shares.rw_relevance_share as ' ~ float ~ ') as relevance_share,\n'
            ~ '    cast(' ~ rankwise.safe_divide('shares.rw_exposure_share__' ~ entry.position, 'shares.rw_relevance_share') ~ ' as ' ~ float ~ ') as exposure_ratio\n'
            ~ 'from rw_item_group_shares as shares') -%}
    {%- endfor -%}
    {{ return(outputs | join('\n\nunion all\n\n')) }}
{% endmacro %}
