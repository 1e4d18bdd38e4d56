"""Gaslands: Legacy lives wholly in its package: the team builder's core, the geometry and
drawing of a team's own templates, Refuelled (its engine above all), the other games and the
generic team commands import no Legacy module, not even lazily or for the type checker
(every import counted, followed to the end); at run time, importing them leaves Legacy
unloaded, and the registry loads it (with its vehicle section)."""

from __future__ import annotations

import subprocess
import sys

from tests.imports import SRC, edges_of, modules

LEGACY = "carnage.games.legacy"


def _reached(roots: list[str], edges: dict[str, set[str]]) -> dict[str, str]:
    """Every module ``roots`` import, directly or not, with one module that imports it."""
    seen = {r: r for r in roots}
    todo = list(roots)
    while todo:
        m = todo.pop()
        for w in sorted(edges[m]):
            if w not in seen:
                seen[w] = m
                todo.append(w)
    return seen


def test_no_layer_below_or_beside_legacy_imports_it() -> None:
    mods = modules()
    edges = edges_of(mods)
    for package in ("carnage.team", "carnage.geometry", "carnage.render",
                    "carnage.games.refuelled", "carnage.games.kart", "carnage.games.devilsrun"):
        roots = [m for m in mods if m == package or m.startswith(package + ".")]
        assert roots, package
        reached = _reached(roots, edges)
        bad = {m: by for m, by in reached.items() if m == LEGACY or m.startswith(LEGACY + ".")}
        assert bad == {}, (package, bad)


def test_the_generic_team_commands_import_no_game() -> None:
    edges = edges_of(modules())
    for m in ("carnage.web.routers.teams", "carnage.cli.team_cmd"):
        assert {w for w in edges[m] if w.startswith("carnage.games")} == set(), m


def test_at_run_time_legacy_is_loaded_by_the_registry_only() -> None:
    code = (
        "import sys\n"
        "import carnage.team, carnage.team.check, carnage.geometry.team_templates\n"
        "import carnage.render.team_templates\n"
        "import carnage.games.refuelled.engine.game\n"
        "import carnage.games.refuelled.engine.team_templates\n"
        "from carnage.team.sections import SECTIONS\n"
        "assert not [m for m in sys.modules if m.startswith('carnage.games.legacy')], 'loaded'\n"
        "assert 'legacy' not in SECTIONS\n"
        "import carnage.rulesets\n"
        "assert SECTIONS['legacy'].title == 'Gaslands: Legacy'\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)},
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
