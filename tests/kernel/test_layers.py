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
           if m.startswith(("carnage.games", "carnage.rulesets", "carnage.catalog",
                            "carnage.team"))}
    assert bad == set()


def test_the_engine_imports_no_rules_module_nor_the_rulesets() -> None:
    bad = {(f, m) for f, m in _imports("games/refuelled/engine")
           if m.startswith(("carnage.games.refuelled.rules", "carnage.rulesets"))}
    assert bad == set()


def test_devils_run_uses_the_kernel_not_refuelled() -> None:
    bad = {(f, m) for f, m in _imports("games/devilsrun")
           if m.startswith(("carnage.games.refuelled", "carnage.games.kart",
                            "carnage.games.legacy", "carnage.rulesets"))}
    assert bad == set()


def test_the_campaign_layer_imports_no_game_nor_the_cli_nor_the_web() -> None:
    """Campaign modes come from the rulesets (``Ruleset.campaign_modes``), the default database
    from ``carnage.dbconfig``."""
    bad = {(f, m) for f, m in _imports("campaign")
           if m.startswith(("carnage.games", "carnage.cli", "carnage.web"))}
    assert bad == set()
