{#- The catalog with its three numbers as one vector column, the array type of
    each engine, for intra_list_diversity's cosine distance. -#}
select
    item_id,
    {{ array_of_doubles(['f1', 'f2', 'f3']) }} as vector
from {{ ref('input__beyond__items') }}
