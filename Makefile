# Two commands do everything on a fresh machine with Python 3.11 and make:
#   make run   - create .venv if needed, install, start the main job
#   make test  - create .venv if needed, install the dev extra, run every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
# The slow steps run through build_engines.py: a line every 5 s says how far they are.
STEP = src/eterna/build_engines.py step
ENGINES = $(BIN)/python src/eterna/build_engines.py

.PHONY: run test lint typecheck unit pure build bench clean cluster cluster-stop fields observers fast-forms

# The first run takes about a minute before the server answers: a Python environment, then the
# pure-Python install (no compilation); the compiled engines are then built in the background
# and the next start runs them (docs/compiled.md). Each step says what it does, how long it
# usually takes and how far it is; later runs skip them.
$(BIN)/python:
	@echo "eterna: first run: about a minute before the server answers (a Python environment in $(VENV), then the install); later runs skip it."
	@$(PYTHON) $(STEP) "creating the Python environment in $(VENV)" 10 -- $(PYTHON) -m venv $(VENV)

# ETERNA_PURE=1: no compilation in the install (setup.py); `make build` compiles.
$(STAMP_RUN): pyproject.toml | $(BIN)/python
	@ETERNA_PURE=1 $(BIN)/python $(STEP) "installing Eterna and its dependencies into $(VENV)" 40 -- \
		$(BIN)/python -m pip install --no-compile -e .
	@touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	@ETERNA_PURE=1 $(BIN)/python $(STEP) "installing Eterna with its test and lint tools into $(VENV)" 120 -- \
		$(BIN)/python -m pip install --no-compile -e ".[dev]"
	@touch $@ $(STAMP_RUN)

# The compiled engines, now (or once the background build ends), with progress; nothing to do
# when they are built and none of their sources changed since.
build: $(STAMP_RUN)
	@$(ENGINES) build

# The web table at once on the engines there are; the compiled ones build in the background
# when they are missing or stale (the next start runs them).
run: $(STAMP_RUN)
	@$(ENGINES) start http://127.0.0.1:8000/api/health
	@echo "eterna: starting the web table: open http://127.0.0.1:8000 once it says it is running (Ctrl+C stops it)."
	$(BIN)/eterna serve  # the web table on http://127.0.0.1:8000 (SQLite under ./data)

# A local cluster on this machine (docs/web.md, "Running on several machines"): Debian's
# postgresql, redis-server and nginx, three nodes behind nginx on http://127.0.0.1:8100; state,
# logs and pid files in build/cluster. `make cluster-stop` stops it all (the games stay).
STAMP_PG := $(VENV)/.installed-postgres
$(STAMP_PG): pyproject.toml | $(STAMP_RUN)
	@ETERNA_PURE=1 $(BIN)/python $(STEP) "installing the PostgreSQL driver into $(VENV)" 20 -- \
		$(BIN)/python -m pip install --no-compile -e ".[postgres]"
	@touch $@

cluster: $(STAMP_PG)
	@ETERNA_PYTHON=$(BIN)/python deploy/cluster.sh start

cluster-stop:
	@deploy/cluster.sh stop

lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP_DEV)
	$(BIN)/mypy

# The suite runs on the compiled engines: built first (a machine without a C compiler runs it on
# the pure ones, as the install says; CI's ETERNA_EXPECT_COMPILED=1 makes that a failure).
unit: $(STAMP_DEV)
	@$(ENGINES) build || echo "eterna: the suite runs on the pure engines."
	$(BIN)/python -m pytest -n 2 -q

# The pure-Python engines on the tests that pin behaviour: the playthroughs, the contract, and
# the compiled-against-pure comparison (tests/engines runs both paths).
pure: $(STAMP_DEV)
	ETERNA_PURE=1 $(BIN)/python -m pytest -n 2 -q tests/playthroughs tests/core tests/engines tests/adapters/test_fast_observe.py

test: lint typecheck unit pure

# Each state field is declared once (src/eterna/core/fields.py): this writes the __slots__ and
# clone that follow from the declarations (a test fails while they disagree).
fields: $(STAMP_RUN)
	$(BIN)/python -m eterna.core.fields --write

# Each observation is written once (src/eterna/core/fastwriter.py): this writes the fast path
# generated from each encoding's writer (a test fails while they disagree).
observers: $(STAMP_RUN)
	$(BIN)/python -m eterna.core.fastwriter --write

# A rule is one function; where its call costs a hot path too much, that path holds the rule's
# fast form (src/eterna/core/inline.py): this writes each one from its function (a test fails
# while one disagrees).
fast-forms: $(STAMP_RUN)
	$(BIN)/python -m eterna.core.inline --write

bench: $(STAMP_DEV)
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) build/engines .pytest_cache .mypy_cache .ruff_cache .hypothesis
