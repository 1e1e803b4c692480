# The two commands of README.md: `make demo` and `make test`. Each creates the
# virtual environment it needs, so both work on a fresh machine.

PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
UNIT_STAMP := $(VENV)/.installed-test-unit
DBT := PATH=$(BIN):$$PATH DBT_PROFILES_DIR=. DBT_SEND_ANONYMOUS_USAGE_STATS=false $(BIN)/dbt

.PHONY: demo test test-fast test-duckdb test-postgres test-spark test-clickhouse clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dbt,report]"
	touch $@

# Headless Chromium opens the HTML report in the browser test (Debian's package;
# as root, as in CI). [test] holds [test-unit] and [dbt,report]: the other stamps too.
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	command -v chromium || (apt-get update && apt-get install -y chromium)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(DEMO_STAMP) $(UNIT_STAMP)

# tests/unit only: neither dbt, PostgreSQL, Spark nor Chromium.
$(UNIT_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test-unit]"
	touch $@

## make demo: build the metric tables from bundled sample data on DuckDB, print them and write their HTML report
demo: $(DEMO_STAMP)
	cd demo && $(BIN)/python generate_sample_data.py
	cd demo && $(DBT) deps --quiet
	cd demo && $(DBT) build --quiet
	cd demo && $(BIN)/python show_metrics.py

PYTEST := PATH=$(BIN):$$PATH $(BIN)/python -m pytest
# One pytest-xdist worker per core; each test file runs whole on one worker, so
# a file's module fixtures (a dbt build, a started engine) are built once, and a
# session fixture once per worker that uses it.
PARALLEL := -n auto --dist loadfile

## make test: the whole suite (pytest, including dbt build of integration_tests/ on DuckDB, PostgreSQL, Spark and ClickHouse)
test: $(TEST_STAMP)
	$(PYTEST) $(PARALLEL)

## make test-fast: tests/unit, every test that needs neither dbt, another engine, a browser, a
## wheel build, nor more than a couple of seconds (docs/contributing.md); under a minute
test-fast: $(UNIT_STAMP)
	$(PYTEST) $(PARALLEL) tests/unit

## make test-<engine>: dbt build of integration_tests/ on one engine, which the tests start and stop
test-duckdb: $(TEST_STAMP)
	$(PYTEST) tests/engines --engines duckdb

test-postgres: $(TEST_STAMP)
	$(PYTEST) tests/engines --engines postgres

test-spark: $(TEST_STAMP)
	$(PYTEST) tests/engines --engines spark

test-clickhouse: $(TEST_STAMP)
	$(PYTEST) tests/engines --engines clickhouse

clean:
	rm -rf $(VENV) integration_tests/target integration_tests/dbt_packages integration_tests/logs \
	       demo/target demo/dbt_packages demo/logs demo/seeds/*.csv .pytest_cache
