"""Tank Commander (Refuelled pp.150-151): the prescribed teams, unlimited shells, turning the
Cannon and an extra shot for votes, Close Range re-rolls, BOOM!, kills and Commercial Break.
Scripted dice and exact poses through the real flow."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.builders import StepScenario, armed, ev, play, table, values, vehicle

from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.damage import suffer_damage
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.engine.votes import spend_opportunity
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.tank_commander import TankCommander
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game
from carnage.team import parse_team


def tank(vid: str, x: float, y: float, heading: float = 90.0, *, player: int = 0,
         facing: str = "front") -> VehicleState:
    return armed(vehicle(vid, "tank", x, y, heading, player=player),
                 ("125mm_cannon", facing, None))


class Rig(StepScenario):
    """One step as the whole game, with Tank Commander's rules."""

    def __init__(self, step: Callable[[Game], Flow]) -> None:
        super().__init__(step)
        self.tc = TankCommander()

    def install(self, game: Game) -> None:
        self.tc.install(game)


def rig(state: GameState, step: Callable[[Game], Flow], dice: list[int],
        physical: bool = False) -> Game:
    state.scenario["options"] = {"kills_to_win": 3}
    return Game(ruleset=REFUELLED, state=state, scenario=Rig(step), dice=ScriptedDice(dice),
                options=RuleOptions(physical=physical))


