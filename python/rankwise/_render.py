"""Renders the dbt macros of ``macros/`` outside dbt.

The macros are the one source of rankwise's SQL; this module gives them the small
part of dbt's Jinja context they use, so the Python wrapper runs the very text
that dbt compiles:

- ``adapter.dispatch(name, 'rankwise')`` resolving ``<adapter>__name``, then the
  adapter's parents (as dbt does: redshift -> postgres, databricks -> spark), then
  ``default__name``;
- ``return(value)``, which raises and is caught by the wrapper of the macro that
  called it (a naive stub would render a returned list as text);
- ``exceptions.raise_compiler_error(message)``, raised as
  :class:`rankwise.errors.InvalidArgumentError`;
- the ``rankwise`` namespace, a dict, so that private helpers (``rankwise._x``)
  resolve as they do in dbt;
- ``dbt.type_string()``, ``modules.re`` and the ``do`` statement.

dbt renders in a sandboxed Jinja environment; so does this module, so a macro
that works here does not rely on anything dbt would refuse. See
docs/decisions/0001-rendering-macros-in-python.md for the choice and its limits.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import types
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import jinja2.runtime
import jinja2.sandbox

from .errors import InvalidArgumentError

PACKAGE_NAME = "rankwise"

# Search order of dispatch for each adapter type, after the type itself (dbt's
# adapter inheritance), ending in `default`.
ADAPTER_PARENTS: dict[str, tuple[str, ...]] = {
    "redshift": ("postgres",),
    "databricks": ("spark",),
}


class _MacroReturn(Exception):
    """Carries the value of ``{{ return(value) }}`` out of a macro's body."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


def _return(value: Any) -> None:
    raise _MacroReturn(value)


def _raise_compiler_error(message: str) -> None:
    raise InvalidArgumentError(str(message))


class _Exceptions:
    raise_compiler_error = staticmethod(_raise_compiler_error)


class _Adapter:
    """The part of dbt's ``adapter`` object the macros use."""

    def __init__(self, namespaces: dict[str, dict[str, Callable[..., Any]]], adapter_type: str) -> None:
        self._namespaces = namespaces
        self._search_order = (adapter_type, *ADAPTER_PARENTS.get(adapter_type, ()), "default")

    def dispatch(self, macro_name: str, macro_namespace: str | None = None) -> Callable[..., Any]:
        namespace = self._namespaces[macro_namespace or PACKAGE_NAME]
        for prefix in self._search_order:
            candidate = namespace.get(f"{prefix}__{macro_name}")
            if candidate is not None:
                return candidate
        raise InvalidArgumentError(f"rankwise: no implementation of macro '{macro_name}' for {self._search_order[0]}")


class _DbtNamespace:
    """The cross-database macros of dbt's own namespace that the macros call."""

    def __init__(self, adapter_type: str) -> None:
        self._adapter_type = adapter_type

    def type_string(self) -> str:
        # As the adapters' own type_string(): `string` on Spark, Databricks and
        # BigQuery (which has no varchar), `String` on ClickHouse, `varchar`
        # elsewhere.
        if self._adapter_type == "clickhouse":
            return "String"
        return "string" if self._adapter_type in ("spark", "databricks", "bigquery") else "varchar"


# dbt generic tests ({% test %} blocks) are for dbt only; the wrapper runs the
# macros they call.
_DBT_ONLY_FOLDERS = ("generic_tests",)


def _macro_sources(macro_root: Path) -> Iterator[Path]:
    for path in sorted(macro_root.rglob("*.sql")):
        if not any(part in _DBT_ONLY_FOLDERS for part in path.relative_to(macro_root).parts):
            yield path


def default_macro_root() -> Path:
    """The macros shipped in the wheel (rankwise/macros), else the repository's
    ``macros/`` for an editable install or a source checkout."""
    shipped = Path(str(resources.files(PACKAGE_NAME))) / "macros"
    if shipped.is_dir():
        return shipped
    repository = Path(__file__).resolve().parents[2] / "macros"
    if repository.is_dir():
        return repository
    raise FileNotFoundError(
        "rankwise: the dbt macros were not found, neither in the installed package "
        f"({shipped}) nor in a source checkout ({repository})."
    )


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    try:
        return jinja2.FileSystemBytecodeCache(pattern="rankwise-%s.cache")
    except OSError:  # no writable temp folder: compile every time
        return None


_RENDERERS = itertools.count()


