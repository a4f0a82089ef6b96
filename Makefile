# Two commands do everything on a fresh machine with Python 3.11 and make:
#   make run   - create .venv if needed, install, start the main job
#   make test  - create .venv if needed, install the dev extra, run every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/eterna serve  # the web table on http://127.0.0.1:8000 (SQLite under ./data)

lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP_DEV)
	$(BIN)/mypy

unit: $(STAMP_DEV)
	$(BIN)/python -m pytest -n 2 -q

test: lint typecheck unit

bench: $(STAMP_DEV)
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
