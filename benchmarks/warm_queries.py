"""DuckDB warm, in one process (issue #49's second and fifth targets): at each
size and density, the floor query and each rankwise tool asked run once, then
in turn for a number of rounds; each tool's median and its ratio to the floor
query's median over the same rounds. Where the fresh-process benchmark times a
process's imports and first reads too, this times the queries a warm session
runs. Before a time is reported, every metric a tool shares with `rankwise` is
checked against rankwise's value (within 1e-9)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from benchmarks.generate import density_line, generate
from benchmarks.report import machine, write_report
from benchmarks.tools import WORKERS

# The tools of this process that read the benchmark's Parquet files in DuckDB.
WARM_TOOLS = ["floor query", "rankwise, validate=False", "rankwise", "rankwise, beyond accuracy",
              "rankwise, exposure and popularity lift"]
DEFAULT_WARM_TOOLS = WARM_TOOLS[:3]


def _agree(tool: str, values: dict, reference: dict) -> None:
    for metric in values.keys() & reference.keys():
        if abs(values[metric] - reference[metric]) > 1e-9:
            raise SystemExit(f"{tool}: {metric} = {values[metric]!r}, rankwise's {reference[metric]!r}: not timed")


def warm_queries(data_root: Path, sizes: list[int], densities: list[float], tools: list[str], path: Path,
                 rounds: int) -> None:
    """Writes to `path` the table of each tool's median warm time, with its
    ratio to the floor query's, at every size and density; with both
    `rankwise` and `rankwise, validate=False`, what the input checks add, in
    floor queries."""
    timed = ["floor query"] + [tool for tool in WARM_TOOLS if tool in tools and tool != "floor query"]
    checks = "rankwise" in timed and "rankwise, validate=False" in timed
    command = (f"python -m benchmarks --warm {path} --users " + " ".join(map(str, sizes)) + " --hit-density "
               + " ".join(f"{density:g}" for density in densities) + f" --repeat {rounds} --tools "
               + " ".join(f"'{tool}'" for tool in timed))
    lines = ["# DuckDB warm, in one process", "", f"`{command}`", "", machine(), "",
             f"Each tool once, then {rounds} rounds of every tool in turn, in one process; the median of the rounds "
             "and its ratio to the floor query's.", "",
             "| users | hit density | " + " | ".join(timed) + (" | the checks, in floor queries |" if checks else " |"),
             "|---:|---:|" + "---:|" * (len(timed) + checks)]
    facts_lines = []
    for users in sizes:
        for density in densities:
            folder, facts = generate(data_root, users, density)
            facts_lines.append(density_line(facts))
            first = {tool: WORKERS[tool](folder) for tool in timed}
            if "rankwise" in first:
                for tool in timed:
                    _agree(tool, first[tool], first["rankwise"])
            seconds: dict[str, list[float]] = {tool: [] for tool in timed}
            for _ in range(rounds):
                for tool in timed:
                    started = time.perf_counter()
                    WORKERS[tool](folder)
                    seconds[tool].append(time.perf_counter() - started)
            medians = {tool: statistics.median(values) for tool, values in seconds.items()}
            floor = medians["floor query"]
            cells = [f"{medians[tool]:.2f} s" + ("" if tool == "floor query" else f" ({medians[tool] / floor:.2f}x)")
                     for tool in timed]
            if checks:
                cells.append(f"{(medians['rankwise'] - medians['rankwise, validate=False']) / floor:.2f}")
            lines.append(f"| {users:,} | {density:g} | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    write_report(path, lines + [""] + [f"- {line}" for line in facts_lines])
