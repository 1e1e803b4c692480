"""Times rankwise end to end from Parquet against the least work any correct
method must do (the floor query) and against the peers that are installed, on
data where a chosen share of the recommended rows is relevant (the hit density).

    python benchmarks/run.py --users 10000 100000 1000000 --hit-density 0.01 0.1 0.3 --repeat 3

Every measurement runs in a fresh process (`python benchmarks/run.py --worker
...`), which reports its wall time and peak RSS; the median of the repetitions is
kept. Before a peer's time is reported, its numbers are checked against
rankwise's under the matching convention. The generated data, and the report
(report.md), stay in benchmarks/data (--data-root); docs/benchmarks.md quotes the
reports.

    --completion            the 10M-users run under --memory-limit and --temp-directory
    --profile FILE          EXPLAIN ANALYZE of the floor and metric queries on one dataset
    --pushdown FILE         every query rankwise runs, planned with and without DuckDB's
                            partial aggregate pushdown, timed both ways where the plans differ
    --k-sweep [K_MAX]       scale check: three metrics at every k from 1 to 1000
    --many-groups U G       scale check: U users in G groups, users='interactions'
    --diversity U P         scale check: intra-list diversity at U users, the peers at U and P users
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_ROOT = REPO_ROOT / "benchmarks" / "data"
CUTOFFS = [5, 10, 20]
LIST_LENGTH = 20
# The share of recommended rows that are relevant: a model no better than chance
# reaches about 0.007 on this data; published recommenders' precision@10 is 0.1 to 0.35.
DENSITIES = [0.01, 0.1, 0.3]
SIZES = [10_000, 100_000, 1_000_000]
# How far the generated data's hit density may be from the target, relative.
DENSITY_TOLERANCE = 0.2
METRICS = ["precision", "recall", "map", "mrr", "ndcg"]
# Issue #18's beyond-accuracy metrics, measured on top of the accuracy suite.
BEYOND_METRICS = ["coverage", "gini", "personalization", "novelty", "arp", "long_tail_share", "serendipity"]
N_ITEMS = 50_000
# rankwise metric@k -> trec_eval measure, for the agreement check
TREC_EVAL = {"precision": "P_{k}", "recall": "recall_{k}", "map": "map_cut_{k}", "ndcg": "ndcg_cut_{k}"}
# Users generated per query: a million users' candidate rows group in memory.
GENERATE_CHUNK_USERS = 1_000_000
# Settings for the rankwise workers (--memory-limit, --temp-directory), passed by environment.
MEMORY_ENVIRONMENT = ("RANKWISE_BENCHMARK_MEMORY_LIMIT", "RANKWISE_BENCHMARK_TEMP_DIRECTORY")


def generate(data_root: Path, users: int, density: float) -> tuple[Path, dict]:
    """Deterministic data at a chosen hit density: ~10 graded (1..3) relevant items
    per user over 50k items of Zipf-like popularity, ~3% of users with none, 20
    ranked recommendations per user of which a share `density` are relevant.
    Returns the folder (rows grouped by user) and what the data holds, measured."""
    import duckdb

    folder = data_root / f"users_{users}_density_{density:g}"
    facts_file = folder / "data.json"
    if facts_file.exists():
        return folder, json.loads(facts_file.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    # Built a million users at a time in a scratch database beside the data: 10M
    # users are 400M candidate rows, whose grouping in one query spills past the disk.
    scratch = folder / "generate.duckdb"
    scratch.unlink(missing_ok=True)
    con = duckdb.connect(str(scratch))
    con.execute("set temp_directory = ?", [str(folder / "generate.tmp")])
    chunks = [(first, min(users, first + GENERATE_CHUNK_USERS)) for first in range(0, users, GENERATE_CHUNK_USERS)]
    for first, last in chunks:
        into = "create table interactions as" if first == 0 else "insert into interactions"
        con.execute(
            f"""{into}
            select user_id, item_id, max(relevance) as relevance
            from (
                select u as user_id, {_zipf_item("u * 131 + slot + 7")} as item_id, 1 + hash(u * 7 + slot) % 3 as relevance
                from range({first}, {last}) as users(u), range(10) as slots(slot)
                where hash(u) % 100 >= 3
            ) group by user_id, item_id
            order by user_id"""
        )
    # Each interaction is recommended with one probability, so that `density` of
    # the 20 recommendations per user are relevant on average.
    interactions = con.execute("select count(*) from interactions").fetchone()[0]
    share = density * LIST_LENGTH * users / interactions
    if share > 1:
        raise SystemExit(f"hit density {density:g} is out of reach: the data has {interactions / users:.1f} relevant items "
                         f"per user for {LIST_LENGTH} recommendations, at most "
                         f"{interactions / users / LIST_LENGTH:.2f} of them relevant")
    for first, last in chunks:
        into = "create table recommendations as" if first == 0 else "insert into recommendations"
        con.execute(f"{into} {_recommendations_sql(first, last, share)}")
    # insertion order is kept: rows stay grouped by user
    for table in ("recommendations", "interactions"):
        con.execute(f"copy {table} to '{folder / (table + '.parquet')}' (format parquet)")
    facts = con.execute(
        """select count(*), count(i.item_id),
                  (select count(*) from interactions), (select count(distinct user_id) from interactions)
           from recommendations as r
           left join interactions as i on i.user_id = r.user_id and i.item_id = r.item_id and i.relevance >= 1"""
    ).fetchone()
    con.close()
    scratch.unlink()
    recommended, hits, interactions, judged_users = facts
    facts = {"users": users, "density": density, "achieved": hits / recommended, "hits": hits,
             "recommended": recommended, "interactions": interactions, "judged_users": judged_users}
    facts_file.write_text(json.dumps(facts, indent=2) + "\n")
    return folder, facts


def _zipf_item(seed: str) -> str:
    """An item id drawn from 50k items, item 0 the most popular (a cube of a
    uniform draw from a hash of `seed`)."""
    return f"cast(floor(50000 * pow(hash({seed}) / 18446744073709551616.0, 3)) as integer)"


def _recommendations_sql(first: int, last: int, share: float) -> str:
    """The lists of users first..last-1: each of their interactions recommended
    with probability `share` (placed towards the top of the list, the more so the
    more relevant), the rest of the 20 drawn by popularity among the items the
    user has not interacted with."""
    uniform = "hash({}) / 18446744073709551616.0"
    return f"""
        with hits as (
            select user_id, item_id,
                   pow({uniform.format("user_id * 1009 + item_id * 7 + 3")}, (1 + relevance) / 2) as position
            from interactions
            where user_id >= {first} and user_id < {last}
              and {uniform.format("user_id * 613 + item_id * 11 + 5")} < {share!r}
        ), hit_counts as (
            select user_id, count(*) as hits from hits group by user_id
        ), candidates as (
            select u as user_id, {_zipf_item("u * 97 + slot")} as item_id, slot
            from range({first}, {last}) as users(u), range(40) as slots(slot)
        ), misses as (
            select user_id, item_id, min(slot) as slot
            from candidates as c
            where not exists (select 1 from interactions as i where i.user_id = c.user_id and i.item_id = c.item_id)
            group by user_id, item_id
        ), kept_misses as (
            select user_id, item_id, {uniform.format("user_id * 389 + item_id * 13 + 1")} as position
            from (
                select m.user_id, m.item_id, coalesce(h.hits, 0) as hits,
                       row_number() over (partition by m.user_id order by m.slot) as drawn
                from misses as m left join hit_counts as h using (user_id)
            ) where drawn <= {LIST_LENGTH} - hits
        )
        select user_id, item_id, rank, 1.0 - rank / 100.0 as score
        from (
            select user_id, item_id, row_number() over (partition by user_id order by position, item_id) as rank
            from (select user_id, item_id, position from hits union all select user_id, item_id, position from kept_misses)
        )
        order by user_id, rank"""


def _density_line(facts: dict) -> str:
    """The achieved hit density, checked against the target: within 20% when the
    data has enough rows for the target to mean anything (1,000 expected hits)."""
    target, achieved = facts["density"], facts["achieved"]
    line = (f"{facts['users']:,} users, hit density {target:g}: {achieved:.4f} of {facts['recommended']:,} recommended rows "
            f"relevant; {facts['interactions'] / facts['users']:.1f} relevant items per user, "
            f"{1 - facts['judged_users'] / facts['users']:.1%} of users without any")
    if target * facts["recommended"] >= 1000 and abs(achieved / target - 1) > DENSITY_TOLERANCE:
        raise SystemExit(f"{line}: off the target by more than {DENSITY_TOLERANCE:.0%}")
    return line


# Workers: each runs in its own process and prints one JSON line.


def _rankwise_values(folder: Path, convention: str = "trec_eval", validate: bool = True) -> dict:
    import rankwise

    memory_limit, temp_directory = (os.environ.get(name) or None for name in MEMORY_ENVIRONMENT)
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
    return _rankwise_values(folder)


def _beyond_inputs(folder: Path) -> tuple[Path, Path]:
    """The catalog (the 50k items) and the train interactions of the data in
    `folder`, written beside it once: 10 draws per user from the same Zipf-like
    popularity as the interactions, with another seed (a pair may repeat)."""
    import duckdb

    items, train = folder / "items.parquet", folder / "train.parquet"
    if not (items.exists() and train.exists()):
        users = json.loads((folder / "data.json").read_text())["users"]
        con = duckdb.connect()
        con.execute(f"copy (select cast(i as integer) as item_id from range({N_ITEMS}) as items(i)) "
                    f"to '{items}' (format parquet)")
        con.execute(f"""copy (
            select u as user_id, {_zipf_item("u * 257 + slot + 11")} as item_id
            from range({users}) as users(u), range(10) as slots(slot)
        ) to '{train}' (format parquet)""")
        con.close()
    return items, train


def _work_rankwise_beyond(folder: Path) -> dict:
    """The accuracy suite of `rankwise` and every beyond-accuracy metric but
    intra-list diversity, at the same cutoffs, in one evaluate."""
    import rankwise

    items, train = _beyond_inputs(folder)
    table = rankwise.evaluate(
        str(folder / "recommendations.parquet"),
        str(folder / "interactions.parquet"),
        METRICS + ["entropy@10"] + BEYOND_METRICS,
        k=CUTOFFS,
        relevance_col="relevance",
        items=str(items),
        train=str(train),
    )
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def _work_rankwise_unvalidated(folder: Path) -> dict:
    return _rankwise_values(folder, validate=False)


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


PUSHDOWN_OPTIMIZER = "partial_aggregate_pushdown"
FLOOR_QUERY = f"""select count(*) from (
    select r.user_id, count(i.item_id) as hits
    from {{recommendations}} as r
    left join {{interactions}} as i on i.user_id = r.user_id and i.item_id = r.item_id and i.relevance >= 1
    where r.rank <= {max(CUTOFFS)}
    group by r.user_id
)"""


def _read_parquet(folder: Path, table: str) -> str:
    """The SQL that reads one of the benchmark's tables, its path as a string literal."""
    path = str(folder / f"{table}.parquet").replace("'", "''")
    return f"read_parquet('{path}')"


