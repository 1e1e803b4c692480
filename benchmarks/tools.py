"""The tools the benchmark measures, one worker each: rankwise (the Python API,
the CLI, the dbt path, the SQL alone), the floor query, and the peers
(pytrec_eval, ranx, RecTools; RecTools and Microsoft Recommenders for
intra-list diversity). A worker runs in a fresh process (harness.py) and returns
the numbers it computed, which the harness checks against rankwise's.

Imports beyond the standard library stay inside the workers: a peer's worker
may run in its own interpreter (--peer-python), where rankwise and DuckDB are
not installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.generate import (DIVERSITY_DIMENSIONS, beyond_inputs, diversity_inputs, grouped_items, read_parquet,
                                 three_models_sql)
from benchmarks import postgres, spark

# The tools that run in an engine of their own, a module each (WORKERS, OPTIONS,
# FLOORS, measure): each tool's time is against its floor query on that engine (FLOORS).
ENGINE_TOOLS = (spark, postgres)
ENGINE_WORKERS = [tool for module in ENGINE_TOOLS for tool in module.WORKERS]


def engine_of(tool: str):
    """The module of an engine's tool, or None for a tool of this process."""
    return next((module for module in ENGINE_TOOLS if tool in module.WORKERS), None)

CUTOFFS = [5, 10, 20]
METRICS = ["precision", "recall", "map", "mrr", "ndcg"]
# Issue #18's beyond-accuracy metrics, measured on top of the accuracy suite.
BEYOND_METRICS = ["coverage", "gini", "personalization", "novelty", "arp", "long_tail_share", "serendipity"]
# Issue #33's exposure and popularity metrics, measured on top of the accuracy suite.
EXPOSURE_METRICS = ["exposure_gini", "exposure_disparity", "popularity_lift"]
# rankwise metric@k -> trec_eval measure, for the agreement check
TREC_EVAL = {"precision": "P_{k}", "recall": "recall_{k}", "map": "map_cut_{k}", "ndcg": "ndcg_cut_{k}"}
# Settings for the rankwise workers (--memory-limit, --temp-directory), passed by environment.
MEMORY_ENVIRONMENT = ("RANKWISE_BENCHMARK_MEMORY_LIMIT", "RANKWISE_BENCHMARK_TEMP_DIRECTORY")
DBT_PROJECT = Path(__file__).resolve().parent / "dbt_project"
PUSHDOWN_OPTIMIZER = "partial_aggregate_pushdown"
FLOOR_QUERY = f"""select count(*) from (
    select r.user_id, count(i.item_id) as hits
    from {{recommendations}} as r
    left join {{interactions}} as i on i.user_id = r.user_id and i.item_id = r.item_id and i.relevance >= 1
    where r.rank <= {max(CUTOFFS)}
    group by r.user_id
)"""
# The scale checks (--k-sweep, --many-groups, --compare, --diversity): one query shape each, timed alone.
K_SWEEP_METRICS = ["precision", "map", "ndcg"]
K_SWEEP_USERS = 100
DIVERSITY_K = 10


def _memory_settings() -> tuple[str | None, str | None]:
    """The memory_limit and temp_directory the harness passes to the rankwise workers."""
    memory_limit, temp_directory = (os.environ.get(name) or None for name in MEMORY_ENVIRONMENT)
    return memory_limit, temp_directory


def rankwise_values(folder: Path, convention: str = "trec_eval", validate: bool = True) -> dict:
    """rankwise's means of the benchmark's suite, metric@k -> value: what each
    peer's numbers are checked against, under the peer's convention."""
    import rankwise

    memory_limit, temp_directory = _memory_settings()
    table = rankwise.evaluate(
        str(folder / "recommendations.parquet"),
        str(folder / "interactions.parquet"),
        METRICS + ["entropy@10"],
        k=CUTOFFS,
        relevance_col="relevance",
        convention=convention,
        validate=validate,
        memory_limit=memory_limit,
        temp_directory=temp_directory,
    )
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def _work_rankwise(folder: Path) -> dict:
    return rankwise_values(folder)


