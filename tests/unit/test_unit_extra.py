"""`make test-fast` installs only the `test-unit` extra of pyproject.toml, so that
extra must install every package tests/unit imports: once it lacked scipy, and
`make test-fast` failed in a fresh clone while `make test`, which installs more,
passed. Read with ast: the imports of the files of tests/unit, of tests/conftest.py,
and of every module of tests/ they import, at any depth of the file (a helper's
import inside a function runs in the tests); of benchmarks/, which
test_benchmark_targets imports, only the imports its modules run when imported
(their functions import the peers a benchmark measures, which the tests do not
call). Each package imported is mapped to the distributions that provide it
(importlib.metadata), and those must be among the distributions the extra
installs: its requirements, their own requirements, and so on."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

REPO_ROOT = Path(__file__).resolve().parents[2]
EXTRA = "test-unit"
# Packages of this repository: found by their files, not installed from the extra.
LOCAL_PACKAGES = {"tests": REPO_ROOT / "tests", "benchmarks": REPO_ROOT / "benchmarks",
                  "rankwise": REPO_ROOT / "python" / "rankwise"}


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _module_file(module: str) -> Path | None:
    """The file of a module of tests/ or benchmarks/ (`tests.reference.exposure`);
    None for anything else, rankwise included, whose own requirements are the
    project's."""
    package, *rest = module.split(".")
    if package not in ("tests", "benchmarks"):
        return None
    path = LOCAL_PACKAGES[package].joinpath(*rest)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path, module: str, anywhere: bool) -> set[str]:
    """The modules `path` (the module `module`) imports, named in full, with the
    packages a `from package import name` may load as modules; at any depth of the
    file, or only at its top level."""
    tree = ast.parse(path.read_text())
    nodes = ast.walk(tree) if anywhere else iter(tree.body)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    imported = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            imported.add(source)
            imported |= {f"{source}.{alias.name}" for alias in node.names}
    return imported


def imported_packages() -> set[str]:
    """The top-level packages that tests/unit imports, through the modules of
    tests/ and benchmarks/ it imports (below each, the packages that hold it)."""
    start = [*sorted((REPO_ROOT / "tests" / "unit").rglob("*.py")), REPO_ROOT / "tests" / "conftest.py"]
    pending = [(path, ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts).removesuffix(".__init__"))
               for path in start]
    seen, packages = set(), set()
    while pending:
        path, module = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path, module, anywhere=module.startswith("tests")):
            packages.add(name.split(".")[0])
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):
                found = _module_file(".".join(parts[:depth]))
                if found is not None:
                    pending.append((found, ".".join(parts[:depth])))
    return packages


def installed_by(extra: str, pyproject: dict) -> set[str]:
    """The distributions `pip install -e .[extra]` installs, normalised: the
    project's own requirements and extras read from `pyproject`, those of the
    other distributions from their installed metadata, markers evaluated here."""
    project = pyproject["project"]
    pending = [Requirement(f"{project['name']}[{extra}]")]
    found, expanded = set(), set()
    while pending:
        requirement = pending.pop()
        name = _normalised(requirement.name)
        found.add(name)
        extras = tuple(sorted(requirement.extras))
        if (name, extras) in expanded:
            continue
        expanded.add((name, extras))
        if name == _normalised(project["name"]):
            texts = [*project["dependencies"], *(text for chosen in extras
                                                 for text in project["optional-dependencies"][chosen])]
        else:
            try:
                texts = metadata.requires(requirement.name) or []
            except metadata.PackageNotFoundError:
                continue  # not installed here: what it needs cannot be read, and is not counted
        for text in texts:
            needed = Requirement(text)
            if needed.marker is None or any(needed.marker.evaluate({"extra": chosen}) for chosen in ("", *extras)):
                pending.append(needed)
    return found


def missing(packages: set[str], installed: set[str]) -> dict[str, list[str]]:
    """Each imported package that no distribution in `installed` provides, with
    the distributions that provide it in this environment (none: not installed)."""
    providers = metadata.packages_distributions()
    return {package: sorted(providers.get(package, []))
            for package in sorted(packages - set(sys.stdlib_module_names) - set(LOCAL_PACKAGES))
            if not {_normalised(distribution) for distribution in providers.get(package, [])} & installed}


def _pyproject() -> dict:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())


def test_the_test_unit_extra_installs_every_package_tests_unit_imports() -> None:
    packages = imported_packages()
    # the walk sees what tests/unit imports, itself and through tests/
    assert {"pytest", "pandas", "duckdb", "yaml", "scipy", "rankwise", "tests"} <= packages
    assert missing(packages, installed_by(EXTRA, _pyproject())) == {}


def test_a_distribution_the_extra_lacks_is_named() -> None:
    pyproject = _pyproject()
    extras = pyproject["project"]["optional-dependencies"]
    # scipy, and pytrec-eval-terrier, which requires it
    extras[EXTRA] = [text for text in extras[EXTRA] if Requirement(text).name not in ("scipy", "pytrec-eval-terrier")]
    assert list(missing(imported_packages(), installed_by(EXTRA, pyproject))) == ["pytrec_eval", "scipy"]