def _work_floor(folder: Path) -> dict:
    """The least work any correct method does: join the lists, up to the largest
    cutoff, to the interactions and count each user's hits."""
    import duckdb

    con = duckdb.connect()
    # DuckDB 2.0 otherwise groups both inputs by (user, item) before the join, a
    # slower plan that would flatter every ratio to the floor (docs/benchmarks.md).
    con.execute(f"set disabled_optimizers = '{PUSHDOWN_OPTIMIZER}'")
    users = con.sql(FLOOR_QUERY.format(recommendations=_read_parquet(folder, "recommendations"),
                                       interactions=_read_parquet(folder, "interactions"))).fetchall()[0][0]
    return {"users": users}


def _work_floor_checked(folder: Path) -> dict:
    """The floor query after the plain SQL that rejects duplicate input: an item
    or a rank twice in a list, a (user, item) twice in the interactions. What the
    checks cost when written the obvious way, beside rankwise's own."""
    import duckdb

    recommendations, interactions = (_read_parquet(folder, table) for table in ("recommendations", "interactions"))
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
    run: dict[str, dict[str, float]] = {}
    for user, item, score in zip(recommendations.user_id.astype(str), recommendations.item_id.astype(str), recommendations.score):
        run.setdefault(user, {})[item] = float(score)
    qrels: dict[str, dict[str, int]] = {}
    for user, item, relevance in zip(interactions.user_id.astype(str), interactions.item_id.astype(str), interactions.relevance):
        qrels.setdefault(user, {})[item] = int(relevance)
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


DBT_PROJECT = REPO_ROOT / "benchmarks" / "dbt_project"


