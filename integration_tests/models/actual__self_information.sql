{#- Document 001's information of single outcomes, the terms of its entropy. -#}
select
    outcome,
    {{ rankwise.self_information('cast(numerator as ' ~ rankwise.type_float64() ~ ') / denominator') }} as value
from {{ ref('expected__self_information') }}
