# The two commands of README.md: `make demo` and `make test`. Each creates the
# virtual environment it needs, so both work on a fresh machine.

PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
UNIT_STAMP := $(VENV)/.installed-test-unit
DOCS_STAMP := $(VENV)/.installed-docs
# fakesnow (Snowflake's SQL run on DuckDB, tests/engines/test_snowflake_fakesnow.py)
# pins an older sqlglot than rankwise's, so it has a virtual environment of its own.
FAKESNOW_VENV ?= $(VENV)-fakesnow
FAKESNOW_STAMP := $(FAKESNOW_VENV)/.installed
DBT := PATH=$(BIN):$$PATH DBT_PROFILES_DIR=. DBT_SEND_ANONYMOUS_USAGE_STATS=false $(BIN)/dbt

.PHONY: demo docs test test-fast test-duckdb test-postgres test-spark test-clickhouse test-snowflake test-dbt-versions clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[demo]"
	touch $@

# Headless Chromium opens the HTML report in the browser test (Debian's package;
# as root, as in CI). [test] holds [test-unit] (arrow and report among them) and
# [dbt]: what [demo] installs, so it touches the other stamps too.
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	command -v chromium || (apt-get update && apt-get install -y chromium)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(DEMO_STAMP) $(UNIT_STAMP) $(DOCS_STAMP)

$(FAKESNOW_STAMP): tests/engines/fakesnow-requirements.txt
	$(PYTHON) -m venv $(FAKESNOW_VENV)
	$(FAKESNOW_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(FAKESNOW_VENV)/bin/python -m pip install --quiet -r tests/engines/fakesnow-requirements.txt
	touch $@

# tests/unit only: neither dbt, PostgreSQL, Spark nor Chromium.
$(UNIT_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test-unit]"
	touch $@

# The documentation site: MkDocs, and rankwise itself for the hook that writes
# the reference from the registries.
$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@

## make demo: generate the sample data (seeded), build the metric tables from it on DuckDB, print them with the
## verdict of the personalized model against the popularity one, and write their HTML report
demo: $(DEMO_STAMP)
	cd demo && $(BIN)/python generate_sample_data.py
	cd demo && $(DBT) deps --quiet
	cd demo && $(DBT) build --quiet
	cd demo && $(BIN)/python show_metrics.py

## make docs: build the documentation site (mkdocs.yml over docs/) into site/, failing on a broken link
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

PYTEST := PATH=$(BIN):$$PATH RANKWISE_FAKESNOW_PYTHON=$(abspath $(FAKESNOW_VENV))/bin/python $(BIN)/python -m pytest
# One pytest-xdist worker per core, and one more: a worker that drives Spark or
# dbt waits on them part of the time, which the extra worker fills. Each test
# file runs whole on one worker (a file's tests parametrized by engine, whole per
# engine: tests/conftest.py's work units), so a file's module fixtures (a dbt
# build, a started engine) are built once, and a session fixture once per worker
# that uses it; the units start in the order tests/conftest.py gives them.
WORKERS := $(shell $(PYTHON) -c 'import os; print(os.cpu_count() + 1)')
PARALLEL := -n $(WORKERS) --dist loadfile --no-loadscope-reorder

## make test: the whole suite (pytest, including dbt build of integration_tests/ on DuckDB, PostgreSQL, Spark and
## ClickHouse, and the Snowflake golden cases in fakesnow)
test: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) $(PARALLEL)

## make test-fast: tests/unit, every test that needs neither dbt, another engine, a browser, a
## wheel build, nor more than a couple of seconds (docs/contributing.md); under a minute
test-fast: $(UNIT_STAMP)
	$(PYTEST) $(PARALLEL) tests/unit

## make test-<engine>: dbt build of integration_tests/ on one engine, which the tests start and stop
test-duckdb: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) tests/engines --engines duckdb

test-postgres: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) tests/engines --engines postgres

test-spark: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) tests/engines --engines spark

test-clickhouse: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) tests/engines --engines clickhouse

## make test-snowflake: the golden cases as rankwise.sql writes them for Snowflake, run in fakesnow
test-snowflake: $(TEST_STAMP) $(FAKESNOW_STAMP)
	$(PYTEST) tests/engines/test_snowflake_fakesnow.py

# The dbt versions rankwise is proven on, one virtual environment each
# (.venv-dbt-<minor>/), stated once in tests/dbt_versions/versions.txt.
DBT_VERSIONS_FILE := tests/dbt_versions/versions.txt
DBT_MINORS := $(shell awk '!/^\#/ && NF {print $$1}' $(DBT_VERSIONS_FILE))
DBT_VERSION_STAMPS := $(foreach minor,$(DBT_MINORS),.venv-dbt-$(minor)/.installed)

.venv-dbt-%/.installed: $(DBT_VERSIONS_FILE) tests/dbt_versions/install.py
	rm -rf .venv-dbt-$*
	$(PYTHON) tests/dbt_versions/install.py $* .venv-dbt-$*
	touch $@

## make test-dbt-versions: on every dbt version of tests/dbt_versions/versions.txt (dbt-core 1.8 to 1.12, each with its
## dbt-duckdb, one after the other), dbt build of integration_tests/ on DuckDB, and a new project following README whose
## model over a duplicated row fails with rankwise's message; not part of make test (CI runs it after)
test-dbt-versions: $(UNIT_STAMP) $(DBT_VERSION_STAMPS)
	$(BIN)/python -m pytest -s -v tests/dbt_versions

clean:
	rm -rf $(VENV) $(FAKESNOW_VENV) .venv-dbt-* integration_tests/target integration_tests/dbt_packages integration_tests/logs \
	       demo/target demo/dbt_packages demo/logs demo/seeds/*.csv .pytest_cache site
