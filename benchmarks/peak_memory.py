"""A process's peak memory, which the harness's workers and the Spark and
PostgreSQL tools each report. It imports nothing from benchmarks/, so that the
harness, which imports those tools, and the tools can all import it."""

from __future__ import annotations

import resource
from pathlib import Path


def peak_kib(process: int | str = "self") -> int:
    """A process's peak RSS (this one's by default). Not ru_maxrss: Linux carries
    that across exec from the forked parent, so a worker would report the
    orchestrator's memory."""
    for line in Path(f"/proc/{process}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
