# Two commands do everything on a fresh machine with Python 3.11 and make:
#   make run   - create .venv if needed, install, start the main job
#   make test  - create .venv if needed, install the dev extra, run every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
STAMP_BUILD := $(VENV)/.built
# What the compiled engines are built from (docs/compiled.md): a change rebuilds them.
ENGINE_SOURCES := setup.py src/eterna/engines.py $(wildcard src/eterna/core/*.py) \
	$(wildcard src/eterna/games/*/*.py) src/eterna/agents/ismcts.py

.PHONY: run test lint typecheck unit pure build bench clean

# The first run is the slow one (about 3 minutes on 2 cores: downloads, then compiling the
# engines): each step says what it does before it starts; later runs skip them.
$(BIN)/python:
	@echo "eterna: first run: setting up takes about 3 minutes (a Python environment in $(VENV), then the install); later runs skip it."
	@echo "eterna: creating the Python environment in $(VENV) (about 10 seconds)..."
	$(PYTHON) -m venv $(VENV)
	@echo "eterna: updating pip in $(VENV) (about 10 seconds)..."
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	@echo "eterna: installing Eterna and its dependencies into $(VENV) and compiling its engines (2 to 3 minutes the first time, quiet while it works)..."
	$(BIN)/python -m pip install --quiet -e .
	touch $@ $(STAMP_BUILD)
	@echo "eterna: installed."
	@$(BIN)/eterna --version

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	@echo "eterna: installing Eterna with its test and lint tools into $(VENV) and compiling its engines (3 to 4 minutes the first time, quiet while it works)..."
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP_RUN) $(STAMP_BUILD)
	@echo "eterna: installed."

# The install compiles the engines; after an edit of their sources, build them again (the pure
# modules run meanwhile: `eterna --version` says which).
# (The first install has just built them: the recipe looks again before building.)
$(STAMP_BUILD): $(ENGINE_SOURCES) | $(STAMP_RUN)
	@if [ -e $@ ] && [ -z "$$(find $(ENGINE_SOURCES) -newer $@)" ]; then touch $@; else \
		echo "eterna: compiling the engines again (their sources changed; 2 to 5 minutes)..."; \
		$(BIN)/python -m pip install --quiet --no-deps -e . && touch $@ && \
		$(BIN)/eterna --version; fi

build: $(STAMP_BUILD)

run: $(STAMP_BUILD)
	@echo "eterna: starting the web table: open http://127.0.0.1:8000 once it says it is running (Ctrl+C stops it)."
	$(BIN)/eterna serve  # the web table on http://127.0.0.1:8000 (SQLite under ./data)

lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP_DEV)
	$(BIN)/mypy

unit: $(STAMP_DEV) $(STAMP_BUILD)
	$(BIN)/python -m pytest -n 2 -q

# The pure-Python engines on the tests that pin behaviour: the playthroughs, the contract, and
# the compiled-against-pure comparison (tests/engines runs both paths).
pure: $(STAMP_DEV)
	ETERNA_PURE=1 $(BIN)/python -m pytest -n 2 -q tests/playthroughs tests/core tests/engines tests/adapters/test_fast_observe.py

test: lint typecheck unit pure

bench: $(STAMP_DEV)
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
