"""The targets the benchmark report judges, as data: what each compares, the
bound it sets, and the measurements it applies to.

Issue #19 sets the targets at 1M users, issue #18 the one of the
beyond-accuracy metrics. The report judges each at every size and hit density
the run measured, so that a smaller run shows where they stand; the completion
targets are judged on the completion run (--completion) alone. A target whose
tools were not measured is left out of the report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from benchmarks import postgres, spark
from benchmarks.harness import Result

FLOOR = "floor query"


class Judgement(NamedTuple):
    target: str  # the report's row
    measured: str
    met: bool


@dataclass(frozen=True)
class Measurements:
    """The results of one run by (users, hit density, tool), and the memory
    settings of its rankwise workers, which the completion targets name."""
    results: dict[tuple[int, float, str], Result]
    memory_limit: str | None
    temp_directory: str | None

    def get(self, users: int, density: float, tool: str) -> Result | None:
        return self.results.get((users, density, tool))

    def each(self, users: int, density: float, *tools: str) -> list[Result] | None:
        """The results of every one of `tools`; None when one was not measured."""
        found = [self.get(users, density, tool) for tool in tools]
        return None if None in found else found


class Target:
    on_completion_run: ClassVar[bool] = False

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        """The target at one size and density; None when its tools were not measured there."""
        raise NotImplementedError


@dataclass(frozen=True)
class WithinFloor(Target):
    """`tool`'s wall time at most `ratio` times the floor query's (on its engine: `floor`)."""
    tool: str
    ratio: float
    floor: str = FLOOR

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        found = measured.each(users, density, self.tool, self.floor)
        if found is None or not found[1].seconds:
            return None
        own, floor = found
        # the CPU ratio beside it, for runs on a busy machine
        return Judgement(f"`{self.tool}` within {self.ratio:g}x the {self.floor}, {users:,} users",
                         f"{own.seconds / floor.seconds:.2f}x (CPU {own.cpu_seconds / floor.cpu_seconds:.2f}x)",
                         own.seconds <= self.ratio * floor.seconds)


@dataclass(frozen=True)
class AddsAtMostTheFloor(Target):
    """`tool` takes at most the floor query's wall time more than `base`: what
    `tool` computes beyond `base`, which the report calls `added`, costs no
    more than reading the data once."""
    tool: str
    base: str
    added: str

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        found = measured.each(users, density, self.tool, self.base, FLOOR)
        if found is None:
            return None
        own, base, floor = found
        added = own.seconds - base.seconds
        return Judgement(f"{self.added} add at most the floor query's time to `{self.base}`, {users:,} users",
                         f"+{added:.2f} s vs floor {floor.seconds:.2f} s", added <= floor.seconds)


@dataclass(frozen=True)
class FasterThan(Target):
    """`tool` at least `ratio` times faster than `peer`, in wall time."""
    tool: str
    peer: str
    ratio: float

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        found = measured.each(users, density, self.tool, self.peer)
        if found is None:
            return None
        own, peer = found
        ratio = peer.seconds / own.seconds
        return Judgement(f"`{self.tool}` at least {self.ratio:g}x faster than {self.peer}, {users:,} users",
                         f"{ratio:.1f}x", ratio >= self.ratio)


@dataclass(frozen=True)
class PeakMemoryBelow(Target):
    """`tool`'s peak RSS below `peer`'s."""
    tool: str
    peer: str

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        found = measured.each(users, density, self.tool, self.peer)
        if found is None:
            return None
        own, peer = found
        return Judgement(f"`{self.tool}` peak memory below {self.peer}', {users:,} users",
                         f"{own.peak_mib:,.0f} vs {peer.peak_mib:,.0f} MiB", own.peak_mib < peer.peak_mib)


@dataclass(frozen=True)
class GrowsAtMost(Target):
    """`users_factor` times the users (and rows) cost `tool` at most `ratio`
    times the wall time: judged at each size whose fraction was measured too."""
    tool: str
    users_factor: int
    ratio: float

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        own = measured.get(users, density, self.tool)
        smaller = measured.get(users // self.users_factor, density, self.tool) if users % self.users_factor == 0 else None
        if own is None or smaller is None or not smaller.seconds:
            return None
        growth = own.seconds / smaller.seconds
        return Judgement(f"`{self.tool}`: {self.users_factor}x the rows costs at most {self.ratio:g}x the time, "
                         f"{users // self.users_factor:,} to {users:,} users", f"{growth:.1f}x", growth <= self.ratio)


@dataclass(frozen=True)
class DbtAddsAtMostItsStartUp(Target):
    """The package model's `dbt run` at most dbt's start-up (`start_up`, a
    trivial model in its place) plus the same SQL without dbt (`sql`)."""
    tool: str
    start_up: str
    sql: str

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        found = measured.each(users, density, self.tool, self.start_up, self.sql)
        if found is None:
            return None
        run, start_up, sql = found
        return Judgement(f"the dbt path adds no more than dbt's start-up to the same SQL, {users:,} users",
                         f"dbt run {run.seconds:.2f} s vs start-up {start_up.seconds:.2f} s + SQL {sql.seconds:.2f} s",
                         run.seconds <= start_up.seconds + sql.seconds)


@dataclass(frozen=True)
class Completes(Target):
    """`tool` completes on the completion run, within its memory limit and
    temporary directory: met whenever it was measured there."""
    tool: str
    on_completion_run: ClassVar[bool] = True

    def judge(self, measured: Measurements, users: int, density: float) -> Judgement | None:
        own = measured.get(users, density, self.tool)
        if own is None:
            return None
        return Judgement(f"`{self.tool}` completes at {users:,} users with memory_limit {measured.memory_limit}, "
                         f"temp_directory {measured.temp_directory}",
                         f"{own.seconds:.1f} s, peak {own.peak_mib:,.0f} MiB", True)


UNCHECKED = "rankwise, validate=False"
CHECKED = "rankwise"
SPARK_UNCHECKED, SPARK_CHECKED = "rankwise on Spark, validate=False", "rankwise on Spark"
MLLIB = "Spark MLlib RankingEvaluator"
POSTGRES_DEFAULTS = postgres.TOOL + postgres.DEFAULTS
POSTGRES_GRADED_DEFAULTS = postgres.TOOL + postgres.GRADED + postgres.DEFAULTS
# In the report's order, the variant without the input checks first.
TARGETS: list[Target] = [
    WithinFloor(UNCHECKED, ratio=2),
    WithinFloor(CHECKED, ratio=3),
    AddsAtMostTheFloor("rankwise, beyond accuracy", base=CHECKED, added="the beyond-accuracy metrics"),
    AddsAtMostTheFloor("rankwise, exposure and popularity lift", base=CHECKED,
                       added="exposure Gini, exposure disparity and popularity lift"),
    FasterThan(UNCHECKED, peer="pytrec_eval", ratio=10),
    FasterThan(CHECKED, peer="pytrec_eval", ratio=10),
    FasterThan(UNCHECKED, peer="RecTools", ratio=5),
    FasterThan(CHECKED, peer="RecTools", ratio=5),
    PeakMemoryBelow(UNCHECKED, peer="RecTools"),
    PeakMemoryBelow(CHECKED, peer="RecTools"),
    GrowsAtMost(UNCHECKED, users_factor=10, ratio=11),
    GrowsAtMost(CHECKED, users_factor=10, ratio=11),
    DbtAddsAtMostItsStartUp("dbt run (package model)", start_up="dbt start-up", sql="rankwise SQL only"),
    # issue #35, on one local Spark session
    WithinFloor(SPARK_UNCHECKED, ratio=2, floor=spark.FLOOR),
    WithinFloor(SPARK_CHECKED, ratio=3, floor=spark.FLOOR),
    FasterThan(SPARK_UNCHECKED, peer=MLLIB, ratio=1),
    FasterThan(SPARK_CHECKED, peer=MLLIB, ratio=1),
    # issue #49, the same session
    WithinFloor(spark.TOOL + spark.GRADED, ratio=1.5, floor=spark.FLOORS[spark.TOOL + spark.GRADED]),
    FasterThan(SPARK_CHECKED, peer=MLLIB, ratio=1.2),
    # issue #35, on a pgserver PostgreSQL
    WithinFloor(postgres.TOOL, ratio=3, floor=postgres.FLOOR),
    # issue #49, at the server's defaults
    WithinFloor(POSTGRES_GRADED_DEFAULTS, ratio=3, floor=postgres.FLOORS[POSTGRES_GRADED_DEFAULTS]),
    WithinFloor(POSTGRES_DEFAULTS, ratio=2, floor=postgres.FLOORS[POSTGRES_DEFAULTS]),
    Completes(CHECKED),
    Completes(UNCHECKED),
]


def judge_targets(results: list[Result], memory_limit: str | None,
                  temp_directory: str | None) -> dict[str, dict[float, tuple[str, bool]]]:
    """Every target at every size and density measured: target -> density ->
    (what was measured, whether it meets the target)."""
    judged: dict[str, dict[float, tuple[str, bool]]] = {}
    for on_completion_run in (False, True):
        measured = Measurements({(r.users, r.density, r.tool): r for r in results if r.completion == on_completion_run},
                                memory_limit, temp_directory)
        for users, density in sorted({(users, density) for users, density, _ in measured.results}):
            for target in TARGETS:
                judgement = target.judge(measured, users, density) if target.on_completion_run == on_completion_run else None
                if judgement is not None:
                    judged.setdefault(judgement.target, {})[density] = (judgement.measured, judgement.met)
    return judged
