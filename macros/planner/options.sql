{#- The options of evaluate and compare: every option of the registry
    (conventions/convention_options.sql) given, resolved under its convention
    and checked as its kind says. -#}

{#- Every option of the registry: the convention's value for a preset option
    not given, the option's default for any other, and each checked as its
    kind says. A `users` mapping given adds to the convention's sets. -#}
{% macro _resolved_options(options, per_user, macro_name) %}
    {%- set registry = rankwise._option_registry() -%}
    {%- set presets = rankwise._convention_presets() -%}
    {%- set convention = options.get('convention', registry.convention.default) -%}
    {%- do rankwise._check_choice(macro_name, 'convention', convention, presets.keys() | list) -%}
    {%- set resolved = rankwise._updated(rankwise.convention_options(convention), {}) -%}
    {%- for name, option in registry.items() -%}
        {%- set value = options.get(name) -%}
        {%- if not option.get('preset') -%}
            {%- do resolved.update({name: option.default if name not in options else value}) -%}
        {%- elif value is none -%}
        {%- elif option.kind == 'user_set' and value is mapping -%}
            {%- do resolved.update({name: rankwise._updated(resolved[name] if resolved[name] is mapping else {'default': resolved[name]}, value)}) -%}
        {%- else -%}
            {%- do resolved.update({name: value}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for name, option in registry.items() -%}
        {%- if option.kind == 'choice' -%}
            {%- do rankwise._check_choice(macro_name, name, resolved[name], option.choices) -%}
        {%- elif option.kind == 'boolean' and resolved[name] is not boolean -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be true or false (" ~ option.help ~ "); got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'number' -%}
            {%- do rankwise._number_literal(macro_name, name, resolved[name]) -%}
        {%- elif option.kind == 'model' and resolved[name] is not none and not (resolved[name] is string or (resolved[name] is number and resolved[name] is not boolean and (resolved[name] - resolved[name]) == 0)) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a value of the model column (text or a finite number), or none; got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'optional_share' and resolved[name] is not none and not (resolved[name] is number and resolved[name] is not boolean and resolved[name] > 0 and resolved[name] <= 1) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a number above 0 and at most 1 (" ~ option.help ~ "), or none; got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'share' and not (resolved[name] is number and resolved[name] is not boolean and resolved[name] > 0 and resolved[name] <= 1) -%}
            {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `" ~ name ~ "` must be a number above 0 and at most 1 (" ~ option.help ~ "); got " ~ rankwise._describe(resolved[name]) ~ ".") }}
        {%- elif option.kind == 'log_base' -%}
            {#- 'e' is the natural log: none in the plan -#}
            {%- do resolved.update({name: none if resolved[name] == 'e' else resolved[name]}) -%}
            {%- do rankwise._check_log_base(macro_name, resolved[name]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if per_user is not boolean -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": argument `per_user` must be true or false; got " ~ rankwise._describe(per_user) ~ ".") }}
    {%- endif -%}
    {#- without a relevance column every interaction has relevance 1: a threshold
        above it would leave no item relevant, every binary metric 0 -#}
    {%- if resolved.relevance_col is none and resolved.relevance_threshold > 1 -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": relevance_threshold=" ~ rankwise._describe(resolved.relevance_threshold) ~ " (or a metric's `rel`) without `relevance_col`: every interaction then has relevance 1, below the threshold, so no item would be relevant and precision, recall, MAP and the like would be 0 for every user. Give `relevance_col`, or a threshold of at most 1.") }}
    {%- endif -%}
    {%- if resolved.idcg == 'k_positions' and resolved.gain != 'binary' -%}
        {{ exceptions.raise_compiler_error("rankwise." ~ macro_name ~ ": idcg='k_positions' counts every one of the k slots as a relevant item of gain 1, so it needs gain='binary'; got gain=" ~ rankwise._describe(resolved.gain) ~ ".") }}
    {%- endif -%}
    {{ return(resolved) }}
{% endmacro %}


{#- The options of a mapping given (the package models' var rankwise_options),
    resolved as evaluate resolves them. -#}
{% macro _options_resolved(given) %}
    {{ return(rankwise._resolved_options(rankwise._given_options('evaluate', given, []), false, 'evaluate')) }}
{% endmacro %}


{#- The options given to a macro (its `kwargs`), each checked by name: every
    option of the registry, none (or its default) when not given. -#}
{% macro _given_options(macro_name, given, arguments) %}
    {%- set registry = rankwise._option_registry() -%}
    {%- do rankwise._check_no_unknown_arguments(macro_name, given, arguments + (registry.keys() | list)) -%}
    {%- set options = {} -%}
    {%- for name, option in registry.items() -%}
        {%- do options.update({name: given[name] if name in given else (none if option.get('preset') else option.default)}) -%}
    {%- endfor -%}
    {{ return(options) }}
{% endmacro %}


{#- The arguments evaluate takes besides the two inputs and the options. -#}
{% macro _evaluate_arguments() %}
    {{ return(['metrics', 'k', 'group_by', 'per_user', 'partition_by', 'confidence', 'bootstrap_resamples', 'seed', 'items', 'train', 'validate']) }}
{% endmacro %}
