{#- The beyond-accuracy catalog with vectors that intra_list_diversity's check
    refuses: i01's is shorter than the others, i02's all zeros. -#}
select
    item_id,
    case
        when item_id = 'i01' then {{ array_of_doubles(['f1', 'f2']) }}
        when item_id = 'i02' then {{ array_of_doubles(['0.0', '0.0', '0.0']) }}
        else {{ array_of_doubles(['f1', 'f2', 'f3']) }}
    end as vector
from {{ ref('input__beyond__items') }}
