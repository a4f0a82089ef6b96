# Two commands do everything on a fresh machine with Python 3.11 and make:
#   make run   - create .venv if needed, install, start the main job
#   make test  - create .venv if needed, install the dev extra, run every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit bench clean

# The first run is the slow one (about 2 minutes on a laptop, mostly downloads): each step says
# what it does before it starts; later runs skip them.
$(BIN)/python:
	@echo "eterna: first run: setting up takes about 2 minutes (a Python environment in $(VENV), then the install); later runs skip it."
	@echo "eterna: creating the Python environment in $(VENV) (about 10 seconds)..."
	$(PYTHON) -m venv $(VENV)
	@echo "eterna: updating pip in $(VENV) (about 10 seconds)..."
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	@echo "eterna: installing Eterna and its dependencies into $(VENV) (1 to 2 minutes the first time, quiet while it works)..."
	$(BIN)/python -m pip install --quiet -e .
	touch $@
	@echo "eterna: installed."

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	@echo "eterna: installing Eterna with its test and lint tools into $(VENV) (2 to 3 minutes the first time, quiet while it works)..."
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP_RUN)
	@echo "eterna: installed."

run: $(STAMP_RUN)
	@echo "eterna: starting the web table: open http://127.0.0.1:8000 once it says it is running (Ctrl+C stops it)."
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
