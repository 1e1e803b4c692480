{#- One column or table name supplied by the user, as SQL. A plain lower-case name
    (ASCII letters, digits and underscores, not starting with a digit) that is no
    reserved word is written as it is: quoted, Snowflake and other engines that
    fold unquoted names to upper case would look for a lower-case name and miss
    an ordinarily created column. Any other name is quoted, and every quote
    character inside it escaped: doubled as the SQL standard requires
    (backslash-escaped on BigQuery), since adapter.quote() does not escape one
    and a hostile name could close the quotes. -#}
{% macro quote_identifier(name) %}
    {%- if name is not string or name | length == 0 -%}
        {{ exceptions.raise_compiler_error("rankwise.quote_identifier: a column name must be a non-empty string; got " ~ (name | string) ~ ".") }}
    {%- endif -%}
    {%- if rankwise._is_plain_identifier(name) -%}
        {{- return(name) -}}
    {%- endif -%}
    {{- return(adapter.dispatch('quote_identifier', 'rankwise')(name)) -}}
{% endmacro %}

{% macro _is_plain_identifier(name) %}
    {{ return(name.isascii() and name.isidentifier() and name == name | lower and name not in rankwise._reserved_words()) }}
{% endmacro %}

{#- The reserved words of the engines rankwise's SQL is written for, which no
    unquoted name may be: DuckDB's (and so PostgreSQL's), those sqlglot lists for
    BigQuery, DuckDB, Redshift and Trino, and Snowflake's (docs.snowflake.com,
    "Reserved & limited keywords"). tests/unit/test_dialects.py checks the list
    against duckdb_keywords() and sqlglot. -#}
{% macro _reserved_words() %}
    {{ return([
        'account', 'aes128', 'aes256', 'all', 'allowoverwrite', 'alter', 'analyse', 'analyze', 'and', 'anti',
        'any', 'array', 'as', 'asc', 'asof', 'assert_rows_modified', 'asymmetric', 'at', 'authorization',
        'az64', 'backup', 'between', 'binary', 'blanksasnull', 'both', 'by', 'bytedict', 'bzip2', 'case',
        'cast', 'check', 'collate', 'collation', 'column', 'columns', 'concurrently', 'connect',
        'connection', 'constraint', 'contains', 'create', 'credentials', 'cross', 'cube', 'current',
        'current_catalog', 'current_date', 'current_role', 'current_time', 'current_timestamp',
        'current_user', 'current_user_id', 'database', 'deallocate', 'default', 'deferrable', 'define',
        'deflate', 'defrag', 'delete', 'delta', 'delta32k', 'desc', 'describe', 'disable', 'distinct', 'do',
        'drop', 'else', 'emptyasnull', 'enable', 'encode', 'encrypt     ', 'encryption', 'end', 'enum',
        'escape', 'except', 'exclude', 'execute', 'exists', 'explicit', 'extract', 'false', 'fetch',
        'following', 'for', 'foreign', 'freeze', 'from', 'full', 'generated', 'glob', 'globaldict256',
        'globaldict64k', 'grant', 'group', 'grouping', 'groups', 'gscluster', 'gzip', 'hash', 'having',
        'identity', 'if', 'ignore', 'ilike', 'in', 'increment', 'initially', 'inner', 'insert', 'intersect',
        'interval', 'into', 'is', 'isnull', 'issue', 'join', 'lambda', 'lateral', 'leading', 'left', 'like',
        'limit', 'localtime', 'localtimestamp', 'lookup', 'lun', 'luns', 'lzo', 'lzop', 'map', 'merge',
        'minus', 'mostly16', 'mostly32', 'mostly8', 'natural', 'new', 'no', 'not', 'notnull', 'null',
        'nulls', 'of', 'off', 'offline', 'offset', 'oid', 'old', 'on', 'only', 'open', 'or', 'order',
        'organization', 'outer', 'over', 'overlaps', 'parallel', 'partition', 'percent', 'permissions',
        'pivot', 'pivot_longer', 'pivot_wider', 'placing', 'positional', 'preceding', 'prepare', 'primary',
        'proto', 'qualify', 'range', 'raw', 'readratio', 'recover', 'recursive', 'references', 'regexp',
        'rejectlog', 'resort', 'respect', 'restore', 'returning', 'revoke', 'right', 'rlike', 'rollup',
        'row', 'rows', 'sample', 'schema', 'select', 'semi', 'session_user', 'set', 'show', 'similar',
        'snapshot', 'some', 'start', 'struct', 'summarize', 'symmetric', 'sysdate', 'system', 'table',
        'tablesample', 'tag', 'tdes', 'text255', 'text32k', 'then', 'timestamp', 'to', 'top', 'trailing',
        'treat', 'trigger', 'true', 'truncatecolumns', 'try_cast', 'tuple', 'type', 'unbounded', 'union',
        'unique', 'unnest', 'unpack', 'unpivot', 'update', 'user', 'using', 'values', 'variadic', 'verbose',
        'view', 'wallet', 'when', 'whenever', 'where', 'window', 'with', 'within', 'without'
    ]) }}
{% endmacro %}

{% macro default__quote_identifier(name) -%}
    "{{ name | replace('"', '""') }}"
{%- endmacro %}

{#- Spark quotes identifiers with backticks:
    https://spark.apache.org/docs/latest/sql-ref-identifier.html -#}
{% macro spark__quote_identifier(name) -%}
    `{{ name | replace('`', '``') }}`
{%- endmacro %}

{#- ClickHouse reads a quoted identifier's backslash escapes as a string
    literal's ("rel\evance" is the name relvance), so a backslash is doubled as
    well as the quote: https://clickhouse.com/docs/sql-reference/syntax#identifiers -#}
{% macro clickhouse__quote_identifier(name) -%}
    "{{ name | replace('\\', '\\\\') | replace('"', '""') }}"
{%- endmacro %}

{#- BigQuery quotes identifiers with backticks, and a quoted identifier takes the
    backslash escapes of a string literal (a doubled backtick would end it):
    https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#quoted_identifiers -#}
{% macro bigquery__quote_identifier(name) -%}
    `{{ name | replace('\\', '\\\\') | replace('`', '\\`') }}`
{%- endmacro %}
