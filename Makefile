# The two commands of README.md: `make demo` and `make test`. Both create the
# virtual environment they need, so they work on a fresh machine.

PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test test-python test-dbt venv clean

venv: $(STAMP)

$(STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

## make demo: build the metric tables from bundled sample data on DuckDB and print them
demo: $(STAMP)
	cd demo && $(BIN)/python generate_sample_data.py
	cd demo && PATH=$(BIN):$$PATH DBT_PROFILES_DIR=. $(BIN)/dbt deps --quiet
	cd demo && PATH=$(BIN):$$PATH DBT_PROFILES_DIR=. $(BIN)/dbt build --quiet
	cd demo && $(BIN)/python show_metrics.py

## make test: the whole suite (pytest, including dbt build of integration_tests)
test: $(STAMP)
	PATH=$(BIN):$$PATH $(BIN)/python -m pytest tests

clean:
	rm -rf $(VENV) integration_tests/target integration_tests/dbt_packages integration_tests/logs \
	       demo/target demo/dbt_packages demo/logs demo/seeds/*.csv .pytest_cache
