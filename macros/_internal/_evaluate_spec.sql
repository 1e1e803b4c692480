{#- Checks every argument of rankwise.evaluate and resolves them into one plan:
    which metric at which cutoff, which per-list components and cutoffs the one
    pass must compute, and the quoted column names. -#}
{% macro _evaluate_spec(metrics, k, group_by, per_user, user_col, item_col, rank_col, score_col, relevance_col,
                        ap_denominator, precision_denominator, gain, relevance_threshold, users, ties, log_base, duplicate_interactions) %}
    {%- do rankwise._check_choice('evaluate', 'ap_denominator', ap_denominator, ['relevant', 'min_relevant_k', 'hits']) -%}
    {%- do rankwise._check_choice('evaluate', 'precision_denominator', precision_denominator, ['k', 'list_length']) -%}
    {%- do rankwise._check_choice('evaluate', 'gain', gain, ['linear', 'exponential']) -%}
    {%- do rankwise._check_choice('evaluate', 'users', users, ['both', 'interactions', 'relevant']) -%}
    {%- do rankwise._check_choice('evaluate', 'ties', ties, ['item_desc', 'item_asc']) -%}
    {%- do rankwise._check_choice('evaluate', 'duplicate_interactions', duplicate_interactions, ['error', 'max']) -%}
    {%- if per_user is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `per_user` must be true or false; got " ~ rankwise._describe(per_user) ~ ".") }}
    {%- endif -%}
    {%- do rankwise._check_log_base('evaluate', log_base) -%}
    {%- if not (relevance_threshold is number and relevance_threshold is not boolean) -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `relevance_threshold` must be a number; got " ~ rankwise._describe(relevance_threshold) ~ ".") }}
    {%- endif -%}

    {#- columns -#}
    {%- for argument, value in [('user_col', user_col), ('item_col', item_col), ('rank_col', rank_col)] -%}
        {%- if value is not string or value | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `" ~ argument ~ "` must be a non-empty column name; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for argument, value in [('score_col', score_col), ('relevance_col', relevance_col)] -%}
        {%- if value is not none and (value is not string or value | length == 0) -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `" ~ argument ~ "` must be a non-empty column name or none; got " ~ rankwise._describe(value) ~ ".") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if group_by is none -%}{%- set group_by = [] -%}{%- elif group_by is string -%}{%- set group_by = [group_by] -%}{%- endif -%}
    {%- if group_by is mapping or group_by is not iterable -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `group_by` must be a column name or a list of them; got " ~ rankwise._describe(group_by) ~ ".") }}
    {%- endif -%}
    {%- set reserved = ['metric', 'k', 'value', 'n_users', 'n_relevant', 'n_recommended', 'hits', 'dcg', 'idcg'] -%}
    {%- if user_col in reserved -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: argument `user_col` may not be named '" ~ user_col ~ "': the output has a column of that name. Rename it in a view first.") }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for column in group_by -%}
        {%- if column is not string or column | length == 0 -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: every entry of `group_by` must be a non-empty column name; got " ~ rankwise._describe(column) ~ ".") }}
        {%- endif -%}
        {%- if column in reserved or column in [user_col, item_col] or (column | lower).startswith('rw_') -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: group_by column '" ~ column ~ "' clashes with a column rankwise uses (the user and item columns, " ~ reserved | join(', ') ~ ", or a name starting with rw_). Rename it in a view first.") }}
        {%- endif -%}
        {%- if rankwise.quote_identifier(column) in groups -%}
            {{ exceptions.raise_compiler_error("rankwise.evaluate: group_by lists column '" ~ column ~ "' twice.") }}
        {%- endif -%}
        {%- do groups.append(rankwise.quote_identifier(column)) -%}
    {%- endfor -%}

    {#- metrics and the components their formulas read -#}
    {%- set catalog = rankwise._metric_catalog() -%}
    {%- set plan = rankwise._parse_metrics(metrics, k) -%}
    {%- set user_metrics = [] -%}
    {%- set group_metrics = [] -%}
    {%- set components = [] -%}
    {%- set cutoffs = [] -%}
    {%- for entry in plan -%}
        {%- do entry.update({'position': loop.index}) -%}
        {%- if catalog[entry.name].level == 'user' -%}
            {%- do user_metrics.append(entry) -%}
            {%- for component in catalog[entry.name].components -%}
                {%- if component not in components %}{% do components.append(component) %}{% endif -%}
            {%- endfor -%}
            {%- if entry.k not in cutoffs %}{% do cutoffs.append(entry.k) %}{% endif -%}
        {%- else -%}
            {%- do group_metrics.append(entry) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- per-user rows carry hits, list length, DCG and IDCG for drill-down -#}
    {%- set drill_down = ['hits', 'n_recommended', 'dcg', 'idcg'] if per_user else ['hits', 'n_recommended'] -%}
    {%- for component in drill_down -%}
        {%- if component not in components %}{% do components.append(component) %}{% endif -%}
    {%- endfor -%}
    {%- if per_user and group_metrics | length > 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.evaluate: " ~ (group_metrics | map(attribute='name') | join(', ')) ~ " has one value per group, not per user; drop it from `metrics` when per_user is true.") }}
    {%- endif -%}

    {{ return({
        'user_metrics': user_metrics,
        'group_metrics': group_metrics,
        'components': components,
        'cutoffs': cutoffs,
        'needs_running_hits': ('precision_sum' in components or 'precision_sum_to_full_recall' in components),
        'groups': groups,
        'per_user': per_user,
        'user_col': user_col,
        'user': rankwise.quote_identifier(user_col),
        'item': rankwise.quote_identifier(item_col),
        'rank': rankwise.quote_identifier(rank_col),
        'score': none if score_col is none else rankwise.quote_identifier(score_col),
        'relevance': none if relevance_col is none else rankwise.quote_identifier(relevance_col),
        'ap_denominator': ap_denominator,
        'precision_denominator': precision_denominator,
        'gain': gain,
        'relevance_threshold': relevance_threshold,
        'users': users,
        'ties': ties,
        'log_base': log_base,
        'duplicate_interactions': duplicate_interactions,
    }) }}
{% endmacro %}