def _rankwise_with(folder: Path, extra_metrics: list[str], **inputs: Any) -> dict:
    """The accuracy suite of `rankwise` with `extra_metrics`, at the same
    cutoffs, in one evaluate over `inputs` (items, train and their options)."""
    import rankwise

    table = rankwise.evaluate(
        str(folder / "recommendations.parquet"),
        str(folder / "interactions.parquet"),
        METRICS + ["entropy@10"] + extra_metrics,
        k=CUTOFFS,
        relevance_col="relevance",
        **inputs,
    )
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def _work_rankwise_beyond(folder: Path) -> dict:
    """Every beyond-accuracy metric of #18 but intra-list diversity."""
    items, train = beyond_inputs(folder)
    return _rankwise_with(folder, BEYOND_METRICS, items=str(items), train=str(train))


def _work_rankwise_exposure(folder: Path) -> dict:
    """#33's exposure Gini, exposure disparity over 20 item groups and
    popularity lift."""
    _, train = beyond_inputs(folder)
    return _rankwise_with(folder, EXPOSURE_METRICS, items=str(grouped_items(folder)), train=str(train),
                          item_group_col="provider")


def _work_rankwise_unvalidated(folder: Path) -> dict:
    return rankwise_values(folder, validate=False)


def _work_cli(folder: Path) -> dict:
    arguments = [str(folder / "recommendations.parquet"), str(folder / "interactions.parquet")]
    for option, name in zip(("--memory-limit", "--temp-directory"), MEMORY_ENVIRONMENT):
        if os.environ.get(name):
            arguments += [option, os.environ[name]]
    for metric in METRICS:
        arguments += ["-m", metric]
    for k in CUTOFFS:
        arguments += ["-k", str(k)]
    subprocess.run(
        [str(Path(sys.executable).with_name("rankwise")), "evaluate", *arguments, "-m", "entropy@10",
         "--relevance-col", "relevance", "-o", str(folder / "cli_output.parquet")],
        check=True, capture_output=True,
    )
    return {}


def _work_floor(folder: Path) -> dict:
    """The least work any correct method does: join the lists, up to the largest
    cutoff, to the interactions and count each user's hits."""
    import duckdb

    con = duckdb.connect()
    # DuckDB 2.0 otherwise groups both inputs by (user, item) before the join, a
    # slower plan that would flatter every ratio to the floor (docs/benchmarks.md).
    con.execute(f"set disabled_optimizers = '{PUSHDOWN_OPTIMIZER}'")
    users = con.sql(FLOOR_QUERY.format(recommendations=read_parquet(folder, "recommendations"),
                                       interactions=read_parquet(folder, "interactions"))).fetchall()[0][0]
    return {"users": users}


def _work_floor_checked(folder: Path) -> dict:
    """The floor query after the plain SQL that rejects duplicate input: an item
    or a rank twice in a list, a (user, item) twice in the interactions. What the
    checks cost when written the obvious way, beside rankwise's own."""
    import duckdb

    recommendations, interactions = (read_parquet(folder, table) for table in ("recommendations", "interactions"))
    for table, column in ((recommendations, "item_id"), (recommendations, "rank"), (interactions, "item_id")):
        repeated = duckdb.sql(
            f"select count(*) from (select user_id, {column} from {table} group by user_id, {column} having count(*) > 1)"
        ).fetchall()[0][0]
        if repeated:
            raise SystemExit(f"the benchmark data repeats {repeated} (user_id, {column}) pairs")
    return _work_floor(folder)


def _work_pytrec_eval(folder: Path) -> dict:
    import pandas as pd
    import pytrec_eval

    recommendations = pd.read_parquet(folder / "recommendations.parquet")
    interactions = pd.read_parquet(folder / "interactions.parquet")
    # As fast as pytrec_eval's inputs are built in Python: the columns as lists
    # (tolist() gives Python strings, floats and ints at C speed), then the dicts.
    run: dict[str, dict[str, float]] = {}
    for user, item, score in zip(recommendations.user_id.astype(str).tolist(),
                                 recommendations.item_id.astype(str).tolist(), recommendations.score.tolist()):
        run.setdefault(user, {})[item] = score
    qrels: dict[str, dict[str, int]] = {}
    for user, item, relevance in zip(interactions.user_id.astype(str).tolist(),
                                     interactions.item_id.astype(str).tolist(), interactions.relevance.tolist()):
        qrels.setdefault(user, {})[item] = relevance
    measures = {measure.format(k=k) for measure in TREC_EVAL.values() for k in CUTOFFS}
    results = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    means = {}
    for metric, measure in TREC_EVAL.items():
        for k in CUTOFFS:
            values = [per_user[measure.format(k=k)] for per_user in results.values()]
            means[f"{metric}@{k}"] = sum(values) / len(values)
    return means


