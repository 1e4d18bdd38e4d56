"""No import cycle crosses a package boundary (``tests/imports.py``: every import counted, lazy
ones and those for the type checker too; each game under ``carnage.games`` a unit of its own)."""

from __future__ import annotations

from tests.imports import crossing_cycles, edges_of, modules, unit


def test_no_import_cycle_crosses_a_package_boundary() -> None:
    tangles = crossing_cycles(edges_of(modules()))
    assert tangles == [], [sorted({unit(m) for m in t}) for t in tangles]


def test_the_check_finds_a_cycle_between_two_packages() -> None:
    edges = {"carnage.web.a": {"carnage.cli.b"}, "carnage.cli.b": {"carnage.web.a"},
             "carnage.games.kart.x": {"carnage.games.kart.y"},
             "carnage.games.kart.y": {"carnage.games.kart.x"}}
    assert crossing_cycles(edges) == [{"carnage.web.a", "carnage.cli.b"}]
    assert unit("carnage.games.legacy.rules.chapters") == "carnage.games.legacy"
