"""Vehicles no player owns (creatures p.144, Truckasaurus p.152): scripted dice, exact poses,
through the real activation flow."""

from __future__ import annotations

from typing import Any

from tests.builders import (
    StepScenario,
    activate,
    blue_with,
    drive,
    ev,
    play,
    table,
    values,
    vehicle,
)

from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.flow import qualifying
from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios.beasts import (
    acidic_ichor,
    install_creatures,
    install_truckasaurus_rules,
    install_truckasaurus_scenario,
    make_creature,
    make_truckasaurus,
)
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.neutral import install_neutrals, keeper, neutral_activation
from carnage.geometry.shapes import Pose
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


class BeastStep(StepScenario):
    """One step as the whole game, with the beasts' rules installed and no victory check."""

    def install(self, game: Game) -> None:
        install_neutrals(game)
        install_creatures(game)
        install_truckasaurus_rules(game)
        install_truckasaurus_scenario(game, lambda g, p, n, s, pg, **d: score.add(
            g, score.VP, n, player=p, source=s, page=pg))

    def check_end(self, game: Game) -> None:
        return None


def game_on(state: GameState, step: Any, dice: list[int]) -> Game:
    return Game(ruleset=REFUELLED, state=state, scenario=BeastStep(step),
                dice=ScriptedDice(dice))


def creature_table(cy: float = 520.0) -> GameState:
    blue = blue_with(("heavy_machine_gun", "front", None))
    c = make_creature(1, Pose(300.0, cy, 270.0))
    return table(blue, c)


def test_neutral_vehicle_is_no_players_and_never_offered_as_an_activation() -> None:
    st = creature_table()
    g = game_on(st, activate(), [])
    c = st.vehicles["creature-1"]
    assert not c.in_team
    assert [v.id for v in qualifying(g, c.player, 1)] == (["blue"] if c.player == 0 else [])
    assert all(v.id != "creature-1" for p in (0, 1) for v in st.vehicles_of(p))
    assert not g.scenario.counts(g, c)
    assert keeper(g, 0) == 1 and keeper(g, 1) == 0


def test_shot_for_two_damage_enrages_the_creature_which_the_shooter_drives() -> None:
    # Blue moves a Short Straight (no skid dice) and fires its HMG: 6, 6, 1 = 4 hits; the
    # creature evades with 3 dice (Gear 3): 1, 1, 1. Acidic Ichor: 1 die at Blue (2: miss).
    # Enraged: the creature activates in gear phase 1 for Blue's player, Roar declined.
    st = creature_table()
    g = game_on(st, activate("blue"), [6, 6, 1, 1, 1, 1, 2])
    d = drive(g, template=["short_straight"], attack=["heavy_machine_gun#0>creature-1", "stop"],
              roar="no")
    c = st.vehicles["creature-1"]
    assert c.hull_points == 16
    assert ev(g, "evade", vehicle="creature-1")[0]["hits"] == 4
    assert [e["dice"] for e in ev(g, "roll", why="evade")] == [[1, 1, 1]]
    assert ev(g, "acidic_ichor", vehicle="creature-1")[0]["targets"] == ["blue"]
    assert ev(g, "enraged") == [{"vehicle": "creature-1", "player": 0, "after": "blue",
                                 "passed_over": []}]
    assert ev(g, "activation", vehicle="creature-1", free=True)
    assert d is not None and d.kind == "template" and d.vehicle == "creature-1"
    assert d.player == 0 and c.gear == 1


def test_one_damage_does_not_enrage() -> None:
    # 4, 1, 1 = 1 hit, not evaded (1, 1, 1): 1 damage; Ichor at Blue misses (3).
    st = creature_table()
    g = game_on(st, activate("blue"), [4, 1, 1, 1, 1, 1, 3])
    d = drive(g, template=["short_straight"], attack=["heavy_machine_gun#0>creature-1", "stop"])
    assert d is None
    assert st.vehicles["creature-1"].hull_points == 19
    assert ev(g, "enraged") == []


def test_creature_rolls_no_skid_dice_gains_no_hazards_and_takes_the_phase_gear() -> None:
    st = creature_table(cy=900.0)
    c = st.vehicles["creature-1"]

    def step(g: Game) -> Any:
        g.state.gear_phase = 4
        yield from neutral_activation(g, c, 1, source="test", page=144)

    g = game_on(st, step, [])
    d = drive(g, template=["medium_straight"], roar="no")
    assert d is None
    assert c.gear == 4 and c.hazards == 0
    assert not ev(g, "roll", why="skid dice") or ev(g, "roll", why="skid dice")[0]["dice"] == []
    assert ev(g, "neutral_activation") == [{"vehicle": "creature-1", "player": 1, "phase": 4}]
    assert c.pose.y < 900.0 and 4 not in c.activated_phases
    assert c.player == keeper(g, 1)


