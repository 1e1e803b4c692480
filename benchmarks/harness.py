"""The timing and memory harness: every measurement runs one worker of tools.py
in a fresh process (`python -m benchmarks --worker ...`), which reports its wall
time, CPU time and peak RSS as one JSON line. The benchmark (every tool at
every size and density, the median of the repetitions) and the scale checks
(each once, stopped after --timeout) are built from such measurements."""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks import spark
from benchmarks.generate import DIVERSITY_DIMENSIONS, SCALE_CHECK_DENSITY, density_line, diversity_inputs, generate
from benchmarks.peak_memory import peak_kib
from benchmarks.tools import (COMPLETION_TOOLS, engine_of, CUTOFFS, DIVERSITY_K, K_SWEEP_METRICS, K_SWEEP_USERS, METRICS,
                              PEER_CONVENTIONS, PEER_PACKAGES, PEER_PYTHONS, SCALE_WORKERS, WORKERS, dbt, installed,
                              rankwise_values)

# Where the worker finds this package, from any folder and in a peer's own interpreter.
PACKAGE_PARENT = str(Path(__file__).resolve().parents[1])
SCALE_CHECK_TIMEOUT = 1800
# Peers that build every pair of items in memory are held under this address-space cap.
PEER_MEMORY_CAP_GIB = 12


@dataclass(frozen=True)
class Result:
    users: int
    density: float
    tool: str
    seconds: float
    cpu_seconds: float
    peak_mib: float
    completion: bool = False


@dataclass
class BenchmarkRun:
    """What the benchmark measured: the results, the data each was measured on,
    and the notes the report adds (agreement checks, peers left out, dbt's steps)."""
    results: list[Result]
    datasets: list[dict]
    notes: list[str]
    load_before: float


@dataclass(frozen=True)
class ScaleCheck:
    """One row of the scale checks' report: None for a check stopped by --timeout."""
    check: str
    facts: dict
    result: dict | None


@dataclass
class ScaleCheckRun:
    checks: list[ScaleCheck]
    load_before: float


