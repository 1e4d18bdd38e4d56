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


GENERIC_LAYERS = ("web", "cli", "ai", "analysis", "campaign", "rl")
"""The layers every game is served through alike: they reach a game only through its
``Ruleset`` from the registry (``carnage.rulesets``)."""
LIBRARIES = ("kernel", "team", "catalog", "geometry", "render")
"""What the games are built on: they know no game, nor the registry of them."""


def test_generic_layers_import_no_game_package() -> None:
    """Every import counted, lazy ones and those for the type checker too."""
    bad = {(layer, f, m) for layer in GENERIC_LAYERS for f, m in _imports(layer)
           if m.startswith("carnage.games")}
    assert bad == set()


def test_the_libraries_under_the_games_import_no_game_nor_the_registry() -> None:
    bad = {(lib, f, m) for lib in LIBRARIES for f, m in _imports(lib)
           if m.startswith(("carnage.games", "carnage.rulesets"))}
    assert bad == set()


def test_a_game_imports_only_the_game_it_overlays() -> None:
    """Kart and Legacy play on Refuelled's engine (overlays of it); Refuelled and Devil's Run
    import no other game."""
    may = {"refuelled": (), "devilsrun": (), "kart": ("refuelled",), "legacy": ("refuelled",)}
    bad = set()
    for game, allowed in may.items():
        others = [g for g in may if g != game and g not in allowed]
        bad |= {(game, f, m) for f, m in _imports(f"games/{game}")
                if m.startswith(tuple(f"carnage.games.{o}" for o in others))}
    assert bad == set()


def test_no_generic_layer_nor_library_names_a_ruleset_in_its_code() -> None:
    """A default ruleset is the registry's (``carnage.rulesets.DEFAULT_RULESET``); what a
    ruleset offers comes from its declaration, never from a test of its name. The database
    migrations keep the names their tables held (history, not a branch)."""
    from carnage.rulesets import RULESETS

    names = set(RULESETS) | {"devilsrun"}
    bad = set()
    for package in (*GENERIC_LAYERS, *LIBRARIES):
        for p in (SRC / package).rglob("*.py"):
            if "alembic" in p.parts:
                continue
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in names:
                    bad.add((package, p.name, node.value))
    assert bad == set()
