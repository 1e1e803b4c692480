{#- The (list, value) pairs of `rows` (rw_rows) that occur more than once, with
    their count; with `check_flag`, only among the lists of `lists`
    (rw_lists_to_check) whose flag is 1. -#}
{% macro _repeated_in_list(value, list_key, groups, check_flag, rows='rw_rows', lists='rw_lists_to_check') -%}
    select {% for column in list_key %}rw_rows.{{ column }} as {{ column }}, {% endfor %}rw_rows.{{ value }} as {{ value }}, count(*) as rw_n
    from {{ rows }}{{ ' as rw_rows' if rows != 'rw_rows' }}
    {%- if check_flag is not none %}
    inner join {{ lists }} as suspect
        on rw_rows.rw_user = suspect.rw_user
        {%- for column in groups %}
        and {{ rankwise.null_safe_equals('rw_rows.' ~ column, 'suspect.' ~ column) }}
        {%- endfor %}
        and suspect.{{ check_flag }} = 1
    {%- endif %}
    where rw_rows.rw_user is not null and rw_rows.{{ value }} is not null
    group by {% for column in list_key %}rw_rows.{{ column }}, {% endfor %}rw_rows.{{ value }}
    having count(*) > 1
{%- endmacro %}
