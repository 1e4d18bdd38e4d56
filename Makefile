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

## The main job (grows into the browser table; the command stays the same).
run: install
	$(BIN)/carnage team show examples/teams/intro.yaml
	$(BIN)/carnage team check examples/teams/intro.yaml

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

## The whole test suite: lint, types, tests.
test: install-dev lint
	$(BIN)/pytest

bench: install-dev
	$(BIN)/python benchmarks/geometry.py