def shoot(vid: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        g.state.active = vid
        yield from attack_step(g, g.state.vehicles[vid])

    return step


# -- teams (M-32) ------------------------------------------------------------------------------
def test_registered_and_its_teams_are_two_front_cannon_tanks() -> None:
    assert SCENARIOS["tank-commander"] is TankCommander
    sc = TankCommander()
    assert (sc.page, sc.table, sc.table_rolls) == (150, "Special Event", (5,))
    for spec in sc.default_teams(3):
        assert [v.type for v in spec.vehicles] == ["tank", "tank"]
        assert all([(w.id, str(w.facing)) for w in v.weapons] == [("125mm_cannon", "front")]
                   for v in spec.vehicles)
        report = sc.check_team(spec, "player 1")  # two Tanks despite Military Hardware
        assert report.valid and report.total_cans == 92


def team(vehicles: list[dict[str, object]], cans: int = 102) -> object:
    return parse_team({"name": "Mine", "cans": cans, "sponsor": "rutherford",
                       "vehicles": vehicles}, "test")


def test_brought_teams_must_be_two_front_cannon_tanks_and_at_most_ten_cans_more() -> None:
    sc = TankCommander()
    cannon = {"id": "125mm_cannon", "facing": "front"}
    ok = team([{"name": "A", "type": "tank", "weapons": [cannon, {"id": "machine_gun",
                                                                    "facing": "front"}]},
               {"name": "B", "type": "tank", "weapons": [cannon]}])
    assert sc.check_team(ok, "player 1").valid
    car = team([{"name": "A", "type": "tank", "weapons": [cannon]},
                {"name": "B", "type": "car", "weapons": []}])
    with pytest.raises(SetupError, match="exactly two Tanks"):
        sc.check_team(car, "player 1")
    side = team([{"name": "A", "type": "tank", "weapons": [cannon]},
                 {"name": "B", "type": "tank",
                  "weapons": [{"id": "125mm_cannon", "facing": "rear"}]}])
    with pytest.raises(SetupError, match="B needs a 125mm Cannon mounted front"):
        sc.check_team(side, "player 2")
    hmg = {"id": "heavy_machine_gun", "facing": "turret"}  # free turret mount (TB-2)
    rich = team([{"name": "A", "type": "tank", "weapons": [cannon, hmg],
                  "perks": ["headshot", "return_fire"]},
                 {"name": "B", "type": "tank", "weapons": [cannon, hmg]}], cans=200)
    with pytest.raises(SetupError, match="come to 102"):
        sc.check_team(rich, "player 1")


def test_build_game_gives_the_cannons_unlimited_ammo() -> None:
    g = build_game(GameSetup(scenario="tank-commander", players=2), seed=1)
    for v in g.state.vehicles.values():
        assert [(m.weapon, m.ammo) for m in v.weapons] == [("125mm_cannon", None)]


# -- Give Them A Good Show, Close Range, BOOM!, kills ----------------------------------------------
def test_every_wrecked_tank_explodes() -> None:
    a = tank("a", 300, 300)
    b = tank("b", 700, 900, player=1)

    def step(g: Game) -> Flow:
        yield from suffer_damage(g, g.state.vehicles["b"], 20, source="test", page=0)

    # Skid to a halt (no dice), explosion check 1 (explodes anyway), explosion dice at nobody.
    g = rig(table(a, b, width=900, height=1200), step, [1])
    (check,) = ev(g, "explosion_check")
    assert check["roll"] == 1 and check["explodes"] is True
    assert b.status is Status.REMOVED


def test_close_range_rerolls_the_missed_dice_within_medium() -> None:
    a = tank("a", 450, 400)
    b = tank("b", 450, 570, player=1)  # 90 mm nose to nose: within Medium
    # Cannon 8 dice: 6, 4, then six misses (1, 2, 3, 1, 2, 3): re-rolled: 6, 4, 1, 1, 1, 1.
    # Hits 3 + 3 = 6; b evades with 1 die (1): 6 damage.
    dice = [6, 4, 1, 2, 3, 1, 2, 3, 6, 4, 1, 1, 1, 1, 1]
    g = rig(table(a, b, width=900, height=1200), shoot("a"), dice)
    play(g, "125mm_cannon#0>b")
    play(g, "stop") if g.pending() is not None else None
    assert ev(g, "close_range") == [{"vehicle": "a", "target": "b", "weapon": "125mm_cannon#0",
                                     "rerolled": 6, "hits": 3}]
    assert b.damage == 6


def test_no_close_range_beyond_medium() -> None:
    a = tank("a", 450, 300)
    b = tank("b", 450, 600, player=1)  # 220 mm apart
    g = rig(table(a, b, width=900, height=1200), shoot("a"),
            [6, 4, 1, 2, 3, 1, 2, 3, 1])
    play(g, "125mm_cannon#0>b")
    if g.pending() is not None:
        play(g, "stop")
    assert ev(g, "close_range") == [] and b.damage == 3


def test_boom_and_a_kill_for_wrecking_an_enemy_tank_with_a_shot() -> None:
    a = tank("a", 450, 400)
    b = tank("b", 450, 570, player=1)
    b.damage = 18  # 2 Hull Points left
    # Cannon: 6 + seven 1s; Close Range re-rolls seven: all 1. b evades: 1. b wrecked:
    # explodes (check 1), the explosion's 6 dice at a (all 1).
    dice = [6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    g = rig(table(a, b, width=900, height=1200), shoot("a"), dice)
    play(g, "125mm_cannon#0>b")
    while (d := g.pending()) is not None:
        g.apply("stop" if "stop" in values(d) else values(d)[0])
    assert ev(g, "audience_vote", source="boom") == [
        {"player": 0, "gained": 2, "votes": 2, "vehicle": "a", "target": "b"}]
    assert score.total(g, "kills", 0) == 1 and score.total(g, "kills", 1) == 0


def test_the_third_kill_wins_at_once() -> None:
    a = tank("a", 450, 400)
    b = tank("b", 450, 570, player=1)
    b.damage = 18
    dice = [6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    g = rig(table(a, b, width=900, height=1200), shoot("a"), dice)
    g.state.scenario.setdefault("scores", {})["kills"] = {"s0": 2}
    play(g, "125mm_cannon#0>b", "stop")
    assert g.state.finished and g.state.winner == 0 and "3 kills" in g.state.reason


# -- the vote effects --------------------------------------------------------------------------
def test_audience_participation_turns_a_cannon_for_one_vote() -> None:
    a = tank("a", 450, 400)
    b = tank("b", 700, 900, player=1)

    def step(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    st = table(a, b, width=900, height=1200)
    st.votes = [1, 0]
    g = rig(st, step, [])
    d = g.pending()
    assert d is not None and "turn_cannon" in values(d)
    play(g, "turn_cannon")
    d = g.pending()
    assert d is not None and set(values(d)) == {"a|125mm_cannon#0|left", "a|125mm_cannon#0|right",
                                                 "a|125mm_cannon#0|rear"}
    play(g, "a|125mm_cannon#0|rear")
    assert a.weapons[0].facing == "rear" and g.state.votes[0] == 0
    assert ev(g, "cannon_turned") == [{"vehicle": "a", "weapon": "125mm_cannon#0",
                                       "before": "front", "facing": "rear"}]


def test_on_my_mark_fires_an_extra_cannon_shot_for_one_vote() -> None:
    a = tank("a", 450, 300)
    b = tank("b", 450, 600, player=1)  # beyond Medium: no re-roll

    def step(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    st = table(a, b, width=900, height=1200)
    st.votes = [1, 0]
    g = rig(st, step, [6, 6, 1, 1, 1, 1, 1, 1, 1])  # 4 hits, b evades 1 die (1)
    play(g, "extra_shot")  # its one legal target is taken: a's Cannon at b
    assert ev(g, "votes_spent")[0]["target"] == "a|125mm_cannon#0>b"
    assert ev(g, "on_my_mark")[0]["target"] == "b"
    assert b.damage == 4 and g.state.votes[0] == 0
    assert "on_my_mark" not in g.state.scenario


# -- at a real table (companion mode: CP-10) ---------------------------------------------
def test_at_a_real_table_close_range_rerolls_when_the_people_say_within_medium() -> None:
    # A metre apart on the virtual table; the people report b within Double of a's Cannon,
    # not in cover, and within Medium (CP-10): the six misses are re-rolled (6, 4: 3 hits),
    # 3 + 3 = 6 hits; b's evade (1 die) 1 fails.
    a = tank("a", 100, 100)
    b = tank("b", 800, 1100, player=1)
    dice = [6, 4, 1, 2, 3, 1, 2, 3, 6, 4, 1, 1, 1, 1, 1]
    g = rig(table(a, b, width=900, height=1200), shoot("a"), dice, physical=True)
    play(g, "none", "none", "b@double", "125mm_cannon#0>b", "no")
    d = g.pending()
    assert d is not None and d.kind == "table:close_range" and d.page == 151
    assert (d.vehicle, d.target, values(d)) == ("a", "b", ["no", "yes"])
    play(g, "yes")
    assert ev(g, "close_range") == [{"vehicle": "a", "target": "b", "weapon": "125mm_cannon#0",
                                     "rerolled": 6, "hits": 3}]
    assert b.damage == 6


def test_at_a_real_table_no_close_range_when_the_people_say_beyond_medium() -> None:
    # Nose to nose on the virtual table (the exact table would re-roll); the people say no.
    a = tank("a", 450, 400)
    b = tank("b", 450, 570, player=1)
    g = rig(table(a, b, width=900, height=1200), shoot("a"), [6, 4, 1, 2, 3, 1, 2, 3, 1],
            physical=True)
    play(g, "none", "none", "b@double", "125mm_cannon#0>b", "no", "no")
    assert ev(g, "close_range") == [] and b.damage == 3


def test_at_a_real_table_on_my_mark_shoots_the_shot_the_people_name() -> None:
    # Out of the Cannon's arc on the virtual table (b behind a); the people name a's Cannon at
    # b as open (CP-10), in cover: 8 dice hit on 5+: 6, 5 (3 hits), six misses; not within
    # Medium; b's evade (1 die) 1 fails.
    a = tank("a", 450, 600, 90)
    b = tank("b", 450, 100, player=1)

    def step(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    st = table(a, b, width=900, height=1200)
    st.votes = [1, 0]
    g = rig(st, step, [6, 5, 1, 1, 1, 1, 1, 1, 1], physical=True)
    play(g, "extra_shot")  # its one target at a real table: the shot the people name
    d = g.pending()
    assert d is not None and d.kind == "table:on_my_mark" and d.page == 151
    assert values(d) == ["none", "a|125mm_cannon#0>b"]
    play(g, "a|125mm_cannon#0>b", "yes", "no")
    assert ev(g, "on_my_mark")[0] == {"vehicle": "a", "weapon": "125mm_cannon#0",
                                      "target": "b", "cover": True}
    assert b.damage == 3 and g.state.votes[0] == 0


def test_at_a_real_table_on_my_mark_with_no_open_shot_spends_the_vote_for_nothing() -> None:
    a = tank("a", 450, 300)
    b = tank("b", 450, 600, player=1)  # the exact table would shoot

    def step(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    st = table(a, b, width=900, height=1200)
    st.votes = [1, 0]
    g = rig(st, step, [], physical=True)
    play(g, "extra_shot", "none")
    assert ev(g, "on_my_mark_lost") == [{"player": 0, "reason": "no Cannon shot is open"}]
    assert b.damage == 0 and g.state.votes[0] == 0 and not ev(g, "on_my_mark")


# -- Commercial Break -------------------------------------------------------------------------
class PlacedTC(TankCommander):
    def setup(self, game: Game) -> Flow:
        game.state.pole = 0
        game.state.scenario["spawn_points"] = {"0": [100.0, 100.0], "1": [800.0, 1100.0]}
        yield from ()


def test_commercial_break_respawns_an_out_of_play_tank_for_free_at_round_start() -> None:
    a = tank("a", 450, 400)
    gone = tank("gone", 300, 300)
    gone.status = Status.REMOVED
    b = tank("b", 700, 900, player=1)
    st = table(a, gone, b, width=900, height=1200)
    st.scenario["options"] = {"kills_to_win": 3}
    g = Game(ruleset=REFUELLED, state=st, scenario=PlacedTC(), dice=ScriptedDice([]))
    d = g.pending()
    assert d is not None and d.kind == "commercial_break" and d.vehicle == "gone"
    play(g, "respawn")
    d = g.pending()
    assert d is not None and d.kind == "respawn_position"
    g.apply(values(d)[0])
    assert gone.in_play and gone.hull_points == 10 and g.state.votes == [0, 0]
    assert abs(gone.pose.x - 100) <= 100 and abs(gone.pose.y - 100) <= 100


def test_a_tank_wrecked_in_its_own_activation_with_no_enemy_involved_is_nobodys_kill() -> None:
    a = tank("a", 300, 300)
    b = tank("b", 700, 900, player=1)

    def step(g: Game) -> Flow:
        g.state.active = "b"  # b's own activation: say it flipped on its own Hazards
        yield from suffer_damage(g, g.state.vehicles["b"], 20, source="test", page=0)

    g = rig(table(a, b, width=900, height=1200), step, [1])
    assert b.status is Status.REMOVED and ev(g, "score") == []


def test_a_tank_wrecked_by_the_active_enemy_is_its_kill_whatever_did_it() -> None:
    a = tank("a", 300, 300)
    b = tank("b", 700, 900, player=1)

    def step(g: Game) -> Flow:
        g.state.active = "a"  # during a's activation (a collision, an explosion ...)
        yield from suffer_damage(g, g.state.vehicles["b"], 20, source="test", page=0)

    g = rig(table(a, b, width=900, height=1200), step, [1])
    assert [(e["tally"], e["player"], e["total"]) for e in ev(g, "score")] == [("kills", 0, 1)]


def test_pole_is_rolled_off_and_deployment_follows_it() -> None:
    g = build_game(GameSetup(scenario="tank-commander", players=2),
                   dice=ScriptedDice([2, 5]))  # seat 1 wins the roll-off
    assert g.state.pole == 1
    first = g.pending()
    assert first is not None and first.kind == "spawn_point" and first.player == 1
