"""The Revolution Will Be Televised (Refuelled pp.141-142): terrain noted in secret, the Pole
holder revealing the uplink, 1 VP for hitting it at most once per Gear Phase, the next uplink
revealed, 3 VP or three rounds, the most VP winning."""

from __future__ import annotations

import random

from tests.builders import drive, ev, rock, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Obstacle, VehicleState
from carnage.games.refuelled.scenarios import scenario_class
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.spawn import set_spawn_point
from carnage.games.refuelled.scenarios.revolution_televised import (
    RESISTANCE,
    RevolutionWillBeTelevised,
    memory,
    note_key,
)
from carnage.geometry.shapes import Pose
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.secrets import REDACTED, secret
from carnage.rulesets import REFUELLED
from carnage.web.redact import events_for

POLE_TO_0 = [6, 1]


class PlacedRevolution(RevolutionWillBeTelevised):
    """The scenario with terrain and vehicles placed by the test: notes, roll-off, spawn
    points in the corners, the first uplink; no deployment decisions."""

    def generate(self, state: GameState, rng: random.Random) -> None:
        return None

    def setup(self, game: Game) -> Flow:
        st = game.state
        for p in range(st.players):
            yield from self.note(game, p)
        st.pole = self.roll_off(game)
        set_spawn_point(game, 0, (50.0, 50.0), source="test", page=None)
        set_spawn_point(game, 1, (850.0, 1150.0), source="test", page=None)
        yield from self.new_uplink(game, "the game begins")


def placed(*vehicles: VehicleState, obstacles: tuple[Obstacle, ...], dice: list[int],
           max_rounds: int = 8) -> Game:
    sc = PlacedRevolution()
    st = GameState(sc.width, sc.height, 2)
    for v in vehicles:
        st.vehicles[v.id] = v
    for o in obstacles:
        st.obstacles[o.id] = o
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=max_rounds))


ROCKS = (rock("rock-1", 450, 600), rock("rock-2", 200, 900), rock("rock-3", 700, 300))


def test_registered_as_a_wasteland_skirmish() -> None:
    assert scenario_class("the-revolution-will-be-televised") is RevolutionWillBeTelevised
    assert RevolutionWillBeTelevised.table_rolls == (5,)
    assert set(RESISTANCE) == {"resistance_broadcast", "censorship"}


def test_notes_are_secret_choices_and_the_pole_holder_reveals_the_first_uplink() -> None:
    a = vehicle("a", "car", 450, 480, player=0, gear=1)
    b = vehicle("b", "car", 100, 300, player=1, gear=1)
    g = placed(a, b, obstacles=ROCKS, dice=POLE_TO_0 + [4] * 20)
    d = g.pending()
    assert d is not None and d.kind == "note_terrain" and d.hidden and d.player == 0
    assert [o.value for o in d.options] == ["rock-1", "rock-2", "rock-3"]
    g.apply("rock-1")
    g.apply("rock-3")  # player 2's note
    # Player 1 has the pole: their note becomes the uplink, and they note again.
    assert memory(g.state)["uplink"] == "rock-1"
    d = g.pending()
    assert d is not None and d.kind == "note_terrain" and d.player == 0
    assert "rock-1" not in [o.value for o in d.options]
    g.apply("rock-2")
    s0, s1 = secret(g, note_key(0)), secret(g, note_key(1))
    assert s0 is not None and s0.value == "rock-2" and s0.seen_by == [0]
    assert s1 is not None and s1.value == "rock-3" and s1.seen_by == [1]
    # Player 2 reads neither of player 1's notes; the reveal is public.
    seen = events_for(g, g.log.events, [1])
    assert all(e.data.get("choice") in (None, "rock-3") for e in seen if e.kind == "decision")
    hidden = [e for e in seen if e.data.get(REDACTED)]
    assert len(hidden) == 4  # two secret choices and two secrets of player 1
    assert ev(g, "uplink")[0]["obstacle"] == "rock-1"


def _start(a: VehicleState, b: VehicleState, dice: list[int]) -> Game:
    g = placed(a, b, obstacles=ROCKS, dice=POLE_TO_0 + dice)
    for choice in ("rock-1", "rock-3", "rock-2"):
        g.apply(choice)
    return g