def test_roar_pivots_the_creature_to_face_its_last_attacker() -> None:
    st = creature_table(cy=900.0)
    c = st.vehicles["creature-1"]
    c.pose = Pose(600.0, 900.0, 0.0)
    st.scenario["beasts"] = {"struck": {"creature-1": "blue"}}

    def step(g: Game) -> Any:
        g.state.gear_phase = 1
        yield from neutral_activation(g, c, 0, source="test", page=144)

    g = game_on(st, step, [])
    drive(g, roar=["roar"], template=[])
    # Blue stands at (300, 300): bearing from (600, 900) is atan2(-600, -300).
    import math
    want = math.degrees(math.atan2(300.0 - 900.0, 300.0 - 600.0)) % 360.0
    assert abs(c.pose.heading - want) < 0.01


def test_creature_always_smashes_back() -> None:
    # Blue drives a Short Straight into the creature 5 mm beyond its nose: Blue smashes
    # (head-on), the creature smashes back without being asked.
    blue = vehicle("blue", "car", 300.0, 300.0, 90.0)
    c = make_creature(1, Pose(300.0, 300.0 + 30.0 + 40.0 + 50.0, 270.0))
    st = table(blue, c)
    g = game_on(st, activate("blue"), [1] * 40)
    asked: list[str] = []
    while (d := g.pending()) is not None:
        asked.append(d.kind if d.vehicle != "creature-1" else "creature:" + d.kind)
        if d.kind == "template":
            g.apply("short_straight")
        elif d.kind == "collision_reaction":
            g.apply("smash")
        else:
            g.apply(d.options[0].value if d.options else 0.0)
    assert "creature:collision_reaction" not in asked
    assert ev(g, "reaction", vehicle="creature-1")[0]["reaction"] == "smash"
    assert ev(g, "smash_attack", attacker="creature-1")


def test_wrecking_a_creature_scores_a_kill_and_two_votes_and_no_wreck_vote() -> None:
    st = creature_table()
    c = st.vehicles["creature-1"]
    c.pose = Pose(300.0, 520.0, 90.0)  # facing away: its skid to a halt touches nothing
    c.damage = 18  # 2 hull points left
    # HMG 6, 6, 6 = 6 hits; evade 1, 1, 1.
    g = game_on(st, activate("blue"), [6, 6, 6, 1, 1, 1] + [1] * 10)
    drive(g, template=["short_straight"], attack=["heavy_machine_gun#0>creature-1", "stop"])
    assert not c.in_play
    assert ev(g, "creature_kill")[0]["player"] == 0
    assert score.total(g, "kills", 0) == 1
    assert st.votes[0] == 2  # the kill's 2 votes; the creature's wreck earns nobody a vote
    assert [e for e in ev(g, "audience_vote") if e.get("player") != 0] == []


def truck_table() -> GameState:
    blue = blue_with(("heavy_machine_gun", "front", None))
    red = vehicle("red", "car", 700.0, 900.0, 270.0, player=1)
    t = make_truckasaurus(Pose(300.0, 520.0, 270.0))
    return table(blue, red, t)


def test_truckasaurus_takes_no_damage_from_weapons() -> None:
    st = truck_table()
    g = game_on(st, activate("blue"), [6, 6, 6, 1, 1, 1] + [1] * 10)
    drive(g, template=["short_straight"], attack=["heavy_machine_gun#0>truckasaurus", "stop"])
    t = st.vehicles["truckasaurus"]
    assert t.damage == 0 and t.in_play
    assert ev(g, "hits_taken", vehicle="truckasaurus")[0]["damage"] == 0


def test_truckasaurus_lives_costs_three_votes_and_feeds_its_driver() -> None:
    # Blue pays 3 votes; Truckasaurus activates for Blue's player before Blue. Red, on
    # 1 hull point, is wrecked in the Truckasaurus activation: Blue scores 1 VP.
    st = truck_table()
    st.votes = [4, 0]
    red = st.vehicles["red"]
    red.damage = red.hull - 1
    red.pose = Pose(300.0, 700.0, 270.0)

    def step(g: Game) -> Any:
        from carnage.games.refuelled.engine.votes import spend_opportunity

        g.state.gear_phase = 1
        yield from spend_opportunity(g, 0)

    g = game_on(st, step, [0] * 0 + [6, 6, 6, 6, 6, 6, 6, 6] + [1] * 40)
    d = drive(g, spend_votes=["truckasaurus_lives", "done"], vote_target=["truckasaurus"],
              pivot=[0.0], template=["short_straight"],
              attack=["125mm_cannon#1>red", "stop"])
    assert st.votes[0] == 1
    assert ev(g, "neutral_activation")[0]["player"] == 0
    assert not red.in_play
    assert ev(g, "truckasaurus_fed")[0] == {"vehicle": "red", "player": 0, "scored": 1,
                                           "friendly": False}
    assert score.total(g, score.VP, 0) == 1
    assert d is None or d.kind in ("spend_votes", "activate")


