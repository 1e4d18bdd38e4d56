"""A restored Devil's Run state's invariants: what a snapshot must satisfy before a game is
built on it (its types are checked first against ``GameState``, kernel/validate.py).

The mission and both gangs exist; the phase is one the state machine has a step for; seats are
0 and 1; every vehicle is its gang's, with Chassis Points within its statline and a square on
the road (or none while in reserve); the tiles are the mission's, in a row; the stash, the
activation and the outcome name vehicles and seats that exist. ``Invalid`` names the field.
"""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun.data import TILE, gangs, missions
from carnage.games.devilsrun.state import (
    DESTROYED,
    REMOVED,
    RESERVE,
    RUNNING,
    WIPED_OUT,
    WRECK,
    GameState,
)
from carnage.kernel.validate import Invalid, check_value, json_value, key_path, one_of, within

STATUSES = (RUNNING, WRECK, WIPED_OUT, REMOVED, DESTROYED, RESERVE)
STASH = ("waiting", "placed", "carried", "gone", "reenter")
SIDES = ("letters", "numbers")
SEATS = (0, 1)
MAX_TURNS = 10_000
WIDTH = 8
"""The road's columns (board.WIDTH, DR-007)."""
MAX_ROW = 1_000_000
PLANNED = frozenset({"approach", "evade", "evade_square", "evaded", "hit"})
"""Phases that follow an offensive move's plan (its path ends in the target's square)."""


def check_devilsrun_doc(doc: dict[str, Any]) -> None:
    """The snapshot's own parts (setup, choices, log): ``Invalid`` naming the first field
    that does not fit."""
    setup = doc.get("setup")
    if not isinstance(setup, dict):
        raise Invalid("setup", "expected an object")
    json_value(setup, "setup")
    choices = doc.get("choices")
    if not isinstance(choices, list):
        raise Invalid("choices", "expected a list")
    for i, c in enumerate(choices):
        check_value(c, str | int, f"choices[{i}]")
    if not isinstance(doc.get("log"), list):
        raise Invalid("log", "expected a list")


def check_devilsrun_state(st: GameState, phases: frozenset[str]) -> None:
    """``Invalid`` naming the first field of ``st`` a game cannot be built on; ``phases``
    are those the game has a step for."""
    check_value(st, GameState, "state")
    if st.mission not in missions():
        raise Invalid("state.mission", f"no mission {st.mission!r} (known: "
                                       f"{', '.join(sorted(missions()))})")
    mission = missions()[st.mission]
    if len(st.gangs) != 2:
        raise Invalid("state.gangs", f"two gangs, not {len(st.gangs)}")
    for i, g in enumerate(st.gangs):
        if g not in gangs() or g not in mission.gangs:
            raise Invalid(f"state.gangs[{i}]", f"{g!r} is not a gang of mission "
                                               f"{st.mission!r}")
    one_of(st.phase, phases, "state.phase")
    within(st.turn, 0, MAX_TURNS, "state.turn")
    for name in ("rolloff_winner", "deploy_player", "first_player", "to_act"):
        one_of(getattr(st, name), SEATS, f"state.{name}")
    if not st.tiles:
        raise Invalid("state.tiles", "the road needs at least one tile")
    names = {t.name for t in mission.tiles}
    for i, t in enumerate(st.tiles):
        one_of(t.name, names, f"state.tiles[{i}].name")
        within(t.origin, 0, MAX_ROW, f"state.tiles[{i}].origin")
        within(t.placed, 0, MAX_ROW, f"state.tiles[{i}].placed")
        if i and t.origin != st.tiles[i - 1].origin + TILE:
            raise Invalid(f"state.tiles[{i}].origin", "the tiles are not in a row")
    within(st.next_tile, 0, MAX_ROW, "state.next_tile")
    back, front = st.tiles[0].origin, st.tiles[-1].origin + TILE
    for vid, v in st.vehicles.items():
        where = key_path("state.vehicles", vid)
        if v.id != vid:
            raise Invalid(f"{where}.id", f"{v.id!r} is filed under {vid!r}")
        one_of(v.player, SEATS, f"{where}.player")
        if v.gang != st.gangs[v.player]:
            raise Invalid(f"{where}.gang", f"{v.gang!r} is not player {v.player}'s gang")
        kinds = gangs()[v.gang].vehicles
        if v.key not in kinds:
            raise Invalid(f"{where}.key", f"{v.gang} has no vehicle {v.key!r}")
        within(v.cp, 0, kinds[v.key].cp, f"{where}.cp")
        one_of(v.status, STATUSES, f"{where}.status")
        if v.pos is not None:
            _square(v.pos, back, front, f"{where}.pos")
        elif v.status in (RUNNING, WRECK):
            raise Invalid(f"{where}.pos", f"a {v.status} vehicle needs a square")
    s = st.stash
    one_of(s.status, STASH, "state.stash.status")
    if s.pos is not None:
        _square(s.pos, back, front, "state.stash.pos")
    if s.carrier is not None and s.carrier not in st.vehicles:
        raise Invalid("state.stash.carrier", f"no vehicle {s.carrier!r}")
    if s.chooser is not None:
        one_of(s.chooser, SEATS, "state.stash.chooser")
    within(s.pickup_tile, -1, MAX_ROW, "state.stash.pickup_tile")
    for key, side in st.sides.items():
        one_of(key, ("0", "1"), "state.sides key")
        one_of(side, SIDES, key_path("state.sides", key))
    for i, vid in enumerate(st.activated):
        if vid not in st.vehicles:
            raise Invalid(f"state.activated[{i}]", f"no vehicle {vid!r}")
    if len(st.collected) != 2:
        raise Invalid("state.collected", f"one count per player, not {len(st.collected)}")
    for i, c in enumerate(st.collected):
        check_value(c, int, f"state.collected[{i}]")
        within(c, 0, 1000, f"state.collected[{i}]")
    if st.act is not None:
        _activation(st, back, front)
    if st.outcome is not None:
        _outcome(st.outcome)


