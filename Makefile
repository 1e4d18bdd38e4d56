# Carnage: the two entry points named in the README.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install install-dev run test lint bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'

## The main job: the browser table. Prints the URL to open (Ctrl+C stops it).
run: install
	$(BIN)/carnage serve

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

## The whole test suite: lint, types, tests.
test: install-dev lint
	$(BIN)/pytest

bench: install-dev
	$(BIN)/python benchmarks/geometry.py
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/guard.py
