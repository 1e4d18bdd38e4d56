"""A game holds no reference cycle through its effect registry: when the last reference to a
game goes, its memory (log, state) is freed at once, without waiting for the garbage
collector (which tourneys and simulations run rarely, ``analysis.workers.bulk_play``). (A game
stopped between decisions is still held by its own flow, a generator that refers to it.)"""

from __future__ import annotations

import gc
import weakref

import pytest
from tests.builders import heuristic_race

from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.kernel.game import AttachGuard


def test_a_finished_game_is_freed_without_the_collector():
    g, _ = heuristic_race(3)
    assert getattr(g.effects.guard, "__self__", None) is not g  # the guard is not the game's
    log = weakref.ref(g.log)  # the event log: a plain class, reachable only from the game
    was = gc.isenabled()
    gc.disable()
    try:
        del g
        assert log() is None  # freed by its reference count, no collection ran
    finally:
        if was:
            gc.enable()


def test_the_guard_allows_attaching_in_installers_and_temporary_scopes_only():
    g = build_game(GameSetup(), 3)
    guard = g.effects.guard
    assert isinstance(getattr(guard, "__self__", None), AttachGuard)
    assert guard is not None and not guard()  # the flow runs: no handler may be attached
    with pytest.raises(RuntimeError, match="outside an installer"):
        g.effects.on("after_move", "test:late", lambda value, ctx: None)
    with g.temporary("test:scope"):
        assert guard()
        g.effects.on("after_move", "test:scope", lambda value, ctx: None)
    assert not guard() and not g.effects.has("after_move", "test:scope")
    g.attach_untracked("after_move", "test:untracked", lambda value, ctx: None)
    assert g.effects.has("after_move", "test:untracked") and not guard()
    copy = g.clone()  # a copy's installers attach again while it rebuilds, then it is closed
    assert not copy.effects.guard()