def _dbt(folder: Path, *arguments: str) -> Path:
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
    target = _dbt(folder, "run", "--quiet", "--exclude", "baseline_table")
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
    _dbt(folder, "run", "--quiet", "--exclude", "rankwise_metrics")
    return {}


def _work_sql_only(folder: Path) -> dict:
    """The SQL the package model runs, as dbt runs it (create table as), without dbt."""
    import duckdb

    import rankwise

    query = rankwise.sql(
        "recommendations", "interactions", METRICS + ["entropy@10"], k=CUTOFFS, relevance_col="relevance")
    con = duckdb.connect()
    for table in ("recommendations", "interactions"):
        con.execute(f"create view {table} as select * from {_read_parquet(folder, table)}")
    con.execute(f"create table rankwise_metrics as {query}")
    return {}


# Scale checks: one query shape each, timed alone (--k-sweep, --many-groups).
K_SWEEP_METRICS = ["precision", "map", "ndcg"]
K_SWEEP_USERS = 100
# The hit density of the scale checks' data.
SCALE_CHECK_DENSITY = 0.1
TIMEOUT = 1800


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
    memory_limit, temp_directory = (os.environ.get(name) or None for name in MEMORY_ENVIRONMENT)
    # rankwise leaves a connection it is given as it is: the settings are the caller's to make.
    for setting, value in (("memory_limit", memory_limit), ("temp_directory", temp_directory)):
        if value:
            con.execute(f"set {setting} = ?", [value])
    recommendations = con.sql(
        f"select *, user_id % {int(groups)} as group_id from {_read_parquet(folder, 'recommendations')}")
    table = rankwise.evaluate(recommendations, str(folder / "interactions.parquet"), METRICS, k=CUTOFFS,
                              relevance_col="relevance", group_by="group_id", users="interactions", con=con)
    return {"rows": len(table), "groups": int(table["group_id"].nunique())}


def _three_models(con: object, folder: Path) -> object:
    """The benchmark's lists as three models: as generated, each list in reverse
    order, and each list with its first half moved to the end (the same items,
    different hits by rank), one model column; a relation on `con`."""
    return con.sql(_three_models_sql(folder))


def _three_models_sql(folder: Path) -> str:
    recommendations = _read_parquet(folder, "recommendations")
    return f"""
        select 'as_generated' as model, user_id, item_id, rank from {recommendations}
        union all
        select 'reversed', user_id, item_id, {LIST_LENGTH} + 1 - rank from {recommendations}
        union all
        select 'rotated', user_id, item_id, (rank + {LIST_LENGTH // 2} - 1) % {LIST_LENGTH} + 1 from {recommendations}
    """


def _work_compare(folder: Path, tests: list[str]) -> dict:
    """rankwise.compare of three models (two pairs with the baseline): the
    per-user metrics of the benchmark at every cutoff, unchecked (the checks are
    evaluate's, measured there)."""
    import duckdb

    import rankwise

    con = duckdb.connect()
    table = rankwise.compare(_three_models(con, folder), str(folder / "interactions.parquet"), METRICS, k=CUTOFFS,
                             baseline="as_generated", tests=tests, relevance_col="relevance", validate=False, con=con)
    return {"rows": len(table)}


def _work_per_user_three_models(folder: Path) -> dict:
    """evaluate(per_user=True) on the same three models: what compare's t test
    is measured against. Its rows are counted, not fetched into Python, so that
    the measure is the query's."""
    import duckdb

    import rankwise

    con = duckdb.connect()
    relation = rankwise.evaluate(_three_models(con, folder), str(folder / "interactions.parquet"), METRICS, k=CUTOFFS,
                                 group_by="model", per_user=True, relevance_col="relevance", validate=False,
                                 con=con, output="relation")
    return {"rows": relation.aggregate("count(*)").fetchall()[0][0]}


# Intra-list diversity at scale (--diversity): the catalog's items as 64-dimensional
# vectors (cosine) and as 64 features of 4 values (Hamming), ILD@10.
DIVERSITY_DIMENSIONS = 64
DIVERSITY_K = 10
# Peers that build every pair of items in memory are held under this address-space cap.
PEER_MEMORY_CAP_GIB = 12


def _diversity_inputs(folder: Path) -> tuple[Path, Path]:
    """The catalog with a vector column and with 64 feature columns, written
    beside the data once; every number a hash of (item, dimension)."""
    vectors, features = folder / "item_vectors.parquet", folder / "item_features.parquet"
    if not (vectors.exists() and features.exists()):
        import duckdb

        con = duckdb.connect()
        coordinate = "(hash(i * 131 + d) % 2001) / 1000.0 - 1.0"
        con.execute(f"""copy (
            select cast(i as integer) as item_id, list({coordinate} order by d) as vector
            from range({N_ITEMS}) as items(i), range({DIVERSITY_DIMENSIONS}) as dimensions(d)
            group by i
        ) to '{vectors}' (format parquet)""")
        columns = ", ".join(f"cast(hash(i * 977 + {d}) % 4 as integer) as f{d}" for d in range(DIVERSITY_DIMENSIONS))
        con.execute(f"copy (select cast(i as integer) as item_id, {columns} from range({N_ITEMS}) as items(i)) "
                    f"to '{features}' (format parquet)")
        con.close()
    return vectors, features


def _top_recommendations(folder: Path, users: int | None) -> object:
    import pandas as pd

    frame = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "rank"])
    frame = frame[frame["rank"] <= DIVERSITY_K]
    return frame if users is None else frame[frame["user_id"] < users]


def _work_diversity(folder: Path, distance: str, users: int | None = None) -> dict:
    """rankwise's intra_list_diversity@10 from Parquet, by the cosine of the
    vectors or the Hamming count of the features."""
    import rankwise

    vectors, features = _diversity_inputs(folder)
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

    _, features = _diversity_inputs(folder)
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

    vectors, _ = _diversity_inputs(folder)
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
                 "RecTools IntraListDiversity": "rectools", "Recommenders diversity": "recommenders"}
# The rankwise convention each peer's numbers are checked against.
PEER_CONVENTIONS = {"pytrec_eval": "trec_eval", "ranx": "ranx", "RecTools": "rectools"}
# The tools of the 10M-users completion run (--completion).
COMPLETION_TOOLS = ["rankwise", "rankwise, validate=False", "floor query"]


