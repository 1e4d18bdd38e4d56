"""The rule → code → test tables in docs/coverage.md and docs/rulings.md cite only files,
code names and test functions that exist.

A row cites files in backticks: ``tests/games/refuelled/engine/test_x.py::test_name`` (a test), a bare
``test_x.py::test_name`` (a test file found by name under tests/), ``::test_name`` (another
test in the file cited last), a bare ``test_name`` (the same), or a source path
(``engine/movement.py``, relative to ``src/carnage/`` or to the repository).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/coverage.md", "docs/rulings.md")
SUFFIXES = (".py", ".yaml", ".yml", ".json", ".md", ".js", ".css", ".html", ".toml")
PATH = re.compile(r"^[\w./-]+\.(?:py|ya?ml|json|md|js|css|html|toml)$")
TEST_NAME = re.compile(r"^test_\w+$")
SEARCHED = ("src", "tests", "docs", "examples", "benchmarks")


@cache
def defined_names(path: Path) -> frozenset[str]:
    """Functions and classes in ``path``, methods as ``Class::method``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.ClassDef):
            out.add(node.name)
            out.update(f"{node.name}::{n.name}" for n in node.body
                       if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))
    return frozenset(out)


@cache
def repo_files() -> tuple[str, ...]:
    return tuple(sorted(str(p.relative_to(ROOT)) for top in SEARCHED if (ROOT / top).is_dir()
                        for p in (ROOT / top).rglob("*") if p.is_file()))


def resolve(path: str) -> Path | None:
    """The file a cited ``path`` names, or None: relative to the repository or to
    ``src/carnage/``, else the one file whose path ends with it (``aggression.py`` in the
    perks section, ``js/board.js``); a test file cited by name alone must be unique."""
    for base in (ROOT, ROOT / "src" / "carnage"):
        if (base / path).is_file():
            return base / path
    found = [f for f in repo_files() if f.endswith("/" + path)]
    if path.startswith("test_"):
        return ROOT / found[0] if len(found) == 1 else None
    return ROOT / found[0] if found else None


def rows(doc: str) -> list[tuple[int, list[str]]]:
    """(line number, backticked spans) of every table row of ``doc``."""
    out = []
    for n, line in enumerate((ROOT / doc).read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("|") and not line.startswith("|---"):
            out.append((n, re.findall(r"`([^`]+)`", line)))
    return out


def citation_problems(doc: str) -> list[str]:
    problems: list[str] = []
    current: Path | None = None  # the test file cited last (rows of a section run on)
    for n, spans in rows(doc):
        for span in (part.strip() for whole in spans for part in whole.split(", ")):
            path, _, name = span.partition("::")
            name = re.sub(r"\[.*\]$", "", name).replace(".", "::")
            where = f"{doc}:{n}: `{span}`"
            if not path and name:
                if current is None:
                    problems.append(f"{where}: no test file cited before it")
                elif name not in defined_names(current):
                    problems.append(f"{where}: no {name} in {current.relative_to(ROOT)}")
                continue
            if TEST_NAME.match(span):
                if current is not None and span in defined_names(current):
                    continue
                if not any(span in defined_names(p) for p in (ROOT / "tests").rglob("test_*.py")):
                    problems.append(f"{where}: no test function of that name")
                continue
            if not PATH.match(path) or not path.endswith(SUFFIXES):
                continue  # a code name (`movement_step`, `Weapon.ammo`), not a file
            file = resolve(path)
            if file is None:
                problems.append(f"{where}: no such file")
                continue
            if file.suffix == ".py" and file.name.startswith("test_"):
                current = file
            if name and name not in defined_names(file):
                problems.append(f"{where}: no {name} in {file.relative_to(ROOT)}")
    return problems


def code_problems(doc: str) -> list[str]:
    """In the code column of ``doc``'s rows, a plain name (`road_surface`) cited after a
    source file (`engine/movement.py`) must still be in that file."""
    problems: list[str] = []
    for n, line in enumerate((ROOT / doc).read_text(encoding="utf-8").splitlines(), 1):
        cells = line.split("|")
        if not line.startswith("|") or line.startswith("|---") or len(cells) < 4:
            continue
        file: Path | None = None
        for span in re.findall(r"`([^`]+)`", cells[2]):
            for part in (p.strip() for p in span.split(", ")):
                if PATH.match(part) or (ROOT / part).is_file():  # a file (`Makefile` too)
                    found = resolve(part)
                    file = found if found is not None and found.suffix == ".py" else None
                elif file is not None and re.fullmatch(r"[A-Za-z_]\w*", part) and not re.search(
                        rf"\b{re.escape(part)}\b", file.read_text(encoding="utf-8")):
                    problems.append(f"{doc}:{n}: `{part}` is not in {file.relative_to(ROOT)}")
    return problems


@pytest.mark.parametrize("doc", DOCS)
def test_docs_cite_only_files_and_tests_that_exist(doc: str) -> None:
    problems = citation_problems(doc) + code_problems(doc)
    assert not problems, "\n".join(problems)


def test_the_citation_check_catches_a_missing_test_and_a_missing_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "docs" / "coverage.md"
    doc.parent.mkdir()
    doc.write_text(
        "| rule | code | test |\n|---|---|---|\n"
        "| a | `engine/movement.py` `gone` | `tests/test_docs.py::test_docs_cite_only_files_"
        "and_tests_that_exist`, `::no_such_test` |\n"
        "| b | `engine/no_such_module.py` | `test_docs.py::resolve` |\n", encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "src" / "carnage" / "engine").mkdir(parents=True)
    (tmp_path / "src" / "carnage" / "engine" / "movement.py").write_text("def here(): ...\n",
                                                                         encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_docs.py").write_text(
        Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
    repo_files.cache_clear()
    try:
        problems = citation_problems("docs/coverage.md") + code_problems("docs/coverage.md")
    finally:
        repo_files.cache_clear()
    assert [p.split(": ", 1)[1] for p in problems] == [
        "`::no_such_test`: no no_such_test in tests/test_docs.py",
        "`engine/no_such_module.py`: no such file",
        "`gone` is not in src/carnage/games/refuelled/engine/movement.py",
    ]