def _square(sq: tuple[int, int], back: int, front: int, where: str) -> None:
    x, y = sq
    within(x, 0, WIDTH - 1, f"{where}[0]", "column")
    within(y, back - TILE, front + TILE, f"{where}[1]", "row")


def _activation(st: GameState, back: int, front: int) -> None:
    a = st.act
    assert a is not None
    if a.vid not in st.vehicles:
        raise Invalid("state.act.vid", f"no vehicle {a.vid!r}")
    from carnage.games.devilsrun.game import ACTION_LABELS

    # Chosen in the "action" phase: before that (and while it is asked) it is still empty.
    actions = {"", *ACTION_LABELS} if st.phase == "action" else set(ACTION_LABELS)
    one_of(a.action, actions, "state.act.action")
    if a.target is not None and a.target not in st.vehicles:
        raise Invalid("state.act.target", f"no vehicle {a.target!r}")
    for i, d in enumerate(a.dice):
        within(d, 1, 3, f"state.act.dice[{i}]")
    within(len(a.dice), 0, 2, "state.act.dice", "count")
    within(a.d3, 0, 3, "state.act.d3")
    for name in ("allowance", "min_required", "spent", "moved", "repair_sixes"):
        within(getattr(a, name), 0, 100, f"state.act.{name}")
    from carnage.games.devilsrun.board import vtype

    mounts = len(vtype(st.vehicles[a.vid]).mounts)
    within(a.weapon, 0, max(0, mounts), "state.act.weapon")
    within(a.target_square, 0, 10, "state.act.target_square")
    for name in ("push", "straight"):
        for j, c in enumerate(getattr(a, name)):
            within(c, -1, 1, f"state.act.{name}[{j}]")
    for i, step in enumerate(a.path):
        for j, c in enumerate(step):
            within(c, -2, 2, f"state.act.path[{i}][{j}]")
    within(len(a.path), 0, 100, "state.act.path", "length")
    if a.target is not None and st.phase in PLANNED and not a.path:
        raise Invalid("state.act.path", f"an offensive move on {a.target!r} needs its path")
    for i, sq in enumerate(a.evade_squares):
        _square(sq, back, front, f"state.act.evade_squares[{i}]")


def _outcome(o: dict[str, Any]) -> None:
    if set(o) != {"winner", "draw", "reason", "rounds", "scores"}:
        raise Invalid("state.outcome", "expected winner, draw, reason, rounds and scores")
    if o["winner"] is not None:
        one_of(o["winner"], SEATS, "state.outcome.winner")
    check_value(o["draw"], bool, "state.outcome.draw")
    check_value(o["reason"], str, "state.outcome.reason")
    check_value(o["rounds"], int, "state.outcome.rounds")
    check_value(o["scores"], list[int], "state.outcome.scores")
    if len(o["scores"]) != 2:
        raise Invalid("state.outcome.scores", "one score per player")