# Interpreters for peers that cannot share rankwise's environment (--peer-python).
PEER_PYTHONS: dict[str, str] = {}


def _measure(tool: str, folder: Path, options: dict | None = None, timeout: float | None = None,
             memory_cap_gib: float | None = None) -> dict | None:
    """Runs one worker in a fresh process; None when it outlives `timeout` seconds.
    Under `memory_cap_gib` (its address space), a worker that runs out of memory
    gives {"failed": the last line of its error} instead of stopping the run."""
    def cap() -> None:
        limit = int(memory_cap_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        completed = subprocess.run(
            [PEER_PYTHONS.get(tool, sys.executable), __file__, "--worker", tool, str(folder), json.dumps(options or {})],
            check=True, capture_output=True, text=True, timeout=timeout,
            preexec_fn=cap if memory_cap_gib is not None else None,
        )
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as error:
        if memory_cap_gib is not None:
            return {"failed": (error.stderr.strip().splitlines() or ["killed"])[-1][:200]}
        raise SystemExit(f"{tool} failed on {folder}:\n{error.stderr[-3000:]}") from None
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _worker(tool: str, folder: Path, options: dict) -> None:
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    values = {**WORKERS, **SCALE_WORKERS}[tool](folder, **options)
    seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds() - cpu_started
    peak_kib = max(_own_peak_kib(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak_kib / 1024, "values": values}))


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children: less sensitive than
    wall time to other work on a shared machine."""
    return sum(usage.ru_utime + usage.ru_stime
               for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def _own_peak_kib() -> int:
    """This process's peak RSS. Not ru_maxrss: Linux carries that across exec from
    the forked parent, so a worker would report the orchestrator's memory."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _installed(tool: str) -> bool:
    package = PEER_PACKAGES.get(tool)
    return package is None or _peer_version(tool) is not None


def _peer_version(tool: str) -> str | None:
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


def _check_agreement(tool: str, values: dict, reference: dict) -> None:
    for key, value in values.items():
        if key in reference and abs(reference[key] - value) > 1e-9:
            raise SystemExit(f"{tool} disagrees with rankwise on {key}: {value} != {reference[key]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, nargs="+",
                        help="sizes, in users (default: " + " ".join(map(str, SIZES)) + ", none with --completion)")
    parser.add_argument("--hit-density", type=_density, nargs="+", default=DENSITIES, metavar="SHARE",
                        help="share of the recommended rows that are relevant, one dataset each (default: "
                             + " ".join(map(str, DENSITIES)) + ")")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tools", nargs="+", default=list(WORKERS), choices=list(WORKERS), metavar="TOOL")
    parser.add_argument("--completion", type=int, nargs="?", const=10_000_000, metavar="USERS",
                        help="also run " + ", ".join(COMPLETION_TOOLS) + " once at USERS (default 10,000,000) "
                             "under --memory-limit and --temp-directory, which it needs")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit for the rankwise runs, e.g. 12GB")
    parser.add_argument("--temp-directory", help="where DuckDB spills in the rankwise runs")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write EXPLAIN ANALYZE of the floor query and of rankwise's metric query to FILE, "
                             "at one --users and one --hit-density, and measure nothing else")
    parser.add_argument("--pushdown", type=Path, metavar="FILE",
                        help=f"write to FILE, for every query rankwise runs in evaluate (with its checks, per user, "
                             f"beyond accuracy) and compare, whether DuckDB's {PUSHDOWN_OPTIMIZER} changes its plan, "
                             "and both times where it does; at one --users and one --hit-density")
    parser.add_argument("--k-sweep", type=int, nargs="?", const=1000, metavar="K_MAX",
                        help=f"scale check: {', '.join(K_SWEEP_METRICS)} at every k from 1 to K_MAX (default 1000) "
                             f"on {K_SWEEP_USERS} users")
    parser.add_argument("--many-groups", type=int, nargs=2, metavar=("USERS", "GROUPS"),
                        help="scale check: USERS users' lists split into GROUPS groups, users='interactions' "
                             "(issue #21: 200000 5000), against the same data as one group")
    parser.add_argument("--compare", type=int, nargs=2, metavar=("USERS", "RESAMPLED_USERS"),
                        help="scale check: rankwise.compare of three models with the t test at USERS users against "
                             "evaluate(per_user=True) on the same data (issue #17: 1000000), and with the randomization "
                             "test, 1000 resamples, at RESAMPLED_USERS users (100000)")
    parser.add_argument("--diversity", type=int, nargs=2, metavar=("USERS", "PEER_USERS"),
                        help="scale check: intra_list_diversity@10 of 64-dimensional item vectors (cosine) and 64 "
                             "features (Hamming) at USERS users, against RecTools and Recommenders at USERS and "
                             "PEER_USERS (when installed: --peer-python)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds after which a scale check is stopped and reported as unfinished (default {TIMEOUT})")
    parser.add_argument("--report", type=Path,
                        help="the Markdown report (default: report.md, or scale-checks.md, in --data-root)")
    parser.add_argument("--data-root", type=Path, default=DATA_ROOT,
                        help="where the generated data and dbt's scratch files are kept between runs (default: benchmarks/data)")
    parser.add_argument("--peer-python", action="append", default=[], metavar="TOOL=PYTHON",
                        help="run a peer's workers in another interpreter, e.g. RecTools=/opt/rectools/bin/python "
                             "(RecTools pins numpy < 2 on Python 3.11, which rankwise's environment does not share)")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "FOLDER", "OPTIONS"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        tool, folder, options = arguments.worker
        _worker(tool, Path(folder), json.loads(options))
        return
    for entry in arguments.peer_python:
        tool, _, python = entry.partition("=")
        if tool not in PEER_PACKAGES or not python:
            parser.error(f"--peer-python takes TOOL=PYTHON with TOOL one of {', '.join(PEER_PACKAGES)}; got {entry!r}")
        PEER_PYTHONS[tool] = python
    if arguments.users is None:
        arguments.users = [] if arguments.completion else SIZES
    if arguments.completion and not (arguments.memory_limit and arguments.temp_directory):
        parser.error("--completion needs --memory-limit and --temp-directory: the point is completing within them")
    modes = [bool(arguments.profile or arguments.pushdown), bool(arguments.k_sweep or arguments.many_groups or arguments.compare or arguments.diversity)]
    if all(modes):
        parser.error("--profile and --pushdown run apart from the scale checks (--k-sweep, --many-groups, --compare, "
                     "--diversity)")
    if modes[0] and (len(arguments.users) != 1 or len(arguments.hit_density) != 1):
        parser.error("--profile and --pushdown read one dataset: give one --users and one --hit-density")
    for name, value in zip(MEMORY_ENVIRONMENT, (arguments.memory_limit, arguments.temp_directory)):
        if value:
            os.environ[name] = value

    if arguments.profile:
        _profile(arguments.data_root, arguments.users[0], arguments.hit_density[0], arguments.profile)
    if arguments.pushdown:
        _pushdown(arguments.data_root, arguments.users[0], arguments.hit_density[0], arguments.pushdown)
    if modes[1]:
        _scale_checks(arguments)
    elif not modes[0]:
        _benchmark(arguments)