class MacroRenderer:
    """All macros of the package, rendered for one adapter type (dialect)."""

    def __init__(self, adapter_type: str = "duckdb", macro_root: Path | None = None) -> None:
        self.adapter_type = adapter_type
        # what the caches of plans and SQL are kept under: a renderer of other
        # macros (a package's copy) plans anew
        self.identity = next(_RENDERERS)
        self.macro_root = macro_root or default_macro_root()
        self.environment = jinja2.sandbox.SandboxedEnvironment(
            # dbt's own extensions (dbt_common.clients.jinja.get_environment)
            extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"],
            undefined=jinja2.StrictUndefined,
            loader=jinja2.FileSystemLoader(self.macro_root),
            # Compiling the macro files is a cost per process; Jinja's
            # bytecode cache (in the system temp folder, keyed by source) saves it.
            bytecode_cache=_bytecode_cache(),
        )
        self.namespace: dict[str, Callable[..., Any]] = {}
        self._context: dict[str, Any] = {
            PACKAGE_NAME: self.namespace,
            "adapter": _Adapter({PACKAGE_NAME: self.namespace}, adapter_type),
            "exceptions": _Exceptions(),
            "return": _return,
            "dbt": _DbtNamespace(adapter_type),
            # dbt's `modules`: the Python modules a macro may use (re, for the
            # layout of the rendered SQL: macros/evaluate/layout.sql)
            "modules": types.SimpleNamespace(re=re),
            # As in dbt's parse phase, no macro runs a query here (the wrapper
            # checks its inputs in Python before the SQL runs); with no `model`
            # in the context, the metric macros still write their query
            # (macros/evaluate/helpers.sql, _dbt_is_parsing).
            "execute": False,
        }
        sources = hashlib.sha256()
        for path in _macro_sources(self.macro_root):
            sources.update(path.read_bytes())
            self._load(path)
        memo_folder = getattr(self.environment.bytecode_cache, "directory", None)
        for name in _PURE_MACROS:
            self.namespace[name] = _memoised(self.namespace[name], name, sources.hexdigest(), memo_folder)

    def _load(self, path: Path) -> None:
        template = self.environment.get_template(path.relative_to(self.macro_root).as_posix())
        context = template.new_context(vars=self._context)
        # Running the template's top level defines its macros in context.vars,
        # private ones (_name) included, which a template module would hide.
        for _ in template.root_render_func(context):
            pass
        for name, value in context.vars.items():
            if isinstance(value, jinja2.runtime.Macro):
                if name in self.namespace:
                    raise RuntimeError(f"rankwise: macro '{name}' is defined twice ({path})")
                self.namespace[name] = _catch_return(value)

    def call(self, macro_name: str, *args: Any, **kwargs: Any) -> Any:
        """Calls ``rankwise.<macro_name>`` as a dbt model would."""
        try:
            macro = self.namespace[macro_name]
        except KeyError:
            raise InvalidArgumentError(f"rankwise: there is no macro named '{macro_name}'") from None
        return macro(*args, **kwargs)


# Macros whose result depends on their (numeric) arguments only and is slow
# to compute in Jinja: the Chebyshev fit of Student's t
# quantile at a confidence level and its exact quantiles at 1-3 degrees of
# freedom, which every evaluate with an interval renders.
# dbt computes the fit for every call but at the levels whose fits
# macros/statistics/student_t_quantile_fits.sql keeps; a Python process reuses
# it at any level, and so does the next process: the result is kept beside Jinja's bytecode cache (a
# folder of the user's own), keyed by the text of every macro file and the
# arguments, so an edited macro is never answered from an old result.
_PURE_MACROS = {"_student_t_quantile_pieces", "_student_t_whole_degree_quantiles"}


def _memoised(macro: Callable[..., Any], name: str, sources_digest: str, folder: str | None) -> Callable[..., Any]:
    @functools.lru_cache(maxsize=64)
    def call(*args: float) -> Any:
        path = None
        if folder is not None:
            key = hashlib.sha256(json.dumps([sources_digest, name, args]).encode()).hexdigest()[:40]
            path = Path(folder) / f"rankwise-memo-{key}.json"
            try:
                kept = json.loads(path.read_text())
            except (OSError, ValueError):
                pass
            else:
                if _numbers_only(kept):
                    return kept
        value = macro(*args)
        if path is not None:
            try:
                partial = path.with_suffix(f".{os.getpid()}.tmp")
                partial.write_text(json.dumps(value))
                os.replace(partial, path)
            except (OSError, TypeError, ValueError):  # read-only folder, or a value JSON cannot hold
                pass
        return value

    return call


def _numbers_only(value: Any) -> bool:
    """Whether a kept result holds nothing but numbers in lists and dicts: only
    such a result is read back, so a file put there cannot bring text into SQL."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, list):
        return all(_numbers_only(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _numbers_only(item) for key, item in value.items())
    return False


def _catch_return(macro: jinja2.runtime.Macro) -> Callable[..., Any]:
    @functools.wraps(macro)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return str(macro(*args, **kwargs))
        except _MacroReturn as returned:
            return returned.value

    return call


def renderer(adapter_type: str = "duckdb") -> MacroRenderer:
    """The renderer for one adapter type, built once per process."""
    # Not lru_cache on this function: it keys renderer() and renderer("duckdb")
    # apart, and would compile every macro file twice.
    return _cached_renderer(adapter_type)


@functools.lru_cache(maxsize=None)
def _cached_renderer(adapter_type: str) -> MacroRenderer:
    return MacroRenderer(adapter_type)