def measure(tool: str, folder: Path, options: dict | None = None, timeout: float | None = None,
            memory_cap_gib: float | None = None) -> dict | None:
    """Runs one worker in a fresh process; None when it outlives `timeout` seconds.
    Under `memory_cap_gib` (its address space), a worker that runs out of memory
    gives {"failed": the last line of its error} instead of stopping the run."""
    def cap() -> None:
        limit = int(memory_cap_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    python_path = os.pathsep.join(filter(None, [PACKAGE_PARENT, os.environ.get("PYTHONPATH")]))
    try:
        completed = subprocess.run(
            [PEER_PYTHONS.get(tool, sys.executable), "-m", "benchmarks", "--worker", tool, str(folder),
             json.dumps(options or {})],
            check=True, capture_output=True, text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": python_path},
            preexec_fn=cap if memory_cap_gib is not None else None,
        )
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as error:
        if memory_cap_gib is not None:
            return {"failed": (error.stderr.strip().splitlines() or ["killed"])[-1][:200]}
        raise SystemExit(f"{tool} failed on {folder}:\n{error.stderr[-3000:]}") from None
    return json.loads(completed.stdout.strip().splitlines()[-1])


def run_worker(tool: str, folder: Path, options: dict) -> None:
    """The worker's side of `measure`: runs the tool and prints its measurement."""
    engine = engine_of(tool)
    if engine is not None:
        print(json.dumps(engine.measure(tool, folder)))
        return
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    values = {**WORKERS, **SCALE_WORKERS}[tool](folder, **options)
    seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds() - cpu_started
    peak = max(peak_kib(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak / 1024, "values": values}))


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children: less sensitive than
    wall time to other work on a shared machine."""
    return sum(usage.ru_utime + usage.ru_stime
               for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def _check_agreement(tool: str, values: dict, reference: dict) -> None:
    for key, value in values.items():
        if key in reference and abs(reference[key] - value) > 1e-9:
            raise SystemExit(f"{tool} disagrees with rankwise on {key}: {value} != {reference[key]}")


def run_benchmark(arguments: argparse.Namespace) -> BenchmarkRun:
    """Every tool at every size and density; then the completion run, if asked."""
    run = BenchmarkRun(results=[], datasets=[], notes=[], load_before=os.getloadavg()[0])
    dbt_ready = False
    plan = [(users, arguments.tools, arguments.repeat, False) for users in arguments.users]
    if arguments.completion:
        plan.append((arguments.completion, COMPLETION_TOOLS, 1, True))
    for users, tools, repeat, completion in plan:
        for density in arguments.hit_density:
            folder, facts = generate(arguments.data_root, users, density)
            run.datasets.append(facts)
            print(density_line(facts), flush=True)
            for tool in tools:
                if not installed(tool):
                    run.notes.append(f"{tool}: not measured, `{PEER_PACKAGES[tool]}` is not installed; "
                                     "its targets are left out.")
                    continue
                if tool.startswith("dbt") and not dbt_ready:
                    dbt(arguments.data_root, "deps", "--quiet")
                    dbt_ready = True
                runs = [measure(tool, folder) for _ in range(repeat)]
                if tool in PEER_CONVENTIONS:
                    convention = PEER_CONVENTIONS[tool]
                    _check_agreement(tool, runs[0]["values"], rankwise_values(folder, convention, validate=False))
                    run.notes.append(f"{tool}: its means agree with rankwise's (convention='{convention}') "
                                     "within 1e-9 on every dataset.")
                engine = engine_of(tool)
                if engine is not None and tool in engine.OPTIONS:
                    options = engine.OPTIONS[tool]
                    _check_agreement(tool, runs[0]["values"], spark.reference_values(folder, options))
                    run.notes.append(f"{tool}: its means agree with rankwise's on DuckDB"
                                     + "".join(f", {name}='{value}'" for name, value in options.items())
                                     + " within 1e-9 on every dataset.")
                if tool == "dbt run (package model)":
                    steps = {name: statistics.median(r["values"][name] for r in runs) for name in runs[0]["values"]}
                    run.notes.append(f"{tool}, {users:,} users, hit density {density:g}: the package model "
                                     + ", ".join(f"{step}s in {value:.2f} s" for step, value in steps.items())
                                     + " (medians, from dbt's run_results.json).")
                result = Result(users, density, tool, statistics.median(r["seconds"] for r in runs),
                                statistics.median(r["cpu_seconds"] for r in runs), max(r["peak_mib"] for r in runs),
                                completion=completion)
                run.results.append(result)
                print(f"{users:>10} users  {density:>5g}  {tool:<26} {result.seconds:8.2f} s  "
                      f"{result.cpu_seconds:8.2f} s CPU  {result.peak_mib:8.0f} MiB", flush=True)
    return run


def run_scale_checks(arguments: argparse.Namespace) -> ScaleCheckRun:
    """The scale checks of issues #17, #18 and #21, each in a fresh process,
    stopped after --timeout; each result checked for the rows it must give."""
    rows, load_before = [], os.getloadavg()[0]
    suite = f"{', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))}"
    if arguments.k_sweep:
        folder, facts = _scale_check_data(arguments.data_root, K_SWEEP_USERS)
        result = measure("k sweep", folder, {"k_max": arguments.k_sweep}, timeout=arguments.timeout)
        expected = len(K_SWEEP_METRICS) * arguments.k_sweep
        if result is not None and result["values"]["rows"] != expected:
            raise SystemExit(f"k sweep: {result['values']['rows']} rows, expected {expected}")
        rows.append(ScaleCheck(f"k = 1..{arguments.k_sweep}: {', '.join(K_SWEEP_METRICS)} at every k "
                               "(`rankwise.evaluate` defaults)", facts, result))
    if arguments.many_groups:
        users, groups = arguments.many_groups
        folder, facts = _scale_check_data(arguments.data_root, users)
        for count in (groups, 1):
            result = measure("many groups", folder, {"groups": count}, timeout=arguments.timeout)
            if result is not None and result["values"]["groups"] != min(count, users):
                raise SystemExit(f"many groups: {result['values']['groups']} groups in the output, expected {count}")
            rows.append(ScaleCheck(f"{count:,} group{'s' if count > 1 else ''}, each user's list in one, "
                                   f"users='interactions', {suite}", facts, result))
    if arguments.compare:
        users, resampled_users = arguments.compare
        folder, facts = _scale_check_data(arguments.data_root, users)
        for tool, options, check in (
                ("evaluate per user, three models", {}, "`evaluate(per_user=True)`, three models"),
                ("compare", {"tests": ["t"]}, "`compare`, three models against one, the t test")):
            rows.append(ScaleCheck(f"{check}: {suite}", facts,
                                   measure(tool, folder, options, timeout=arguments.timeout)))
        folder, facts = _scale_check_data(arguments.data_root, resampled_users)
        rows.append(ScaleCheck(f"`compare`, three models against one, t and randomization (1000 resamples): {suite}",
                               facts, measure("compare", folder, {"tests": ["t", "randomization"]},
                                              timeout=arguments.timeout)))
    if arguments.diversity:
        rows += _diversity_checks(arguments, *arguments.diversity)
    return ScaleCheckRun(rows, load_before)


def _scale_check_data(data_root: Path, users: int) -> tuple[Path, dict]:
    folder, facts = generate(data_root, users, SCALE_CHECK_DENSITY)
    print(density_line(facts), flush=True)
    return folder, facts


def _diversity_checks(arguments: argparse.Namespace, users: int, peer_users: int) -> list[ScaleCheck]:
    """rankwise's intra-list diversity by both distances at `users`, and each
    installed peer at `users` and `peer_users` beside rankwise on the same lists;
    every value checked against the first one of its distance and users."""
    folder, facts = _scale_check_data(arguments.data_root, users)
    diversity_inputs(folder)
    checks = [("intra-list diversity", {"distance": "cosine"}, users,
               f"`rankwise`, cosine of {DIVERSITY_DIMENSIONS}-dimensional vectors"),
              ("intra-list diversity", {"distance": "hamming"}, users,
               f"`rankwise`, Hamming over {DIVERSITY_DIMENSIONS} features")]
    for tool in ("RecTools IntraListDiversity", "Recommenders diversity"):
        if installed(tool):
            checks += [(tool, {}, users, tool), (tool, {"users": peer_users}, peer_users, tool)]
            checks += [("intra-list diversity", {"distance": "hamming" if "RecTools" in tool else "cosine",
                                                 "users": peer_users}, peer_users, "`rankwise`, the same lists")]
    rows, reference = [], {}
    for tool, options, check_users, check in checks:
        capped = PEER_MEMORY_CAP_GIB if tool in PEER_PACKAGES else None
        result = measure(tool, folder, options, timeout=arguments.timeout, memory_cap_gib=capped)
        key = (options.get("distance", "hamming" if "RecTools" in tool else "cosine"), check_users)
        if result is not None and "values" in result:
            value = result["values"]["intra_list_diversity"]
            if key in reference and abs(reference[key] - value) > 1e-9:
                raise SystemExit(f"{tool} disagrees with rankwise on intra_list_diversity: {value} != {reference[key]}")
            reference.setdefault(key, value)
        rows.append(ScaleCheck(f"{check}: intra_list_diversity@{DIVERSITY_K} of {check_users:,} users' "
                               f"top {DIVERSITY_K}", facts, result))
    return rows
