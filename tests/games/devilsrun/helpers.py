"""Arranging Devil's Run positions for rules tests: vehicles on exact squares, scripted dice."""

from __future__ import annotations

from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.state import REMOVED, RUNNING
from carnage.kernel.dice import ScriptedDice


def arranged(
    mission: str,
    positions: dict[str, tuple[int, int]],
    dice: list[int],
    *,
    to_act: int = 0,
    turn: int = 1,
) -> DevilsRunGame:
    """A game in ``turn`` with only the listed vehicles on the road, player ``to_act`` about
    to choose an activation, and the rest of the dice scripted."""
    g = DEVILS_RUN.new_game(mission, dice=ScriptedDice([2, 1]))
    st = g.state
    assert st.phase == "side"
    st.sides = {"0": "letters", "1": "numbers"}
    for vid, v in st.vehicles.items():
        if vid in positions:
            v.status, v.pos = RUNNING, positions[vid]
        else:
            v.status, v.pos = REMOVED, None
    st.turn = turn
    st.to_act = to_act
    st.first_player = to_act
    st.phase = "next_activation"
    g.dice = ScriptedDice(dice)
    g.log.events.clear()
    _SEEN[id(g)] = 0
    g._run()
    return g


_SEEN: dict[int, int] = {}


def play(g: DevilsRunGame, *choices: str | int) -> None:
    """Apply the choices in order. A choice the engine has already taken by itself (its only
    legal option, logged as ``forced_choice`` since the last applied one) is checked against
    the log instead of applied."""
    for c in choices:
        seen = _SEEN.get(id(g), 0)
        forced = [i for i, e in enumerate(g.log.events)
                  if i >= seen and e.kind == "forced_choice" and e.data["choice"] == c]
        if forced:
            _SEEN[id(g)] = forced[0] + 1
            continue
        g.apply(c)  # an illegal one raises IllegalChoice naming the legal options
        _SEEN[id(g)] = len(g.log) - _trailing_forced(g)


def _trailing_forced(g: DevilsRunGame) -> int:
    """Events since the applied choice's decision event (forced choices may follow it)."""
    for i in range(len(g.log.events) - 1, -1, -1):
        if g.log.events[i].kind == "decision":
            return len(g.log.events) - 1 - i
    return 0


def events(g: DevilsRunGame, kind: str) -> list[dict[str, object]]:
    return [dict(e.data) for e in g.log if e.kind == kind]
