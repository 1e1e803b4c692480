"""The fixed price of a call (issue #49): warm, in one process, from pandas
DataFrames, precision, recall, MAP and NDCG at 10 with binary relevance, the
median time of `rankwise.evaluate` (with its checks and with validate=False),
of `rankwise.compare` of two models, and of pytrec_eval and ranx given the same
DataFrames; then `import rankwise` and a cold `rankwise evaluate` process on a
CSV, each in fresh processes. Every peer's means are checked against rankwise's
(within 1e-9) before its time is reported."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.generate import density_line, generate
from benchmarks.report import machine, write_report

CALL_COST_SIZES = [1_000, 10_000, 100_000]
CALL_METRICS = ["precision@10", "recall@10", "map@10", "ndcg@10"]
TREC_MEASURES = {"precision@10": "P_10", "recall@10": "recall_10", "map@10": "map_cut_10", "ndcg@10": "ndcg_cut_10"}
RANX_MEASURES = {"precision@10": "precision@10", "recall@10": "recall@10", "map@10": "map@10", "ndcg@10": "ndcg@10"}


def _inputs(folder: Path) -> tuple[object, object, object]:
    """The recommendations (user, item, score), the interactions without their
    grades (binary relevance) and two models' lists: the benchmark's, and the
    same items in reverse order."""
    import pandas as pd

    recommendations = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "score"])
    interactions = pd.read_parquet(folder / "interactions.parquet", columns=["user_id", "item_id"])
    reversed_lists = recommendations.assign(score=-recommendations["score"])
    two_models = pd.concat([recommendations.assign(model="benchmark"), reversed_lists.assign(model="reversed")],
                           ignore_index=True)
    return recommendations, interactions, two_models


def _rankwise_means(recommendations: object, interactions: object, validate: bool,
                    convention: str = "trec_eval") -> dict[str, float]:
    import rankwise

    table = rankwise.evaluate(recommendations, interactions, CALL_METRICS, score_col="score", validate=validate,
                              convention=convention)
    return {row.metric_label: row.value for row in table.itertuples()}


def _compare(two_models: object, interactions: object) -> object:
    import rankwise

    return rankwise.compare(two_models, interactions, CALL_METRICS, model_col="model", score_col="score",
                            baseline="benchmark")


def _pytrec_eval_means(recommendations: object, interactions: object) -> dict[str, float]:
    """pytrec_eval at its fastest idiomatic use: the dicts built from the columns
    as lists."""
    import pytrec_eval

    run: dict[str, dict[str, float]] = {}
    for user, item, score in zip(recommendations.user_id.astype(str).tolist(),
                                 recommendations.item_id.astype(str).tolist(), recommendations.score.tolist()):
        run.setdefault(user, {})[item] = score
    qrels: dict[str, dict[str, int]] = {}
    for user, item in zip(interactions.user_id.astype(str).tolist(), interactions.item_id.astype(str).tolist()):
        qrels.setdefault(user, {})[item] = 1
    results = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES.values())).evaluate(run)
    return {metric: sum(values[measure] for values in results.values()) / len(results)
            for metric, measure in TREC_MEASURES.items()}


def _ranx_means(recommendations: object, interactions: object) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    run_frame = recommendations.astype({"user_id": str, "item_id": str}).astype({"user_id": object, "item_id": object})
    qrels_frame = (interactions.astype({"user_id": str, "item_id": str}).astype({"user_id": object, "item_id": object})
                   .assign(relevance=1))
    qrels = Qrels.from_df(qrels_frame, q_id_col="user_id", doc_id_col="item_id", score_col="relevance")
    run = Run.from_df(run_frame, q_id_col="user_id", doc_id_col="item_id", score_col="score")
    means = evaluate(qrels, run, list(RANX_MEASURES.values()), make_comparable=True)
    return {metric: float(means[measure]) for metric, measure in RANX_MEASURES.items()}


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    for _ in range(2):
        call()
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds) * 1000


def _agree(tool: str, means: dict[str, float], reference: dict[str, float]) -> None:
    for metric, value in reference.items():
        if abs(means[metric] - value) > 1e-9:
            raise SystemExit(f"{tool}: {metric} = {means[metric]!r}, rankwise's {value!r}: not timed")


def _fresh_process_seconds(arguments: list[str], repeat: int) -> float:
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(arguments, check=True, capture_output=True)
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def call_cost(data_root: Path, sizes: list[int], density: float, path: Path, repeat: int = 15) -> None:
    """Writes the table of the fixed price of a call at each size of `sizes` to
    `path`, and the fresh-process times below it."""
    import importlib.util

    peers = {"pytrec_eval": _pytrec_eval_means, "ranx": _ranx_means}
    peers = {tool: means for tool, means in peers.items() if importlib.util.find_spec(tool) is not None}
    lines = ["# The fixed price of a call", "", machine(), "",
             "Warm, in one process, from pandas DataFrames: " + ", ".join(CALL_METRICS)
             + ", binary relevance; the median of " + str(repeat) + " calls after two, in milliseconds.", "",
             "| users | rankwise | rankwise validate=False | compare, two models | "
             + " | ".join(peers) + " |", "|---:|---:|---:|---:|" + "---:|" * len(peers)]
    csv_file = None
    for users in sizes:
        folder, facts = generate(data_root, users, density)
        recommendations, interactions, two_models = _inputs(folder)
        reference = _rankwise_means(recommendations, interactions, validate=True)
        _agree("rankwise, validate=False", _rankwise_means(recommendations, interactions, validate=False), reference)
        for tool, means in peers.items():
            # each peer against rankwise under the peer's convention
            _agree(tool, means(recommendations, interactions),
                   _rankwise_means(recommendations, interactions, validate=True, convention=tool.replace("pytrec_", "trec_")))
        times = [_median_ms(lambda: _rankwise_means(recommendations, interactions, True), repeat),
                 _median_ms(lambda: _rankwise_means(recommendations, interactions, False), repeat),
                 _median_ms(lambda: _compare(two_models, interactions), repeat)]
        times += [_median_ms(lambda means=means: means(recommendations, interactions), repeat) for means in peers.values()]
        lines.append(f"| {users:,} | " + " | ".join(f"{value:,.1f}" for value in times) + " |")
        print(lines[-1], flush=True)
        if csv_file is None:
            csv_file = folder / "call-cost-recommendations.csv"
            recommendations.to_csv(csv_file, index=False)
            interactions.to_csv(folder / "call-cost-interactions.csv", index=False)
    lines += ["", density_line(facts), ""]
    import_seconds = _fresh_process_seconds([sys.executable, "-c", "import rankwise"], 5)
    lines.append(f"- `import rankwise` in a fresh process (the interpreter's start included): {import_seconds:.2f} s")
    if csv_file is not None:
        command = [str(Path(sys.executable).with_name("rankwise")), "evaluate", str(csv_file), str(csv_file.with_name("call-cost-interactions.csv")),
                   *(argument for metric in CALL_METRICS for argument in ("-m", metric)), "--score-col", "score"]
        cold = _fresh_process_seconds(command, 5)
        lines.append(f"- a cold `rankwise evaluate` process on the {sizes[0]:,}-user CSV files: {cold:.2f} s")
    write_report(path, lines)
