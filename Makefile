# Carnage: the two entry points named in the README.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install install-dev compile pure run test lint bench prerequisites-run prerequisites-test

## What a fresh Debian machine lacks (python3-venv; chromium for the browser tests) is
## installed by scripts/prerequisites.sh, which lists every such package in one place.
prerequisites-run:
	@scripts/prerequisites.sh run

prerequisites-test:
	@scripts/prerequisites.sh test

$(BIN)/python: | prerequisites-run
	$(PY) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

## Both installs compile the hot modules (carnage/compiled.py) with mypyc where a C compiler is at hand (the same
## answers, faster; scripts/compile.py says why not otherwise and Carnage stays plain Python).
install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[fast]'
	$(BIN)/python scripts/compile.py

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python scripts/compile.py

## Rebuild the compiled modules after editing them (`make pure` goes back to plain Python).
compile: install-dev

pure:
	$(BIN)/python scripts/compile.py --clean

## The main job: the browser table. Prints the URL to open (Ctrl+C stops it).
run: install
	$(BIN)/carnage serve

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

## The whole test suite: lint, types, tests.
test: prerequisites-test
	$(MAKE) lint
	$(BIN)/pytest

bench: install-dev
	$(BIN)/python benchmarks/geometry.py
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/table_log.py
	$(BIN)/python benchmarks/guard.py
