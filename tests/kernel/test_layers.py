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


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports, leaving out those under ``if TYPE_CHECKING:`` (names
    for the type checker only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            typing_only.update(id(n) for sub in node.body for n in ast.walk(sub))
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_one_command_line_path_reaches_games_only_through_the_registry() -> None:
    """``carnage scenarios|simulate|play|replay`` and the command app itself import no game
    package: every ruleset is reached through ``carnage.rulesets`` and its ``Ruleset``."""
    modules = ("main.py", "scenarios_cmd.py", "simulate_cmd.py", "play_cmd.py",
               "replay_cmd.py", "scenario_opts.py")
    bad = {(m, i) for m in modules for i in _runtime_imports(SRC / "cli" / m)
           if i.startswith("carnage.games")}
    assert bad == set()


def test_the_bot_runner_and_the_search_name_no_devils_run() -> None:
    bad = {(f, m) for f, m in _imports("ai") if m.startswith("carnage.games.devilsrun")}
    assert bad == set()


NOT_YET_ON_THE_ONE_PATH = {"campaigns.py", "campaigndesk.py", "odds.py", "legacy.py", "teams.py"}
"""Web modules that still name a game package (docs/design.md, "Not yet on the one path")."""


def test_the_web_table_and_the_renderer_import_no_game() -> None:
    """Every ruleset's game session, view, log and SVG go through its ``Ruleset`` (the
    Refuelled tabletop lives in ``games/refuelled/``); the renderer draws neutral shapes."""
    bad = {(f, m) for package in ("web", "render") for f, m in _imports(package)
           if m.startswith("carnage.games") and f not in NOT_YET_ON_THE_ONE_PATH}
    assert bad == set()
