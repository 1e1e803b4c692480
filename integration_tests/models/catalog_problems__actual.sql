{#- The catalog check the wrapper and the package models run before
    intra_list_diversity reads a vector column (rankwise._catalog_problems), on
    each engine's arrays: the problems it finds, compared with
    seeds/expected__catalog_problems.csv. -#}
select problem, n_rows
from (
    {{ rankwise._catalog_problems(ref('input__beyond__recommendations'), ref('input__catalog_problems__items'),
                                  'item_id', 'vector', [], true) }}
) as problems
where n_rows > 0
