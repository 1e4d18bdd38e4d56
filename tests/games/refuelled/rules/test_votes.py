"""Audience Votes in play (Refuelled pp.88-90, team games p.123): exact tables, scripted dice."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.builders import play, run_step, table, values, vehicle

from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot
from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.flow import gear_phase
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import (
    GameState,
    Obstacle,
    Status,
    UpgradeMount,
    VehicleState,
)
from carnage.games.refuelled.engine.votes import (
    DONE,
    EFFECTS,
    HOLD,
    gain_votes,
    hold_pole,
    install_team_game,
    respawn_candidates,
    round_start_votes,
    spend_opportunity,
)
from carnage.games.refuelled.engine.wipeout import lose_control_chooser
from carnage.games.refuelled.scenarios.street_race import StreetRace
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


def spend(player: int = 0) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        yield from spend_opportunity(g, player)

    return step


def with_votes(st: GameState, *votes: int) -> GameState:
    st.votes = list(votes)
    return st


def events(g: Game, kind: str) -> list[dict[str, object]]:
    return [dict(e.data) for e in g.log.events if e.kind == kind]


def sources(g: Game, kind: str) -> list[str]:
    return [e.source for e in g.log.events if e.kind == kind]


# -- gaining ---------------------------------------------------------------------------------------
def test_gain_votes_logs_the_total() -> None:
    g = run_step(table(vehicle("a", "car", 300, 300)), lambda g: iter(()))
    gain_votes(g, 1, 2, source="test", page=1)
    gain_votes(g, 1, 0, source="test", page=1)  # nothing gained, nothing logged
    assert g.state.votes == [0, 2]
    assert events(g, "audience_vote") == [{"player": 1, "gained": 2, "votes": 2}]


def test_round_start_two_votes_only_for_a_player_with_nothing_in_play() -> None:
    mine = vehicle("a", "car", 300, 300, player=0)
    gone = vehicle("b", "car", 600, 600, player=1)
    gone.status = Status.WRECKED
    rc = vehicle("rc", "car", 800, 800, player=1)
    rc.summoned_by = "b"  # an RC Car is not part of the team (p.79)
    g = run_step(table(mine, gone, rc), lambda g: iter(()))
    round_start_votes(g)
    assert g.state.votes == [0, 2]
    assert sources(g, "audience_vote") == ["no_active_vehicles"]


def test_round_start_votes_come_from_the_game_flow() -> None:
    class Stop(Scenario):
        def check_end(self, game: Game) -> None:
            if game.state.round >= 1:
                game.finish(None, "stop", draw=True)

    st = table(vehicle("a", "car", 300, 300, player=0), players=2)
    g = Game(ruleset=REFUELLED, state=st, scenario=Stop(), dice=ScriptedDice([]))
    # Round 1 starts: player 2 has no vehicle and gains 2 votes, then is offered to spend
    # them in Gear Phase 1 before passing (p.88): Carpe Diem, Executive Intervention.
    d = g.pending()
    assert d is not None and d.kind == "template"  # player 1's car activates first
    assert events(g, "audience_vote") == [{"player": 1, "gained": 2, "votes": 2}]


# -- the spend opportunity -------------------------------------------------------------------------
def test_spend_before_activating_burn_rubber_lets_a_gear_1_car_activate_in_phase_2() -> None:
    car = vehicle("a", "car", 300, 300, gear=1)
    st = with_votes(table(car), 1, 0)
    g = run_step(st, lambda g: gear_phase(g, 2))
    d = g.pending()
    assert d is not None and d.kind == "spend_votes" and d.player == 0
    assert values(d) == [DONE, "burn_rubber"]  # the only effect costing 1 with a target
    g.apply("burn_rubber")  # the only target (a:up) is taken as a forced choice
    assert car.gear == 2 and car.hazards == 1 and st.votes == [0, 0]
    assert events(g, "votes_spent") == [{"player": 0, "effect": "burn_rubber", "cost": 1,
                                         "target": "a:up", "votes": 0}]
    # With votes gone there is no further offer; the car now qualifies for Gear Phase 2.
    d = g.pending()
    assert d is not None and d.kind == "template"
    assert [e["vehicle"] for e in events(g, "activation")] == ["a"]


def test_without_spending_the_gear_1_car_passes_in_phase_2() -> None:
    car = vehicle("a", "car", 300, 300, gear=1)
    g = run_step(with_votes(table(car), 1, 0), lambda g: gear_phase(g, 2))
    play(g, DONE)
    assert g.pending() is None
    assert events(g, "activation") == []
    assert [e["player"] for e in events(g, "pass")] == [0, 1]


def test_no_votes_no_question() -> None:
    g = run_step(table(vehicle("a", "car", 300, 300, gear=1)), lambda g: gear_phase(g, 2))
    assert g.pending() is None  # both players passed without being asked anything


def test_unaffordable_effect_is_not_offered_and_is_illegal() -> None:
    car = vehicle("a", "car", 300, 300, gear=2, hazards=2)
    foe = vehicle("b", "car", 700, 700, player=1)
    g = run_step(with_votes(table(car, foe), 1, 0), spend())
    d = g.pending()
    assert d is not None
    assert values(d) == [DONE, "burn_rubber", "thunderous_applause"]
    with pytest.raises(IllegalChoice, match="executive_intervention"):
        g.apply("executive_intervention")
    assert g.state.votes == [1, 0]  # an illegal choice changes nothing


def test_several_effects_in_one_opportunity_until_done() -> None:
    car = vehicle("a", "car", 300, 300, gear=3, hazards=4)
    g = run_step(with_votes(table(car), 3, 0), spend(), dice=[2])
    play(g, "thunderous_applause", "burn_rubber", "a:down", DONE)
    assert car.hazards == 4 - 2 + 1 and car.gear == 2
    assert g.state.votes == [1, 0]
    assert [e["effect"] for e in events(g, "votes_spent")] == ["thunderous_applause",
                                                               "burn_rubber"]


# -- the six effects -------------------------------------------------------------------------------
def test_thunderous_applause_removes_d6_hazards_never_below_zero() -> None:
    car = vehicle("a", "car", 300, 300, hazards=3)
    g = run_step(with_votes(table(car), 1, 0), spend(), dice=[5])
    play(g, "thunderous_applause")
    assert car.hazards == 0
    assert events(g, "hazards") == [{"vehicle": "a", "change": -3, "hazards": 0}]
    assert events(g, "roll")[0]["dice"] == [5]


def test_executive_intervention_tops_an_enemy_up_to_five_hazards() -> None:
    car = vehicle("a", "car", 300, 300)
    foe = vehicle("b", "car", 700, 700, player=1, hazards=2)
    full = vehicle("c", "car", 900, 300, player=1, hazards=5)
    g = run_step(with_votes(table(car, foe, full), 2, 0), spend())
    play(g, "executive_intervention")
    # Only the enemy below 5 Hazards is a target, so it is chosen automatically.
    assert foe.hazards == 5 and full.hazards == 5
    assert events(g, "hazards")[-1] == {"vehicle": "b", "change": 3, "hazards": 5}
    assert g.state.votes == [0, 0]


def test_reload_adds_an_ammo_token_to_a_weapon_or_an_upgrade() -> None:
    car = vehicle("a", "car", 300, 300, weapons=[("rockets", "front"), ("machine_gun", "front")])
    car.weapons[0].ammo = 0
    car.fitted.append(UpgradeMount("nitro_booster#0", "nitro_booster", None, 1))
    g = run_step(with_votes(table(car), 4, 0), spend())
    play(g, "reload")
    d = g.pending()
    assert d is not None and d.kind == "vote_target"
    # The machine gun has no ammo tokens to gain.
    assert values(d) == ["a|rockets#0", "a|nitro_booster#0"]
    play(g, "a|rockets#0", "reload", "a|nitro_booster#0")
    assert car.weapons[0].ammo == 1 and car.fitted[0].ammo == 2
    assert g.state.votes == [0, 0]


def test_carpe_diem_moves_pole_to_a_chosen_player() -> None:
    st = with_votes(table(vehicle("a", "car", 300, 300), players=3), 2, 0, 0)
    g = run_step(st, spend())
    play(g, "carpe_diem")
    d = g.pending()
    assert d is not None and values(d) == ["pole:1", "pole:2", HOLD]
    g.apply("pole:2")
    assert st.pole == 2
    assert events(g, "pole") == [{"player": 2, "reason": "carpe diem"}]


def test_carpe_diem_hold_stops_the_next_pole_move_only() -> None:
    race = StreetRace()
    st = table(vehicle("a", "car", 300, 300), players=2)
    g = Game(ruleset=REFUELLED, state=st, scenario=Scenario(), dice=ScriptedDice([]))
    st.pole = 0
    hold_pole(g, 1)
    race.end_of_gear_phase(g)
    assert st.pole == 0
    race.end_of_gear_phase(g)
    assert st.pole == 1
    assert events(g, "pole_held") == [{"player": 0, "held_by": 1, "reason": "passed clockwise"}]


def test_carpe_diem_hold_bought_with_votes() -> None:
    st = with_votes(table(vehicle("a", "car", 300, 300)), 4, 0)
    g = run_step(st, spend())
    play(g, "carpe_diem", HOLD, "carpe_diem", HOLD)
    scenario = g.scenario
    assert not scenario.move_pole(g, 1, "test", source="test", page=None)
    assert not scenario.move_pole(g, 1, "test", source="test", page=None)  # holds stack
    assert scenario.move_pole(g, 1, "test", source="test", page=None) and st.pole == 1


def test_carpe_diem_hold_also_stops_a_carpe_diem_move() -> None:
    # Ruling SP-2: "the next time it would be moved" includes a move bought with votes.
    st = with_votes(table(vehicle("a", "car", 300, 300)), 2, 2)

    def both(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)
        yield from spend_opportunity(g, 1)

    g = run_step(st, both)
    play(g, "carpe_diem", HOLD, "carpe_diem", "pole:1")
    assert st.pole == 0 and len(events(g, "pole_held")) == 1
    assert st.votes == [0, 0]


# -- respawn ---------------------------------------------------------------------------------------
def wrecked_then_spend(vid: str, player: int = 0) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        yield from wreck(g, g.state.vehicles[vid])
        yield from spend_opportunity(g, player)

    return step


def test_respawn_turns_the_wreck_back_over_with_half_hull() -> None:
    car = vehicle("a", "car", 300, 300, 90, gear=3, hazards=2)
    foe = vehicle("b", "car", 800, 800, player=1)
    st = with_votes(table(car, foe), 2, 0)
    g = run_step(st, wrecked_then_spend("a"), dice=[1])  # explosion check 1: a wreck
    assert car.status is Status.WRECKED and "wreck:a" in st.obstacles
    d = g.pending()
    assert d is not None and "respawn" in values(d)  # 2 + 1 for the wreck = 3 votes
    wreck_pose = st.obstacles["wreck:a"].pose
    g.apply("respawn")
    assert car.status is Status.ACTIVE and "wreck:a" not in st.obstacles
    assert car.pose == wreck_pose
    assert car.hull_points == car.hull // 2 and car.gear == 1 and car.hazards == 0
    assert events(g, "respawn")[0]["how"] == "wreck"
    assert st.votes == [0, 0]


def test_respawn_of_an_exploded_vehicle_uses_the_scenario_placement() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    foe = vehicle("b", "car", 800, 800, player=1)
    st = with_votes(table(car, foe), 2, 0)
    # Explosion check 6: it explodes (4 dice at nothing in range) and is removed.
    g = run_step(st, wrecked_then_spend("a"), dice=[6])
    assert car.status is Status.REMOVED
    halted = events(g, "forced_move")[0]  # its skid to a halt
    play(g, "respawn")  # base scenario: where it last stood, the only place (forced)
    assert car.in_play and events(g, "respawn")[0]["how"] == "placed"
    assert (round(car.pose.x, 3), round(car.pose.y, 3)) == (halted["x"], halted["y"])
    assert car.hull_points == car.hull // 2 == 5


def test_respawn_not_offered_while_a_vehicle_is_in_play_or_never_wrecked() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    other = vehicle("c", "car", 600, 300, 90)
    left = vehicle("d", "car", 900, 300, 90)
    left.status = Status.DISQUALIFIED  # left the table: not wrecked (p.87)
    st = with_votes(table(car, other, left), 5, 0)
    g = run_step(st, wrecked_then_spend("a"), dice=[1])
    d = g.pending()
    assert d is not None and "respawn" not in values(d)
    assert respawn_candidates(g, 0) == []
    other.status = Status.WRECKED  # now nothing of player 1's team is in play
    assert [v.id for v in respawn_candidates(g, 0)] == ["a"]  # c was never Wrecked


def test_base_scenario_cannot_place_a_vehicle_where_something_now_stands() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    foe = vehicle("b", "car", 800, 800, player=1)
    st = with_votes(table(car, foe), 2, 0)
    g = run_step(st, wrecked_then_spend("a"), dice=[6])
    assert [v.id for v in respawn_candidates(g, 0)] == ["a"]
    st.obstacles["rock"] = Obstacle("rock", Pose(car.pose.x, car.pose.y, 0), 40, 40)
    assert respawn_candidates(g, 0) == []


def test_street_race_respawns_on_the_starting_grid() -> None:
    race = StreetRace()
    st = GameState(width=race.width, height=race.height, players=2)
    car = vehicle("a", "car", 450, 900, 90)
    car.status = Status.REMOVED
    blocker = vehicle("b", "car", 450, 120, 90, player=1)
    st.vehicles = {"a": car, "b": blocker}
    g = Game(ruleset=REFUELLED, state=st, scenario=Scenario(), dice=ScriptedDice([]))
    spots = race.respawn_positions(g, car)
    assert spots and all(abs(p.y - (150.0 - 30.0)) < 1e-6 and p.heading == 90.0
                         for p in spots.values())
    # Clear of the vehicle standing on the grid centre.
    assert "starting grid +0 mm" not in spots and "starting grid +45 mm" in spots


def test_respawned_flow_hook_runs() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    foe = vehicle("b", "car", 800, 800, player=1)
    st = with_votes(table(car, foe), 2, 0)
    seen: list[str] = []

    def hook(flows: list[object], ctx: dict[str, object]) -> list[object]:
        def flow(g: Game, c: dict[str, object]) -> Flow:
            v = c["vehicle"]
            assert isinstance(v, VehicleState)
            seen.append(v.id)
            yield from ()

        return [*flows, flow]

    g = run_step(st, wrecked_then_spend("a"), dice=[1])
    g.attach_untracked("respawned", "test", hook)
    g.apply("respawn")
    assert seen == ["a"]


# -- team games (p.123) ----------------------------------------------------------------------------
def test_team_game_teammates_vehicles_count_as_ones_own() -> None:
    mate = vehicle("m", "car", 300, 300, player=2, hazards=3)
    foe = vehicle("f", "car", 700, 700, player=1, hazards=1)
    st = with_votes(table(vehicle("a", "car", 100, 100), mate, foe, players=4), 2, 0, 0, 0)

    def step(g: Game) -> Flow:
        install_team_game(g, [[0, 2], [1, 3]])
        yield from spend_opportunity(g, 0)

    g = run_step(st, step)
    d = g.pending()
    assert d is not None and "thunderous_applause" in values(d)  # the teammate's hazards
    play(g, "executive_intervention")  # the teammate is not an enemy: only f is a target
    assert foe.hazards == 5 and mate.hazards == 3


def test_team_game_pole_and_lose_control_skip_teammates() -> None:
    st = table(vehicle("a", "car", 300, 300, player=0), players=4)
    g = Game(ruleset=REFUELLED, state=st, scenario=Scenario(), dice=ScriptedDice([]))
    install_team_game(g, [[0, 1], [2, 3]])
    st.pole = 0
    assert g.scenario.move_pole(g, 1, "passed clockwise", source="test", page=None)
    assert st.pole == 2  # seat 1 is player 0's teammate
    v = st.vehicles["a"]
    assert lose_control_chooser(g, v, v) == 2


# -- bots ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", [RandomBot(), HeuristicBot()])
def test_bots_answer_vote_decisions_legally(bot: RandomBot | HeuristicBot) -> None:
    import random

    car = vehicle("a", "car", 300, 300, gear=2, hazards=4,
                  weapons=[("rockets", "front")])
    foe = vehicle("b", "car", 700, 700, player=1)
    g = run_step(with_votes(table(car, foe), 9, 0), spend(), dice=[3] * 20)
    rng = random.Random(1)
    for _ in range(40):
        d = g.pending()
        if d is None:
            break
        g.apply(bot.choose(g, d, rng))
    assert g.pending() is None


def test_heuristic_bot_cools_a_hot_car_and_keeps_the_rest() -> None:
    import random

    car = vehicle("a", "car", 300, 300, gear=2, hazards=4)
    g = run_step(with_votes(table(car), 1, 0), spend(), dice=[3])
    d = g.pending()
    assert d is not None
    bot = HeuristicBot()
    assert bot.choose(g, d, random.Random(0)) == "thunderous_applause"
    car.hazards = 0
    assert bot.choose(g, d, random.Random(0)) == DONE


def test_every_effect_has_an_id_name_cost_and_page() -> None:
    assert [(e.id, e.cost, e.page) for e in EFFECTS] == [
        ("burn_rubber", 1, 89), ("thunderous_applause", 1, 89),
        ("executive_intervention", 2, 89), ("reload", 2, 89), ("carpe_diem", 2, 90),
        ("respawn", 3, 90),
    ]


def test_respawn_gives_at_least_one_hull_point() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    car.hull = 1  # ruling SP-4: half of 1 rounds down to 0, but it comes back with 1
    foe = vehicle("b", "car", 800, 800, player=1)
    g = run_step(with_votes(table(car, foe), 2, 0), wrecked_then_spend("a"), dice=[1])
    play(g, "respawn")
    assert car.in_play and car.hull_points == 1


def test_team_game_last_side_standing_wins() -> None:
    st = table(vehicle("a", "car", 300, 300, player=0), vehicle("b", "car", 600, 300, player=2),
               vehicle("c", "car", 900, 300, player=1), players=4)
    g = Game(ruleset=REFUELLED, state=st, scenario=Scenario(), dice=ScriptedDice([]))
    install_team_game(g, [[0, 2], [1, 3]])
    g.scenario.check_end(g)
    assert not st.finished  # both sides still have vehicles in play
    st.vehicles["c"].status = Status.WRECKED
    g.scenario.check_end(g)
    assert st.finished and st.winner == 0
    assert g.outcome_reason == "last team with vehicles in play"

