"""Truckasaurus (Refuelled pp.152-153): set-up and victory."""

from __future__ import annotations

from tests.builders import ev

from carnage.engine.game import Game
from carnage.kernel.dice import ScriptedDice
from carnage.rules.scenarios import SCENARIOS
from carnage.rules.scenarios import beast_table as bt
from carnage.rules.scenarios.truckasaurus import Truckasaurus
from carnage.rulesets.setup import GameSetup, build_game


def set_up(players: int = 2, facing: int = 135, max_rounds: int = 40) -> Game:
    dice = ScriptedDice([6] + [1] * (players - 1) + [1] * 400)
    g = build_game(GameSetup(scenario="truckasaurus", players=players, max_rounds=max_rounds),
                   dice=dice)
    while (d := g.pending()) is not None and d.kind not in ("spend_votes", "activate"):
        g.apply(facing if d.kind == "truckasaurus_facing" else d.options[0].value)
    return g


def test_truckasaurus_stands_at_the_centre_facing_the_pole_holders_choice() -> None:
    assert SCENARIOS["truckasaurus"] is Truckasaurus
    g = set_up()
    t = g.state.vehicles["truckasaurus"]
    assert (t.pose.x, t.pose.y, t.pose.heading) == (*bt.centre(g.state), 135.0)
    assert t.neutral and not t.in_team
    assert ev(g, "decision", decision="truckasaurus_facing")[0]["player"] == 0
    assert set(bt.spawns(g.state)) == {0, 1}


def test_three_vp_win_at_once_in_a_two_player_game() -> None:
    g = set_up()
    sc = Truckasaurus()
    sc.score(g, 1, 2, "test", 152)
    assert not g.state.finished
    sc.score(g, 1, 1, "test", 152)
    assert g.state.finished and g.state.winner == 1


def test_five_vp_needed_with_three_players() -> None:
    g = set_up(3)
    sc = Truckasaurus()
    sc.score(g, 2, 4, "test", 152)
    assert not g.state.finished
    sc.score(g, 2, 1, "test", 152)
    assert g.state.winner == 2


def test_after_three_rounds_the_players_with_most_vp_share_the_win() -> None:
    g = set_up(3)
    st = g.state
    st.scenario["vp"] = {"0": 2, "1": 2, "2": 1}
    while (d := g.pending()) is not None:
        g.apply("done" if d.kind == "spend_votes" else
                d.options[0].value if d.options else 0.0)
    assert st.round == 3 and st.draw and st.scenario["winners"] == [0, 1]
    assert "share the win" in st.reason
