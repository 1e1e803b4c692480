"""The modules of benchmarks/ import each other without a cycle, counting the
imports inside functions: a cycle hidden in a function works until someone
moves the import to the top, or imports the modules in another order."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The modules of benchmarks/ that `path` imports, at any depth of the file."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            package, _, module = node.module.partition(".")
            if package == "benchmarks":
                imported |= {module.split(".")[0]} if module else {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("benchmarks.")}
    return (imported & modules) - {path.stem}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets (none: the graph is acyclic)."""
    cycles, finished, path = [], set(), []

    def visit(module: str) -> None:
        path.append(module)
        for imported in sorted(graph[module]):
            if imported in path:
                cycles.append(path[path.index(imported):] + [imported])
            elif imported not in finished:
                visit(imported)
        path.pop()
        finished.add(module)

    for module in sorted(graph):
        if module not in finished:
            visit(module)
    return cycles


def test_the_benchmark_modules_import_each_other_without_a_cycle() -> None:
    modules = {path.stem for path in BENCHMARKS.glob("*.py")}
    graph = {path.stem: _imported_modules(path, modules) for path in BENCHMARKS.glob("*.py")}
    # the walk sees the imports: the harness runs the tools, and the Spark tools
    assert {"spark", "tools"} <= graph["harness"]
    assert _cycles(graph) == []


def test_a_cycle_is_found() -> None:
    assert _cycles({"harness": {"tools"}, "tools": {"postgres"}, "postgres": {"harness"}, "spark": set()}) == [
        ["harness", "tools", "postgres", "harness"]]
