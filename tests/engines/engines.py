"""The engines `dbt build` of integration_tests/ runs on, each started for the
test session and stopped after it, with all its state in a scratch folder.

Each engine is a context manager yielding the environment variables that
integration_tests/profiles.yml reads for its target.
"""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import yaml

PROFILES = Path(__file__).resolve().parents[2] / "integration_tests" / "profiles.yml"

Environment = dict[str, str]


@contextlib.contextmanager
def duckdb_engine(scratch: Path) -> Iterator[Environment]:
    """Embedded: a database file in the scratch folder."""
    yield {"RANKWISE_TARGET": "duckdb", "RANKWISE_DUCKDB_PATH": str(scratch / "integration_tests.duckdb")}


@contextlib.contextmanager
def postgres_engine(scratch: Path) -> Iterator[Environment]:
    """A PostgreSQL server of the `pgserver` package (its own binaries, no root),
    listening on a Unix socket in the scratch folder; stopped on exit."""
    import pgserver

    server = pgserver.get_server(scratch / "pgdata", cleanup_mode="stop")
    try:
        uri = urllib.parse.urlsplit(server.get_uri())
        yield {
            "RANKWISE_TARGET": "postgres",
            # the folder of the socket: host=... in the URI's query
            "RANKWISE_POSTGRES_HOST": urllib.parse.parse_qs(uri.query)["host"][0],
            "RANKWISE_POSTGRES_USER": uri.username or "postgres",
            "RANKWISE_POSTGRES_DATABASE": uri.path.lstrip("/") or "postgres",
        }
    finally:
        server.cleanup()


@contextlib.contextmanager
def spark_engine(scratch: Path) -> Iterator[Environment]:
    """A local SparkSession that dbt-spark's `session` method starts inside the
    dbt process, and that ends with it; its metastore and warehouse live in the
    scratch folder, not in the working tree."""
    yield {
        "RANKWISE_TARGET": "spark",
        "SPARK_LOCAL_IP": "127.0.0.1",
        "RANKWISE_SPARK_WAREHOUSE": str(scratch / "spark-warehouse"),
        "RANKWISE_SPARK_METASTORE": str(scratch / "spark-metastore"),
    }


def spark_test_settings() -> dict[str, str]:
    """The Spark settings of integration_tests/profiles.yml's spark target, for
    the sessions the tests start themselves, less those a test sets per run
    (the warehouse and metastore folders, templated there)."""
    profile = yaml.safe_load(PROFILES.read_text())
    settings = profile["rankwise_integration_tests"]["outputs"]["spark"]["server_side_parameters"]
    return {name: value for name, value in settings.items() if "{{" not in value}


@contextlib.contextmanager
def clickhouse_engine(scratch: Path) -> Iterator[Environment]:
    """ClickHouse inside the dbt process (the `chdb` package), its data in the
    scratch folder: tests/engines/commands_in_one_process.py, where dbt runs,
    connects dbt-clickhouse to it."""
    yield {"RANKWISE_TARGET": "clickhouse", "RANKWISE_CHDB_PATH": str(scratch / "chdb")}


ENGINES: dict[str, Callable[[Path], contextlib.AbstractContextManager[Environment]]] = {
    "duckdb": duckdb_engine,
    "postgres": postgres_engine,
    "spark": spark_engine,
    "clickhouse": clickhouse_engine,
}