def test_into_the_danger_zone_costs_a_vote_beyond_double() -> None:
    st = truck_table()
    st.votes = [0, 2]
    g = game_on(st, activate("red"), [1] * 10)
    drive(g, template=["short_straight"])
    assert ev(g, "danger_zone")[0]["player"] == 1 and st.votes[1] == 1


def test_witness_a_smash_attack_on_truckasaurus_earns_a_vote() -> None:
    blue = vehicle("blue", "car", 300.0, 300.0, 90.0)
    t = make_truckasaurus(Pose(300.0, 420.0, 270.0))
    st = table(blue, t)
    g = game_on(st, activate("blue"), [1] * 60)
    while (d := g.pending()) is not None:
        if d.kind == "template":
            g.apply("short_straight")
        elif d.kind == "collision_reaction":
            g.apply("smash")
        else:
            g.apply(d.options[0].value if d.options else 0.0)
    assert ev(g, "audience_vote", source="witness")[0]["player"] == 0
    assert ev(g, "reaction", vehicle="truckasaurus")[0]["reaction"] == "smash"
    assert st.vehicles["truckasaurus"].damage == 0


def test_acidic_ichor_hits_other_creatures_which_spray_in_turn_once_a_step() -> None:
    # Blue's HMG: 4, 1, 1 = 1 hit on Creature 1 (evade 1, 1, 1). At the end of the Attack
    # Step Creature 1 sprays Blue (1: miss) and Creature 2 (6: 2 hits; evade 1, 1, 1);
    # Creature 2, wounded, sprays Blue (1) and Creature 1 (1), which does not spray again.
    st = creature_table()
    c2 = make_creature(2, Pose(420.0, 520.0, 270.0))
    st.vehicles[c2.id] = c2
    g = game_on(st, activate("blue"), [4, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1])
    assert drive(g, template=["short_straight"],
                 attack=["heavy_machine_gun#0>creature-1", "stop"]) is None
    assert [(e["vehicle"], e["targets"]) for e in ev(g, "acidic_ichor")] == [
        ("creature-1", ["blue", "creature-2"]), ("creature-2", ["blue", "creature-1"])]
    assert c2.hull_points == 18 and st.vehicles["creature-1"].hull_points == 19
    assert ev(g, "enraged") == []  # a creature's own attacks enrage nobody (BGH-4)


def test_truckasaurus_rolls_skid_dice_but_never_pushes_it_nor_gains_hazards() -> None:
    st = truck_table()
    t = st.vehicles["truckasaurus"]
    t.pose = Pose(600.0, 600.0, 90.0)

    def step(g: Game) -> Any:
        g.state.gear_phase = 2
        yield from neutral_activation(g, t, 1, source="test", page=152)

    g = game_on(st, step, [1, 2] + [1] * 20)
    asked: list[str] = []
    while (d := g.pending()) is not None:
        asked.append(d.kind)
        g.apply({"template": "short_straight", "skid_dice": 2, "pivot": 45.0,
                 "attack": "stop"}.get(d.kind, d.options[0].value if d.options else 0.0))
    assert asked[0] == "pivot"  # any gear: it is in gear 2 here
    assert "skid_dice" in asked and "push_it" not in asked
    assert t.gear == 2 and t.hazards == 0
    assert ev(g, "roll", why="skid dice")[0]["dice"] == [1, 2]


