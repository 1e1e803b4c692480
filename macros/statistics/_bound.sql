{#- `expression` (SQL) with `name` standing for the SQL `value`: a long
    operand that a formula repeats is written once. By default `name` is
    replaced in the text by the parenthesized value; on Spark the value is
    bound once as a lambda's argument, as Spark's parser is slow over each copy
    of a long repeated operand. `name` must occur nowhere in `expression` but as
    the operand (a name of the rw_bound_ family). -#}
{% macro _bound(value, name, expression) %}
    {{- return(adapter.dispatch('_bound', 'rankwise')(value, name, expression)) -}}
{% endmacro %}

{% macro default___bound(value, name, expression) %}
    {{- return(expression | replace(name, '(' ~ value ~ ')')) -}}
{% endmacro %}

{#- https://spark.apache.org/docs/latest/api/sql/index.html#transform -#}
{% macro spark___bound(value, name, expression) %}
    {{- return('transform(array(' ~ value ~ '), ' ~ name ~ ' -> ' ~ expression ~ ')[0]') -}}
{% endmacro %}
