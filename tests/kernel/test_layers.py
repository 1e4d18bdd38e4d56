"""The layers import downwards only: the kernel knows no game, the engine no rules module."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "carnage"


def _imports(package: str) -> set[tuple[str, str]]:
    out = set()
    for p in (SRC / package).rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                out.add((p.name, node.module))
            elif isinstance(node, ast.Import):
                out.update((p.name, a.name) for a in node.names)
    return out


def test_the_kernel_imports_no_game() -> None:
    bad = {(f, m) for f, m in _imports("kernel")
           if m.startswith(("carnage.games.refuelled.engine", "carnage.games.refuelled.rules", "carnage.rulesets",
                            "carnage.games.devilsrun", "carnage.catalog", "carnage.team"))}
    assert bad == set()


def test_the_engine_imports_no_rules_module_nor_the_rulesets() -> None:
    bad = {(f, m) for f, m in _imports("engine")
           if m.startswith(("carnage.games.refuelled.rules", "carnage.rulesets"))}
    assert bad == set()


def test_devils_run_uses_the_kernel_not_refuelled() -> None:
    bad = {(f, m) for f, m in _imports("devilsrun")
           if m.startswith(("carnage.games.refuelled.engine", "carnage.games.refuelled.rules", "carnage.rulesets"))}
    assert bad == set()
