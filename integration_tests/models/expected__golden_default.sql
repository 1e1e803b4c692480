select example_id, user_id, metric, k, expected_value, expected_n_users
from {{ ref('expected__cases') }}
where variant = 'golden__default'