def test_hitting_the_uplink_scores_and_calls_the_next_uplink() -> None:
    a = vehicle("a", "car", 450, 520, player=0, gear=1)  # front at 550; rock-1 from 580
    b = vehicle("b", "car", 100, 300, player=1, gear=1)
    g = _start(a, b, [4] * 40)
    d = drive(g, template=["short_straight"], spend_shift="done", collision_reaction="smash",
              spend_votes="done")
    assert ev(g, "collision")[0]["other"] == "rock-1"
    assert score.total(g, score.VP, 0) == 1
    # The pole passed to player 2 only at the end of the phase: player 1 still holds it, so
    # their note (rock-2) is revealed and they note again.
    assert [e["obstacle"] for e in ev(g, "uplink")] == ["rock-1", "rock-2"]
    assert d is not None and d.kind == "note_terrain" and d.player == 0 and d.hidden


def test_only_one_uplink_point_per_gear_phase() -> None:
    a = vehicle("a", "car", 450, 520, player=0, gear=1)
    b = vehicle("b", "car", 200, 820, player=1, gear=1)  # in front of rock-2 (the next one)
    g = _start(a, b, [4] * 60)
    drive(g, template=["short_straight", "short_straight"], spend_shift="done",
          collision_reaction="smash", spend_votes="done", note_terrain="rock-1")
    hits = [e["other"] for e in ev(g, "collision")]
    assert hits[:2] == ["rock-1", "rock-2"]
    assert score.total(g, score.VP, 0) == 1 and score.total(g, score.VP, 1) == 0
    assert [e["obstacle"] for e in ev(g, "uplink")] == ["rock-1", "rock-2"]


def test_three_vp_end_the_game_at_once() -> None:
    a = vehicle("a", "car", 450, 520, player=0, gear=1)
    b = vehicle("b", "car", 100, 300, player=1, gear=1)
    g = _start(a, b, [4] * 40)
    score.add(g, score.VP, 2, player=0, source="test", page=None)
    drive(g, template=["short_straight"], spend_shift="done", collision_reaction="smash",
          spend_votes="done")
    out = g.outcome()
    assert out is not None and out.winner == 0 and "reached 3 Victory Points" in out.reason
    assert out.rounds == 1


def test_after_three_rounds_the_most_vp_wins() -> None:
    a = vehicle("a", "car", 450, 200, player=0, gear=1)
    b = vehicle("b", "car", 100, 300, player=1, gear=1)
    g = _start(a, b, [4] * 200)
    score.add(g, score.VP, 1, player=1, source="test", page=None)
    drive(g, template="short_straight/reverse", spend_shift="done", spend_votes="done",
          collision_reaction="smash")
    out = g.outcome()
    assert out is not None and out.winner == 1 and out.rounds == 3
    assert out.reason == "most Victory Points after 3 rounds: P2 with 1"


def test_a_noted_piece_gone_from_the_table_is_noted_again_and_revealed() -> None:
    crate = Obstacle("crate-1", Pose(450, 900, 0), 40, 40, destructible=True)
    a = vehicle("a", "car", 450, 520, player=0, gear=1)
    b = vehicle("b", "car", 100, 300, player=1, gear=1)
    g = placed(a, b, obstacles=(crate, ROCKS[0], ROCKS[2]), dice=[1, 6] + [4] * 40)
    for choice in ("crate-1", "rock-1", "rock-3"):  # notes; player 2 reveals, notes again
        g.apply(choice)
    assert memory(g.state)["uplink"] == "rock-1"
    del g.state.obstacles["crate-1"]  # rammed away: player 1's note names nothing now
    g.state.pole = 0  # (player 2 still acts first in this Gear Phase)
    drive(g, template=["short_straight"] * 2, spend_shift="done", collision_reaction="smash",
          spend_votes="done")
    assert score.total(g, score.VP, 0) == 1
    gone = [e for e in ev(g, "secret_revealed") if e["why"] == "no longer on the table"]
    assert [e["value"] for e in gone] == ["crate-1"]
    # Player 1 noted again (only rock-3 is left besides the uplink) and revealed it.
    assert [e["obstacle"] for e in ev(g, "uplink")] == ["rock-1", "rock-3"]
    assert ev(g, "forced_choice", decision="note_terrain")[0]["seen_by"] == [0]