def _work_ranx(folder: Path) -> dict:
    import pandas as pd
    from ranx import Qrels, Run, evaluate

    recommendations = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "score"])
    interactions = pd.read_parquet(folder / "interactions.parquet")
    for frame in (recommendations, interactions):
        frame["user_id"] = frame["user_id"].astype(str).astype(object)
        frame["item_id"] = frame["item_id"].astype(str).astype(object)
    interactions["relevance"] = interactions["relevance"].astype("int64")
    qrels = Qrels.from_df(interactions, q_id_col="user_id", doc_id_col="item_id", score_col="relevance")
    run = Run.from_df(recommendations, q_id_col="user_id", doc_id_col="item_id", score_col="score")
    names = {"precision": "precision", "recall": "recall", "map": "map", "mrr": "mrr", "ndcg": "ndcg"}
    measures = [f"{names[metric]}@{k}" for metric in METRICS for k in CUTOFFS]
    # make_comparable drops the lists of users without interactions, as users='both' does
    means = evaluate(qrels, run, measures, make_comparable=True)
    return {f"{metric}@{k}": float(means[f"{names[metric]}@{k}"]) for metric in METRICS for k in CUTOFFS}


def _work_rectools(folder: Path) -> dict:
    import pandas as pd
    from rectools import Columns
    from rectools.metrics import MAP, MRR, NDCG, Precision, Recall, calc_metrics

    recommendations = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "rank"])
    interactions = pd.read_parquet(folder / "interactions.parquet", columns=["user_id", "item_id"])
    recommendations.columns = [Columns.User, Columns.Item, Columns.Rank]
    interactions.columns = [Columns.User, Columns.Item]
    kinds = {"precision": Precision, "recall": Recall, "map": MAP, "mrr": MRR, "ndcg": NDCG}
    metrics = {f"{metric}@{k}": kinds[metric](k=k) for metric in METRICS for k in CUTOFFS}
    return {name: float(value) for name, value in calc_metrics(metrics, reco=recommendations, interactions=interactions).items()}


def dbt(folder: Path, *arguments: str) -> Path:
    """Runs dbt on the benchmark's dbt project; its database, target and logs in a
    scratch folder beside the data, kept between runs like a user's target/.
    Returns the target folder."""
    scratch = folder / "dbt"
    scratch.mkdir(parents=True, exist_ok=True)
    environment = {
        **os.environ,
        "RANKWISE_BENCHMARK_DATA": str(folder.resolve()),
        "RANKWISE_BENCHMARK_DATABASE": str(scratch / "benchmark.duckdb"),
        "DBT_PROFILES_DIR": str(DBT_PROJECT),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }
    paths = ["--log-path", str(scratch / "logs")]
    if arguments[0] != "deps":
        paths += ["--target-path", str(scratch / "target")]
    subprocess.run([str(Path(sys.executable).with_name("dbt")), *arguments, *paths], cwd=DBT_PROJECT,
                   env=environment, check=True, capture_output=True)
    return scratch / "target"


def _work_dbt_run(folder: Path) -> dict:
    """dbt run; returns the package model's compile and execute seconds from dbt's
    run_results.json, to tell the macros' rendering apart from the SQL."""
    target = dbt(folder, "run", "--quiet", "--exclude", "baseline_table")
    results = json.loads((target / "run_results.json").read_text())
    model = next(result for result in results["results"] if result["unique_id"] == "model.rankwise.rankwise_metrics")
    return {step["name"]: _seconds_between(step["started_at"], step["completed_at"]) for step in model["timing"]}


def _seconds_between(started: str, completed: str) -> float:
    from datetime import datetime

    return (datetime.fromisoformat(completed.rstrip("Z")) - datetime.fromisoformat(started.rstrip("Z"))).total_seconds()


def _work_dbt_start_up(folder: Path) -> dict:
    """dbt's own cost: parse, connect, build the two input views and one table
    model of `select 1` (dbt's materialization of a table, which the package
    model goes through too), that is, `dbt run` with a trivial model in place
    of the package model."""
    dbt(folder, "run", "--quiet", "--exclude", "rankwise_metrics")
    return {}


