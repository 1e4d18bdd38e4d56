"""Tampered snapshots, generated: Hypothesis changes one value of a real snapshot (of a seeded
game of each ruleset) to another of any JSON kind, and restore either refuses it with
``SnapshotError`` or returns a game on which every legal option of the pending decision can
be applied without crashing."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carnage
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.game import SnapshotError

Doc = dict[str, Any]
Path = tuple[str | int, ...]

GAMES = {
    "refuelled": ("refuelled", "street-race", 1, 30),
    "death-race": ("refuelled", "death-race", 4, 20),
    "kart": ("kart", "street-race", 2, 30),
    "legacy": ("legacy", "street-race", 2, 30),
    "devils-run": ("devils-run", "devils-run", 3, 40),
}
MAX_OPTIONS = 6
"""Legal options applied per restored game (spread over the whole list)."""


def legal(d: Any) -> list[Any]:
    if d.domain is not None:
        return [d.domain.low, (d.domain.low + d.domain.high) / 2, d.domain.high]
    values = [o.value for o in d.options]
    step = max(1, len(values) // MAX_OPTIONS)
    return values[::step][:MAX_OPTIONS]


@cache
def snapshot(name: str) -> Doc:
    ruleset, scenario, seed, moves = GAMES[name]
    g = carnage.new_game(ruleset=ruleset, scenario=scenario, seed=seed)
    for i in range(moves):
        d = g.pending()
        if d is None:
            break
        options = legal(d)
        g.apply(options[i % len(options)])
    doc: Doc = g.snapshot()
    return doc


def leaves(value: Any, path: Path = ()) -> list[Path]:
    """Every place in a document a value can be changed (objects' and lists' members)."""
    out: list[Path] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("$d", "$e"):
                continue
            out.append((*path, k))
            out += leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*path, i))
            out += leaves(v, (*path, i))
    return out


@cache
def places(name: str) -> list[Path]:
    doc = snapshot(name)
    return [p for p in leaves(doc) if p[0] in ("state", "config", "dice", "checkpoint",
                                                "carnage_snapshot", "setup")]


def changed(doc: Doc, path: Path, value: Any) -> Doc:
    out = copy.deepcopy(doc)
    at: Any = out
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return out


JSON_VALUES = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10, max_value=10),
    st.sampled_from([99, -1, 2**70, 10**6]),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([1e300, -1e300, 3.7, 0.5]),
    st.text(max_size=5), st.sampled_from(["nowhere", "p1-red-car", "machine_gun"]),
    st.lists(st.integers(min_value=-3, max_value=7), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def survives(game: Any) -> None:
    d = game.pending()
    if d is None:
        return
    for choice in legal(d):
        copy_ = game.clone()
        try:
            copy_.apply(choice)
        except IllegalChoice:
            raise AssertionError(f"a legal option {choice!r} was refused") from None


@pytest.mark.parametrize("name", list(GAMES))
def test_an_untouched_snapshot_restores_and_plays_on(name: str) -> None:
    survives(carnage.restore(copy.deepcopy(snapshot(name))))


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_tampered_snapshot_is_refused_or_plays_on(name: str, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(places(name)), label="path")
    value = data.draw(JSON_VALUES, label="value")
    doc = changed(snapshot(name), path, value)
    try:
        game = carnage.restore(doc)
    except SnapshotError:
        return
    survives(game)
