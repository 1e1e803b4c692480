{#- Catalog coverage@k of one group: the share of the catalog that fills at least
    one top-k slot of the group's lists, distinct items shown / catalog size. -#}
{% macro catalog_coverage(n_items_shown, catalog_size) %}
    {{- return(adapter.dispatch('catalog_coverage', 'rankwise')(n_items_shown, catalog_size)) -}}
{% endmacro %}

{% macro default__catalog_coverage(n_items_shown, catalog_size) -%}
    {{ rankwise.safe_divide(n_items_shown, catalog_size) }}
{%- endmacro %}