def _work_sql_only(folder: Path) -> dict:
    """The SQL the package model runs, as dbt runs it (create table as), without dbt."""
    import duckdb

    import rankwise

    query = rankwise.sql(
        "recommendations", "interactions", METRICS + ["entropy@10"], k=CUTOFFS, relevance_col="relevance")
    con = duckdb.connect()
    for table in ("recommendations", "interactions"):
        con.execute(f"create view {table} as select * from {read_parquet(folder, table)}")
    con.execute(f"create table rankwise_metrics as {query}")
    return {}


def _work_k_sweep(folder: Path, k_max: int) -> dict:
    """Three metrics at every cutoff from 1 to k_max: the query must not grow
    with the number of cutoffs beyond its output rows."""
    import rankwise

    table = rankwise.evaluate(str(folder / "recommendations.parquet"), str(folder / "interactions.parquet"),
                              K_SWEEP_METRICS, k=list(range(1, k_max + 1)), relevance_col="relevance")
    return {"rows": len(table)}


def _work_many_groups(folder: Path, groups: int) -> dict:
    """Every user's list in one of `groups` groups, scored over every user with
    interactions in every group (users='interactions'): the group means need the
    number of users missing from a group, not a row per missing user."""
    import duckdb

    import rankwise

    con = duckdb.connect()
    # rankwise leaves a connection it is given as it is: the settings are the caller's to make.
    for setting, value in zip(("memory_limit", "temp_directory"), _memory_settings()):
        if value:
            con.execute(f"set {setting} = ?", [value])
    recommendations = con.sql(
        f"select *, user_id % {int(groups)} as group_id from {read_parquet(folder, 'recommendations')}")
    table = rankwise.evaluate(recommendations, str(folder / "interactions.parquet"), METRICS, k=CUTOFFS,
                              relevance_col="relevance", group_by="group_id", users="interactions", con=con)
    return {"rows": len(table), "groups": int(table["group_id"].nunique())}


def _work_compare(folder: Path, tests: list[str]) -> dict:
    """rankwise.compare of three models (two pairs with the baseline): the
    per-user metrics of the benchmark at every cutoff, unchecked (the checks are
    evaluate's, measured there)."""
    import duckdb

    import rankwise

    con = duckdb.connect()
    table = rankwise.compare(con.sql(three_models_sql(folder)), str(folder / "interactions.parquet"), METRICS,
                             k=CUTOFFS, baseline="as_generated", tests=tests, relevance_col="relevance",
                             validate=False, con=con)
    return {"rows": len(table)}


def _work_per_user_three_models(folder: Path) -> dict:
    """evaluate(per_user=True) on the same three models: what compare's t test
    is measured against. Its rows are counted, not fetched into Python, so that
    the measure is the query's."""
    import duckdb

    import rankwise

    con = duckdb.connect()
    relation = rankwise.evaluate(con.sql(three_models_sql(folder)), str(folder / "interactions.parquet"), METRICS,
                                 k=CUTOFFS, group_by="model", per_user=True, relevance_col="relevance",
                                 validate=False, con=con, output="relation")
    return {"rows": relation.aggregate("count(*)").fetchall()[0][0]}


def _top_recommendations(folder: Path, users: int | None) -> object:
    import pandas as pd

    frame = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "rank"])
    frame = frame[frame["rank"] <= DIVERSITY_K]
    return frame if users is None else frame[frame["user_id"] < users]


def _work_diversity(folder: Path, distance: str, users: int | None = None) -> dict:
    """rankwise's intra_list_diversity@10 from Parquet, by the cosine of the
    vectors or the Hamming count of the features."""
    import rankwise

    vectors, features = diversity_inputs(folder)
    recommendations = str(folder / "recommendations.parquet")
    if users is not None:
        recommendations = _top_recommendations(folder, users)
    options = (dict(items=str(vectors), item_vector_col="vector") if distance == "cosine" else
               dict(items=str(features), item_distance="hamming",
                    item_feature_cols=[f"f{d}" for d in range(DIVERSITY_DIMENSIONS)]))
    table = rankwise.evaluate(recommendations, str(folder / "interactions.parquet"),
                              [f"intra_list_diversity@{DIVERSITY_K}"], **options)
    return {"intra_list_diversity": float(table["value"].item())}


