"""The benchmark's data: deterministic lists and interactions at a chosen hit
density, generated once and kept in --data-root, and the inputs that some tools
read beside them (the catalog and train interactions, item vectors and
features, the lists as three models)."""

from __future__ import annotations

import json
from pathlib import Path

DATA_ROOT = Path(__file__).resolve().parent / "data"
LIST_LENGTH = 20
N_ITEMS = 50_000
# The share of recommended rows that are relevant: a model no better than chance
# reaches about 0.007 on this data; published recommenders' precision@10 is 0.1 to 0.35.
DENSITIES = [0.01, 0.1, 0.3]
SIZES = [10_000, 100_000, 1_000_000]
# How far the generated data's hit density may be from the target, relative.
DENSITY_TOLERANCE = 0.2
# The hit density of the scale checks' data.
SCALE_CHECK_DENSITY = 0.1
# Users generated per query: a million users' candidate rows group in memory.
GENERATE_CHUNK_USERS = 1_000_000
# Intra-list diversity (--diversity) reads the catalog's items as vectors of this
# many dimensions (cosine) and as this many features of 4 values (Hamming).
DIVERSITY_DIMENSIONS = 64


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


def density_line(facts: dict) -> str:
    """The achieved hit density, checked against the target: within 20% when the
    data has enough rows for the target to mean anything (1,000 expected hits)."""
    target, achieved = facts["density"], facts["achieved"]
    line = (f"{facts['users']:,} users, hit density {target:g}: {achieved:.4f} of {facts['recommended']:,} recommended rows "
            f"relevant; {facts['interactions'] / facts['users']:.1f} relevant items per user, "
            f"{1 - facts['judged_users'] / facts['users']:.1%} of users without any")
    if target * facts["recommended"] >= 1000 and abs(achieved / target - 1) > DENSITY_TOLERANCE:
        raise SystemExit(f"{line}: off the target by more than {DENSITY_TOLERANCE:.0%}")
    return line


def read_parquet(folder: Path, table: str) -> str:
    """The SQL that reads one of the benchmark's tables, its path as a string literal."""
    path = str(folder / f"{table}.parquet").replace("'", "''")
    return f"read_parquet('{path}')"


def beyond_inputs(folder: Path) -> tuple[Path, Path]:
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


def grouped_items(folder: Path) -> Path:
    """The catalog with an item group per item (`provider`, one of 20, by the
    item id's remainder), written beside the data once: the item groups of
    exposure_disparity (#33)."""
    import duckdb

    items = folder / "items_grouped.parquet"
    if not items.exists():
        con = duckdb.connect()
        con.execute(f"copy (select cast(i as integer) as item_id, cast(i % 20 as integer) as provider "
                    f"from range({N_ITEMS}) as items(i)) to '{items}' (format parquet)")
        con.close()
    return items


def diversity_inputs(folder: Path) -> tuple[Path, Path]:
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


def three_models_sql(folder: Path) -> str:
    """The benchmark's lists as three models: as generated, each list in reverse
    order, and each list with its first half moved to the end (the same items,
    different hits by rank), one model column."""
    recommendations = read_parquet(folder, "recommendations")
    return f"""
        select 'as_generated' as model, user_id, item_id, rank from {recommendations}
        union all
        select 'reversed', user_id, item_id, {LIST_LENGTH} + 1 - rank from {recommendations}
        union all
        select 'rotated', user_id, item_id, (rank + {LIST_LENGTH // 2} - 1) % {LIST_LENGTH} + 1 from {recommendations}
    """