def test_two_creatures_enraged_at_once_the_player_picks_one_and_the_other_stays() -> None:
    # HMG at Creature 1: 6, 6, 1 = 4 hits; handgun at Creature 2: 6 = 2 hits; no evades.
    # Both took 2+: Blue's player picks Creature 2, which activates; Creature 1 does not.
    st = creature_table()
    c2 = make_creature(2, Pose(420.0, 520.0, 270.0))
    st.vehicles[c2.id] = c2
    g = game_on(st, activate("blue"), [6, 6, 1, 1, 1, 1, 6, 1, 1, 1] + [1] * 40)
    d = drive(g, template=["short_straight"],
              attack=["heavy_machine_gun#0>creature-1", "handgun>creature-2", "stop"])
    assert d is not None and d.kind == "enraged" and d.player == 0
    assert [o.value for o in d.options] == ["creature-1", "creature-2"]
    g.apply("creature-2")
    assert ev(g, "enraged") == [{"vehicle": "creature-2", "player": 0, "after": "blue",
                                 "passed_over": ["creature-1"]}]
    d = g.pending()
    assert d is not None and d.vehicle == "creature-2"
    assert [e["vehicle"] for e in ev(g, "neutral_activation")] == ["creature-2"]


# -- at a real table (companion mode, ruling CP-21) --------------------------------------------
def at_table(state: GameState, step: Any, dice: list[int]) -> Game:
    return Game(ruleset=REFUELLED, state=state, scenario=BeastStep(step),
                dice=ScriptedDice(dice), options=RuleOptions(physical=True))


def wound_then_spray(target: str) -> Any:
    """A step where ``target`` takes one hit (it may evade), then the step's end: Acidic
    Ichor (p.145)."""
    def step(g: Game) -> Any:
        yield from take_hits(g, g.state.vehicles[target], [HitGroup("heavy_machine_gun", 1)],
                             source="attack", page=70)
        yield from acidic_ichor(g)
    return step


def test_at_a_real_table_acidic_ichor_sprays_whom_the_people_name() -> None:
    # Creature 2 stands a metre away on the virtual table and Blue next to Creature 1; the
    # people say only Creature 2 is within Medium of Creature 1: Creature 1's 1 die (6: two
    # hits, evades 1, 1, 1) wounds it, and it sprays in turn: the people name nobody.
    st = creature_table()
    c2 = make_creature(2, Pose(1100.0, 1100.0, 270.0))
    st.vehicles[c2.id] = c2
    g = at_table(st, wound_then_spray("creature-1"), [1, 1, 1, 6, 1, 1, 1])
    d = g.pending()
    assert d is not None and d.kind == "table:ichor_within_medium" and d.page == 145
    assert d.vehicle == "creature-1" and values(d) == ["none", "blue", "creature-2"]
    play(g, "creature-2", "none")
    d = g.pending()
    assert d is not None and d.kind == "table:ichor_within_medium"
    assert d.vehicle == "creature-2" and values(d) == ["none", "blue", "creature-1"]
    play(g, "none")
    assert g.pending() is None
    assert [(e["vehicle"], e["targets"]) for e in ev(g, "acidic_ichor")] == [
        ("creature-1", ["creature-2"]), ("creature-2", [])]
    assert c2.hull_points == 18 and st.vehicles["blue"].damage == 0


def test_at_a_real_table_acidic_ichor_named_nobody_attacks_nobody() -> None:
    # Blue touches Creature 1 on the virtual table, but the people say nobody is within
    # Medium: no die is rolled (the script holds none for it).
    st = creature_table()
    st.vehicles["blue"].pose = Pose(300.0, 420.0, 90.0)
    g = at_table(st, wound_then_spray("creature-1"), [1, 1, 1])
    play(g, "none")
    assert g.pending() is None
    assert ev(g, "acidic_ichor")[0]["targets"] == [] and st.vehicles["blue"].damage == 0


def test_at_a_real_table_the_danger_zone_costs_a_vote_when_the_people_say_beyond() -> None:
    # Red stands next to Truckasaurus on the virtual table; the people say it is beyond
    # Double as its activation begins: it loses a vote (p.152).
    st = truck_table()
    st.vehicles["red"].pose = Pose(300.0, 650.0, 270.0)
    st.votes = [0, 2]
    g = at_table(st, activate("red"), [1] * 10)
    d = g.pending()
    assert d is not None and d.kind == "table:danger_zone" and d.page == 152
    assert d.vehicle == "red" and d.target == "truckasaurus" and values(d) == ["no", "yes"]
    g.apply("yes")
    assert ev(g, "danger_zone")[0]["player"] == 1 and st.votes[1] == 1


def test_at_a_real_table_no_danger_zone_when_the_people_say_within_double() -> None:
    # Red is beyond Double on the virtual table (it loses a vote there); the people say it is
    # within Double: it keeps its votes.
    st = truck_table()
    st.votes = [0, 2]
    g = at_table(st, activate("red"), [1] * 10)
    d = drive(g, **{"table:danger_zone": ["no"]})
    assert d is not None and d.kind != "table:danger_zone"
    assert ev(g, "danger_zone") == [] and st.votes[1] == 2