def _work_rectools_diversity(folder: Path, users: int | None = None) -> dict:
    """RecTools' IntraListDiversity with PairwiseHammingDistanceCalculator over
    the 64 features (it has no cosine calculator)."""
    import pandas as pd
    from rectools import Columns
    from rectools.metrics import IntraListDiversity
    from rectools.metrics.distances import PairwiseHammingDistanceCalculator

    _, features = diversity_inputs(folder)
    calculator = PairwiseHammingDistanceCalculator(pd.read_parquet(features).set_index("item_id"))
    metric = IntraListDiversity(k=DIVERSITY_K, distance_calculator=calculator)
    reco = _top_recommendations(folder, users)
    reco.columns = [Columns.User, Columns.Item, Columns.Rank]
    return {"intra_list_diversity": float(metric.calc(reco))}


def _work_recommenders_diversity(folder: Path, users: int | None = None) -> dict:
    """Microsoft Recommenders' diversity with item_feature_vector (the cosine of
    the vectors), given the top 10: it pairs every catalog item with every other."""
    import numpy as np
    import pandas as pd
    from recommenders.evaluation.python_evaluation import diversity

    vectors, _ = diversity_inputs(folder)
    items = pd.read_parquet(vectors)
    items = pd.DataFrame({"item_id": items["item_id"], "features": [np.asarray(v) for v in items["vector"]]})
    reco = _top_recommendations(folder, users)
    train = pd.DataFrame({"user_id": [-1], "item_id": [-1]})  # read by the similarity of co-occurrence only
    value = diversity(train, reco, item_feature_df=items, item_sim_measure="item_feature_vector",
                      col_user="user_id", col_item="item_id")
    return {"intra_list_diversity": float(value)}


WORKERS = {
    "rankwise": _work_rankwise,
    "rankwise, beyond accuracy": _work_rankwise_beyond,
    "rankwise, exposure and popularity lift": _work_rankwise_exposure,
    "rankwise, validate=False": _work_rankwise_unvalidated,
    "rankwise CLI": _work_cli,
    "floor query": _work_floor,
    "floor query, checked": _work_floor_checked,
    "rankwise SQL only": _work_sql_only,
    "dbt run (package model)": _work_dbt_run,
    "dbt start-up": _work_dbt_start_up,
    "pytrec_eval": _work_pytrec_eval,
    "ranx": _work_ranx,
    "RecTools": _work_rectools,
}
SCALE_WORKERS = {"k sweep": _work_k_sweep, "many groups": _work_many_groups, "compare": _work_compare,
                 "evaluate per user, three models": _work_per_user_three_models,
                 "intra-list diversity": _work_diversity, "RecTools IntraListDiversity": _work_rectools_diversity,
                 "Recommenders diversity": _work_recommenders_diversity}
PEER_PACKAGES = {"pytrec_eval": "pytrec-eval-terrier", "ranx": "ranx", "RecTools": "rectools",
                 "RecTools IntraListDiversity": "rectools", "Recommenders diversity": "recommenders",
                 **{tool: "pyspark" for tool in spark.WORKERS}, **{tool: "pgserver" for tool in postgres.WORKERS}}
# The rankwise convention each peer's numbers are checked against.
PEER_CONVENTIONS = {"pytrec_eval": "trec_eval", "ranx": "ranx", "RecTools": "rectools"}
# The tools of the 10M-users completion run (--completion).
COMPLETION_TOOLS = ["rankwise", "rankwise, validate=False", "floor query"]
# Interpreters for peers that cannot share rankwise's environment (--peer-python).
PEER_PYTHONS: dict[str, str] = {}


def installed(tool: str) -> bool:
    package = PEER_PACKAGES.get(tool)
    return package is None or peer_version(tool) is not None


def peer_version(tool: str) -> str | None:
    """The version of a peer's package, in the interpreter its worker runs in."""
    package = PEER_PACKAGES[tool]
    if tool not in PEER_PYTHONS:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return None
    completed = subprocess.run(
        [PEER_PYTHONS[tool], "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
        capture_output=True, text=True,
    )
    return completed.stdout.strip() if completed.returncode == 0 else None