def _density(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a hit density is a share of the recommended rows, between 0 and 1; got {text}")
    return value


def _benchmark(arguments: argparse.Namespace) -> None:
    """Every tool at every size and density; then the completion run, if asked."""
    results, datasets, notes = [], [], []
    dbt_ready, load_before = False, os.getloadavg()[0]
    plan = [(users, arguments.tools, arguments.repeat, False) for users in arguments.users]
    if arguments.completion:
        plan.append((arguments.completion, COMPLETION_TOOLS, 1, True))
    for users, tools, repeat, completion in plan:
        for density in arguments.hit_density:
            folder, facts = generate(arguments.data_root, users, density)
            datasets.append(facts)
            print(_density_line(facts), flush=True)
            for tool in tools:
                if not _installed(tool):
                    notes.append(f"{tool}: not measured, `{PEER_PACKAGES[tool]}` is not installed; "
                                 "its targets are left out.")
                    continue
                if tool.startswith("dbt") and not dbt_ready:
                    _dbt(arguments.data_root, "deps", "--quiet")
                    dbt_ready = True
                runs = [_measure(tool, folder) for _ in range(repeat)]
                if tool in PEER_CONVENTIONS:
                    convention = PEER_CONVENTIONS[tool]
                    _check_agreement(tool, runs[0]["values"], _rankwise_values(folder, convention, validate=False))
                    notes.append(f"{tool}: its means agree with rankwise's (convention='{convention}') "
                                 "within 1e-9 on every dataset.")
                if tool == "dbt run (package model)":
                    steps = {name: statistics.median(r["values"][name] for r in runs) for name in runs[0]["values"]}
                    notes.append(f"{tool}, {users:,} users, hit density {density:g}: the package model "
                                 + ", ".join(f"{step}s in {value:.2f} s" for step, value in steps.items())
                                 + " (medians, from dbt's run_results.json).")
                result = Result(users, density, tool, statistics.median(r["seconds"] for r in runs),
                                statistics.median(r["cpu_seconds"] for r in runs), max(r["peak_mib"] for r in runs),
                                completion=completion)
                results.append(result)
                print(f"{users:>10} users  {density:>5g}  {tool:<26} {result.seconds:8.2f} s  "
                      f"{result.cpu_seconds:8.2f} s CPU  {result.peak_mib:8.0f} MiB", flush=True)
    _write_report(arguments.report or arguments.data_root / "report.md",
                  _benchmark_report(arguments, results, datasets, notes, load_before))


@dataclass(frozen=True)
class Result:
    users: int
    density: float
    tool: str
    seconds: float
    cpu_seconds: float
    peak_mib: float
    completion: bool = False


def _command(arguments: argparse.Namespace) -> str:
    """The command line that reproduces a report."""
    command = "python benchmarks/run.py"
    if arguments.k_sweep or arguments.many_groups or arguments.compare or arguments.diversity:
        if arguments.k_sweep:
            command += f" --k-sweep {arguments.k_sweep}"
        if arguments.many_groups:
            command += " --many-groups " + " ".join(map(str, arguments.many_groups))
        if arguments.compare:
            command += " --compare " + " ".join(map(str, arguments.compare))
        if arguments.diversity:
            command += " --diversity " + " ".join(map(str, arguments.diversity))
        if arguments.timeout != TIMEOUT:
            command += f" --timeout {arguments.timeout:g}"
    else:
        if arguments.users:
            command += " --users " + " ".join(map(str, arguments.users))
        command += " --hit-density " + " ".join(f"{density:g}" for density in arguments.hit_density)
        command += f" --repeat {arguments.repeat}"
        if arguments.tools != list(WORKERS):
            command += " --tools " + " ".join(f"'{tool}'" for tool in arguments.tools)
        if arguments.completion:
            command += f" --completion {arguments.completion}"
    if arguments.memory_limit:
        command += f" --memory-limit {arguments.memory_limit}"
    if arguments.temp_directory:
        command += f" --temp-directory {arguments.temp_directory}"
    for entry in arguments.peer_python:
        tool, _, python = entry.partition("=")
        command += f" --peer-python '{tool}={python}'"
    return command


def _load(before: float) -> str:
    return (f"Load average {before:.1f} before the run and {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores: "
            "other work on the machine lengthens the wall times.")


def _machine() -> str:
    return (f"Machine: {platform.machine()}, {os.cpu_count()} cores, {_memory_gib():.0f} GiB, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}; " + ", ".join(_versions()) + ".")


def _benchmark_report(arguments: argparse.Namespace, results: list[Result], datasets: list[dict],
                      notes: list[str], load_before: float) -> list[str]:
    floors = {(r.users, r.density): r.seconds for r in results if r.tool == "floor query"}
    lines = [
        "# Benchmarks",
        "",
        f"Generated by `{_command(arguments)}`: end to end from Parquet, each run in a fresh process (imports, reading "
        "and conversion included), the median wall time of the repetitions and the largest peak RSS. "
        f"Every tool computes {', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))} (rankwise also entropy@10); "
        f"the floor query only joins the recommendations up to rank {max(CUTOFFS)} to the relevant interactions and "
        f"counts hits per user (with DuckDB's `{PUSHDOWN_OPTIMIZER}` disabled). "
        "`rankwise` is `rankwise.evaluate` with its defaults, which check the input first (nulls, duplicate "
        "items and ranks in a list, duplicate interactions...); `validate=False` skips those checks.",
        "",
        _machine() + " " + _load(load_before),
        "",
        "## Data",
        "",
        "| users | recommended rows | hit density: target | achieved | relevant items per user | users without any |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for facts in datasets:
        lines.append(f"| {facts['users']:,} | {facts['recommended']:,} | {facts['density']:g} | {facts['achieved']:.4f} "
                     f"| {facts['interactions'] / facts['users']:.2f} | {1 - facts['judged_users'] / facts['users']:.1%} |")
    lines += ["", "## Times", "", "| users | hit density | tool | seconds | x floor | CPU seconds | peak MiB |",
              "|---:|---:|---|---:|---:|---:|---:|"]
    for r in results:
        floor = floors.get((r.users, r.density))
        ratio = f"{r.seconds / floor:.2f}" if floor else ""
        lines.append(f"| {r.users:,} | {r.density:g} | {r.tool} | {r.seconds:.2f} | {ratio} | {r.cpu_seconds:.2f} | "
                     f"{r.peak_mib:,.0f} |")
    densities = arguments.hit_density
    lines += ["", "## Targets", "", "| target | " + " | ".join(f"hit density {d:g}" for d in densities) + " |",
              "|---|" + "---|" * len(densities)]
    for target, cells in _targets(results, arguments.memory_limit, arguments.temp_directory).items():
        lines.append(f"| {target} | " + " | ".join(_cell(cells.get(d)) for d in densities) + " |")
    lines += ["", "## Notes", ""] + [f"- {note}" for note in dict.fromkeys(notes)]
    return lines


def _cell(cell: tuple[str, bool] | None) -> str:
    if cell is None:
        return "not measured"
    measured, met = cell
    return f"{measured}: {'met' if met else '**not met**'}"


def _targets(results: list[Result], memory_limit: str | None,
             temp_directory: str | None) -> dict[str, dict[float, tuple[str, bool]]]:
    """The targets of issue #19 at every size and density measured: target ->
    density -> (what was measured, whether it meets the target)."""
    seconds = {(r.users, r.density, r.tool): r.seconds for r in results if not r.completion}
    cpu = {(r.users, r.density, r.tool): r.cpu_seconds for r in results if not r.completion}
    peaks = {(r.users, r.density, r.tool): r.peak_mib for r in results if not r.completion}
    targets: dict[str, dict[float, tuple[str, bool]]] = {}

    def add(target: str, density: float, measured: str, met: bool) -> None:
        targets.setdefault(target, {})[density] = (measured, met)

    variants = (("rankwise, validate=False", 2), ("rankwise", 3))
    for users, density in sorted({(r.users, r.density) for r in results if not r.completion}):
        at = f"{users:,} users"
        own = {variant: seconds[(users, density, variant)]
               for variant, _ in variants if (users, density, variant) in seconds}
        floor = seconds.get((users, density, "floor query"))
        for variant, budget in variants:
            if variant in own and floor:
                # the CPU ratio beside it, for runs on a busy machine
                cpu_ratio = cpu[(users, density, variant)] / cpu[(users, density, "floor query")]
                add(f"`{variant}` within {budget}x the floor query, {at}", density,
                    f"{own[variant] / floor:.2f}x (CPU {cpu_ratio:.2f}x)", own[variant] <= budget * floor)
        beyond = seconds.get((users, density, "rankwise, beyond accuracy"))
        if beyond and floor and "rankwise" in own:
            added = beyond - own["rankwise"]
            add(f"the beyond-accuracy metrics add at most the floor query's time to `rankwise`, {at}", density,
                f"+{added:.2f} s vs floor {floor:.2f} s", added <= floor)
        for peer, factor in (("pytrec_eval", 10), ("RecTools", 5)):
            for variant in own:
                if (users, density, peer) in seconds:
                    ratio = seconds[(users, density, peer)] / own[variant]
                    add(f"`{variant}` at least {factor}x faster than {peer}, {at}", density, f"{ratio:.1f}x",
                        ratio >= factor)
        for variant in own:
            if (users, density, "RecTools") in peaks:
                own_peak, peer_peak = peaks[(users, density, variant)], peaks[(users, density, "RecTools")]
                add(f"`{variant}` peak memory below RecTools', {at}", density,
                    f"{own_peak:,.0f} vs {peer_peak:,.0f} MiB", own_peak < peer_peak)
        for variant in own:
            smaller = seconds.get((users // 10, density, variant)) if users % 10 == 0 else None
            if smaller:
                growth = own[variant] / smaller
                add(f"`{variant}`: 10x the rows costs at most 11x the time, {users // 10:,} to {at}",
                    density, f"{growth:.1f}x", growth <= 11)
        dbt = [seconds.get((users, density, tool))
               for tool in ("dbt run (package model)", "dbt start-up", "rankwise SQL only")]
        if None not in dbt:
            run, start_up, sql_only = dbt
            add(f"the dbt path adds no more than dbt's start-up to the same SQL, {at}", density,
                f"dbt run {run:.2f} s vs start-up {start_up:.2f} s + SQL {sql_only:.2f} s", run <= start_up + sql_only)
    for r in results:
        if r.completion and r.tool != "floor query":
            add(f"`{r.tool}` completes at {r.users:,} users with memory_limit {memory_limit}, temp_directory "
                f"{temp_directory}", r.density, f"{r.seconds:.1f} s, peak {r.peak_mib:,.0f} MiB", True)
    return targets


def _write_report(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines).rstrip() + "\n")
    print(f"wrote {path}")


def _scale_checks(arguments: argparse.Namespace) -> None:
    """The scale checks of issue #21, each in a fresh process, stopped after --timeout."""
    rows, load_before = [], os.getloadavg()[0]
    if arguments.k_sweep:
        folder, facts = generate(arguments.data_root, K_SWEEP_USERS, SCALE_CHECK_DENSITY)
        print(_density_line(facts), flush=True)
        result = _measure("k sweep", folder, {"k_max": arguments.k_sweep}, timeout=arguments.timeout)
        expected = len(K_SWEEP_METRICS) * arguments.k_sweep
        if result is not None and result["values"]["rows"] != expected:
            raise SystemExit(f"k sweep: {result['values']['rows']} rows, expected {expected}")
        rows.append((f"k = 1..{arguments.k_sweep}: {', '.join(K_SWEEP_METRICS)} at every k (`rankwise.evaluate` defaults)",
                     facts, result))
    if arguments.many_groups:
        users, groups = arguments.many_groups
        folder, facts = generate(arguments.data_root, users, SCALE_CHECK_DENSITY)
        print(_density_line(facts), flush=True)
        for count in (groups, 1):
            result = _measure("many groups", folder, {"groups": count}, timeout=arguments.timeout)
            if result is not None and result["values"]["groups"] != min(count, users):
                raise SystemExit(f"many groups: {result['values']['groups']} groups in the output, expected {count}")
            rows.append((f"{count:,} group{'s' if count > 1 else ''}, each user's list in one, users='interactions', "
                         f"{', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))}", facts, result))
    if arguments.compare:
        users, resampled_users = arguments.compare
        folder, facts = generate(arguments.data_root, users, SCALE_CHECK_DENSITY)
        print(_density_line(facts), flush=True)
        for tool, options, check in (
                ("evaluate per user, three models", {}, "`evaluate(per_user=True)`, three models"),
                ("compare", {"tests": ["t"]}, "`compare`, three models against one, the t test")):
            rows.append((f"{check}: {', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))}", facts,
                         _measure(tool, folder, options, timeout=arguments.timeout)))
        folder, facts = generate(arguments.data_root, resampled_users, SCALE_CHECK_DENSITY)
        print(_density_line(facts), flush=True)
        rows.append((f"`compare`, three models against one, t and randomization (1000 resamples): {', '.join(METRICS)} "
                     f"at k = {', '.join(map(str, CUTOFFS))}", facts,
                     _measure("compare", folder, {"tests": ["t", "randomization"]}, timeout=arguments.timeout)))
    if arguments.diversity:
        users, peer_users = arguments.diversity
        folder, facts = generate(arguments.data_root, users, SCALE_CHECK_DENSITY)
        print(_density_line(facts), flush=True)
        _diversity_inputs(folder)
        checks = [("intra-list diversity", {"distance": "cosine"}, users, f"`rankwise`, cosine of {DIVERSITY_DIMENSIONS}-dimensional vectors"),
                  ("intra-list diversity", {"distance": "hamming"}, users, f"`rankwise`, Hamming over {DIVERSITY_DIMENSIONS} features")]
        for tool in ("RecTools IntraListDiversity", "Recommenders diversity"):
            if _installed(tool):
                checks += [(tool, {}, users, tool), (tool, {"users": peer_users}, peer_users, tool)]
                checks += [("intra-list diversity", {"distance": "hamming" if "RecTools" in tool else "cosine",
                                                     "users": peer_users}, peer_users, "`rankwise`, the same lists")]
        reference: dict[tuple, float] = {}
        for tool, options, check_users, check in checks:
            capped = PEER_MEMORY_CAP_GIB if tool in PEER_PACKAGES else None
            result = _measure(tool, folder, options, timeout=arguments.timeout, memory_cap_gib=capped)
            key = (options.get("distance", "hamming" if "RecTools" in tool else "cosine"), check_users)
            if result is not None and "values" in result:
                value = result["values"]["intra_list_diversity"]
                if key in reference and abs(reference[key] - value) > 1e-9:
                    raise SystemExit(f"{tool} disagrees with rankwise on intra_list_diversity: {value} != {reference[key]}")
                reference.setdefault(key, value)
            rows.append((f"{check}: intra_list_diversity@{DIVERSITY_K} of {check_users:,} users' top {DIVERSITY_K}",
                         facts, result))
    lines = [
        "# Scale checks",
        "",
        f"Generated by `{_command(arguments)}`: each check in a fresh process (imports included), once; "
        f"stopped after {arguments.timeout:g} s.",
        "",
        _machine() + " " + _load(load_before),
        "",
        "| check | data | seconds | CPU seconds | peak MiB |",
        "|---|---|---:|---:|---:|",
    ]
    for check, facts, result in rows:
        data = f"{facts['users']:,} users, {facts['recommended']:,} recommended rows, hit density {facts['achieved']:.3f}"
        if result is None:
            lines.append(f"| {check} | {data} | did not finish in {arguments.timeout:g} s | | |")
        elif "failed" in result:
            lines.append(f"| {check} | {data} | failed under a {PEER_MEMORY_CAP_GIB} GiB memory cap: "
                         f"`{result['failed']}` | | |")
        else:
            lines.append(f"| {check} | {data} | {result['seconds']:.2f} | {result['cpu_seconds']:.2f} | "
                         f"{result['peak_mib']:,.0f} |")
        print(lines[-1], flush=True)
    _write_report(arguments.report or arguments.data_root / "scale-checks.md", lines)


def _heaviest_operators(con: object, query: str, scratch: Path, count: int = 12) -> list[str]:
    """The operators of one more run of `query` that took the most time (summed
    over threads, from DuckDB's JSON profile): a first place to look in the plan."""
    con.execute("set enable_profiling = 'json'")
    con.execute("set profiling_output = ?", [str(scratch)])
    con.sql(query).fetchall()
    con.execute("set enable_profiling = 'no_output'")
    profile = json.loads(scratch.read_text())
    scratch.unlink()
    operators, pending = [], list(profile["operator"])
    while pending:
        node = pending.pop()
        pending += node.get("children", [])
        if node["type"] != "RESULT_COLLECTOR":
            operators.append(node)
    query_info = profile["query"]
    lines = [f"Another run: {query_info['total_time']:.3f} s, {query_info['cpu_time']:.3f} s in operators, peak buffer "
             f"memory {profile['system']['peak_buffer_memory'] / 2**20:,.0f} MiB; the heaviest operators (seconds summed "
             "over threads, output rows, detail):"]
    for node in sorted(operators, key=lambda node: node["timing"], reverse=True)[:count]:
        detail = "; ".join(f"{key}: {value}" for key, value in node.get("extra_info", {}).items()
                           if key not in ("Estimated Cardinality", "Filename(s)"))
        detail = " ".join(detail.split())
        lines.append(f"  {node['timing']:7.3f} s  {node['intermediate_rows']:>12,}  {node['type']:<20} "
                     f"{detail[:160] + ('...' if len(detail) > 160 else '')}")
    return lines


def _profile(data_root: Path, users: int, density: float, path: Path) -> None:
    """EXPLAIN ANALYZE of the floor query and of rankwise's metric query (the SQL
    of `rankwise.sql`, which `rankwise.evaluate` and the package model run) on
    one dataset, each in a fresh connection over views of the Parquet files."""
    import duckdb

    import rankwise

    path.parent.mkdir(parents=True, exist_ok=True)
    folder, facts = generate(data_root, users, density)
    print(_density_line(facts), flush=True)
    metric_query = rankwise.sql("recommendations", "interactions", METRICS + ["entropy@10"], k=CUTOFFS,
                                relevance_col="relevance")
    floor_query = FLOOR_QUERY.format(recommendations="recommendations", interactions="interactions")
    sections = [f"EXPLAIN ANALYZE at {_density_line(facts)}.", _machine()]
    for title, query, settings in (
        (f"floor query (with {PUSHDOWN_OPTIMIZER} disabled)", floor_query,
         [f"set disabled_optimizers = '{PUSHDOWN_OPTIMIZER}'"]),
        (f"rankwise's metric query: {', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))} and entropy@10",
         metric_query, []),
    ):
        con = duckdb.connect()
        for statement in settings:
            con.execute(statement)
        for table in ("recommendations", "interactions"):
            con.execute(f"create view {table} as select * from {_read_parquet(folder, table)}")
        plan = con.sql(f"explain analyze {query}").fetchall()[0][1]
        heaviest = _heaviest_operators(con, query, path.with_name(path.name + ".json"))
        con.close()
        sections.append("\n".join([f"== {title}", "", *settings, query.strip(), "", *heaviest, "", plan]))
    path.write_text("\n\n".join(sections).rstrip() + "\n")
    print(f"wrote {path}")


def _logged_queries(con: object, run: Callable[[], object]) -> list[str]:
    """The statements `run` sends to `con` that read data, in order, each once:
    from DuckDB's query log."""
    con.execute("call truncate_duckdb_logs()")
    con.execute("call enable_logging('QueryLog')")
    try:
        run()
    finally:
        con.execute("call disable_logging()")
    logged = [message for (message,) in con.sql("select message from duckdb_logs where type = 'QueryLog'").fetchall()]
    reading = [query for query in logged if query.lstrip().lower().startswith(("with", "select")) and " from " in query]
    return list(dict.fromkeys(reading))


def _plan(con: object, query: str, disabled: str) -> list[str]:
    """The operators of `query`'s physical plan, depth first, each with its groups,
    aggregates and join conditions; projections, which the optimizer moves
    about without changing the work, are left out."""
    con.execute(f"set disabled_optimizers = '{disabled}'")
    operators, pending = [], list(reversed(json.loads(con.sql(f"explain (format json) {query}").fetchall()[0][1])))
    while pending:
        node = pending.pop()
        pending += reversed(node.get("children", []))
        if node["name"] != "PROJECTION":
            details = {key: value for key, value in node.get("extra_info", {}).items()
                       if key in ("Groups", "Aggregates", "Conditions", "Join Type")}
            operators.append(f"{node['name']} {json.dumps(details, sort_keys=True)}")
    return operators


def _seconds(con: object, query: str, repeat: int = 5) -> tuple[float, float]:
    """The median seconds of `query` with the pushdown and without it, the two
    alternating so that a change in the machine's load falls on both."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for disabled, measured in zip(("", PUSHDOWN_OPTIMIZER), times):
            con.execute(f"set disabled_optimizers = '{disabled}'")
            started = time.perf_counter()
            con.sql(query).fetchall()
            measured.append(time.perf_counter() - started)
    return statistics.median(times[0]), statistics.median(times[1])


def _pushdown(data_root: Path, users: int, density: float, path: Path) -> None:
    """Issue #19: DuckDB 2.0's partial aggregate pushdown makes a join followed
    by count(*) per user slower by grouping both inputs of the join first.
    Every query rankwise runs in the benchmark's uses (evaluate with its checks,
    per user, beyond accuracy; compare of three models), and a control of that
    shape, is planned with the optimizer and without it; where the plans
    differ, both are timed (`_seconds`)."""
    import duckdb

    import rankwise

    folder, facts = generate(data_root, users, density)
    _beyond_inputs(folder)
    con = duckdb.connect()
    for table in ("recommendations", "interactions", "items", "train"):
        con.execute(f"create view {table} as select * from {_read_parquet(folder, table)}")
    con.execute(f"create view models as {_three_models_sql(folder)}")
    common = {"k": CUTOFFS, "relevance_col": "relevance", "con": con}
    uses = {
        "evaluate, default suite with its checks": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS + ["entropy@10"], **common),
        "evaluate, per user": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS, per_user=True, output="arrow", **common),
        "evaluate, beyond accuracy with its checks": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS + ["entropy@10"] + BEYOND_METRICS, items="items", train="train",
            **common),
        "compare, three models, t test": lambda: rankwise.compare(
            "models", "interactions", METRICS, baseline="as_generated", **common),
    }
    lines = [f"# DuckDB's {PUSHDOWN_OPTIMIZER} and rankwise's queries", "", _density_line(facts), _machine(), "",
             "| use | query | plan with the optimizer | seconds with | seconds without |", "|---|---|---|---:|---:|"]
    # the control: a join, then count(*) per user, the shape whose plan the optimizer
    # was seen to change (both inputs grouped by (user, item) before the join)
    control = ("select sum(n) from (select r.user_id, count(*) as n from recommendations as r "
               "inner join interactions as i on i.user_id = r.user_id and i.item_id = r.item_id group by r.user_id)")
    queries = {"the control: a join, then count(*) per user": lambda: con.sql(control).fetchall(), **uses}
    for use, run in queries.items():
        for number, query in enumerate(_logged_queries(con, run), start=1):
            first_stage = query.split("(", 1)[0].split()[1] if query.lstrip().lower().startswith("with") else "select"
            try:
                same = _plan(con, query, PUSHDOWN_OPTIMIZER) == _plan(con, query, "")
            except duckdb.InvalidInputException:
                # the coverage warnings read the means, an Arrow table gone with the call
                continue
            if same:
                lines.append(f"| {use} | {number} ({first_stage}) | the same | | |")
            else:
                with_pushdown, without = _seconds(con, query)
                lines.append(f"| {use} | {number} ({first_stage}) | **different** | {with_pushdown:.2f} | {without:.2f} |")
            print(lines[-1], flush=True)
    _write_report(path, lines)


def _memory_gib() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 1024 / 1024
    return float("nan")


def _versions() -> list[str]:
    versions = [f"{package} {metadata.version(package)}" for package in ("rankwise", "duckdb")]
    for tool, package in PEER_PACKAGES.items():
        version = _peer_version(tool)
        if version is not None:
            versions.append(f"{package} {version}" + (" (own environment)" if tool in PEER_PYTHONS else ""))
    return versions


if __name__ == "__main__":
    main()
