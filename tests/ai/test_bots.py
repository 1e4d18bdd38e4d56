"""Bots: random and heuristic choices on hand-made decisions, and legality over whole games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.builders import race, rock, vehicle

from carnage.ai import BOTS, bot_rng, make_bot, play_out
from carnage.catalog import TemplateUse, load_catalog
from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot, fallback
from carnage.games.refuelled.ai.field import FAR, distance_field
from carnage.games.refuelled.engine.game import Game, ask
from carnage.games.refuelled.engine.movement import (
    obstructions_for,
    parse_template_value,
    template_options,
)
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.movement import MoveResult, resolve_move
from carnage.geometry.surfaces import move_pieces
from carnage.geometry.table import Table, off_table
from carnage.kernel.decisions import Decision, Interval, Option

RNG = random.Random(0)


def template_pick(g: Game, v: VehicleState, chooser: int | None = None) -> tuple[str, MoveResult]:
    g.state.active = v.id
    d = ask(v.player if chooser is None else chooser, "template", "pick",
            template_options(g, v, permitted_only=chooser is not None and chooser != v.player))
    pick = HeuristicBot().choose(g, d, RNG)
    return str(pick), moved(g, v, str(pick))


def moved(g: Game, v: VehicleState, value: str) -> MoveResult:
    tid, mirror, reverse = parse_template_value(value)
    return resolve_move(v.rect(), tid, obstructions_for(g, v), mirror=mirror, reverse=reverse)


def leaves_table(g: Game, res: MoveResult) -> bool:
    return off_table(move_pieces(res)[:-1], Table(g.state.width, g.state.height))


def use(value: str, gear: int) -> TemplateUse:
    return load_catalog().templates.get(parse_template_value(value)[0]).use_in(gear)


# -- random ---------------------------------------------------------------------------------
def test_random_bot_is_uniform_over_options_and_domains() -> None:
    g = race(vehicle("a", "car", 450, 500), dice=[6, 1])
    d = Decision(0, "x", "pick", options=tuple(Option(i, str(i)) for i in range(5)))
    rng = random.Random(3)
    picks = [RandomBot().choose(g, d, rng) for _ in range(500)]
    assert set(picks) == set(range(5))
    assert all(60 <= picks.count(i) <= 140 for i in range(5))
    s = Decision(0, "spin", "angle", domain=Interval(-90, 90))
    xs = [float(RandomBot().choose(g, s, rng)) for _ in range(300)]
    assert all(s.domain is not None and s.domain.contains(x) for x in xs)
    assert min(xs) < -70 and max(xs) > 70 and len(set(xs)) == 300


def test_registry_and_fallback() -> None:
    assert set(BOTS) == {"random", "heuristic", "search", "search:easy", "search:normal",
                         "search:hard"}
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    with pytest.raises(ValueError, match="unknown bot 'clever' \\(known: heuristic, random, "
                                         "search, search:easy, search:hard, search:normal\\)"):
        make_bot("clever")
    d = Decision(0, "attack", "shoot?", options=(Option("stop"), Option("mg>x")))
    assert fallback(d) == "mg>x"
    assert fallback(Decision(0, "x", "p", options=(Option("pass"),))) == "pass"
    assert fallback(Decision(0, "x", "p", domain=Interval(-10, 30))) == 10


# -- the distance field ---------------------------------------------------------------------
def test_distance_field_goes_round_terrain() -> None:
    wall = ((100.0, 390.0), (500.0, 390.0), (500.0, 410.0), (100.0, 410.0))
    f = distance_field(600.0, 600.0, (wall,), ((200.0, 550.0), (400.0, 550.0)), 20.0)
    assert f.at((300.0, 540.0)) < 30
    straight = 550 - 300
    assert f.at((300.0, 300.0)) > straight + 150  # must drive round the wall's end
    assert f.at((550.0, 300.0)) < f.at((300.0, 300.0))  # nearer the gap
    assert f.at((-1.0, 300.0)) == FAR


# -- heuristic: templates -------------------------------------------------------------------
def test_heuristic_steers_round_a_rock_ahead() -> None:
    car = vehicle("a", "car", 450, 600, gear=2)
    g = race(car, dice=[6, 1])
    g.state.obstacles["r"] = rock("r", 450, 760, 100, 40)
    assert moved(g, car, "medium_straight").touched == ["r"]
    pick, res = template_pick(g, car)
    assert not res.interrupted and res.touched == []
    assert use(pick, 2) is not TemplateUse.NOT_PERMITTED


def test_heuristic_stays_on_the_table() -> None:
    car = vehicle("a", "car", 860, 600, heading=0, gear=1)
    g = race(car, dice=[6, 1])
    assert leaves_table(g, moved(g, car, "short_straight"))
    _, res = template_pick(g, car)
    assert not leaves_table(g, res)


def test_heuristic_never_picks_a_template_it_may_not_use() -> None:
    for gear in range(1, 6):
        car = vehicle("a", "car", 450, 400, gear=gear)
        g = race(car, dice=[6, 1])
        pick, _ = template_pick(g, car)
        assert use(pick, gear) is not TemplateUse.NOT_PERMITTED


@pytest.mark.parametrize(("x", "y", "heading"), [(200, 300, 0), (700, 400, 180), (300, 600, 0)])
def test_heuristic_avoids_a_hazardous_template_that_would_wipe_it_out(
    x: float, y: float, heading: float
) -> None:
    calm = vehicle("a", "car", x, y, heading=heading, gear=4, hazards=0)
    pick, _ = template_pick(race(calm, dice=[6, 1]), calm)
    assert use(pick, 4) is TemplateUse.HAZARDOUS  # the best line is a hazardous Turn
    edgy = vehicle("a", "car", x, y, heading=heading, gear=4, hazards=5)
    pick, _ = template_pick(race(edgy, dice=[6, 1]), edgy)
    assert use(pick, 4) is not TemplateUse.HAZARDOUS


def test_heuristic_heads_for_the_finish() -> None:
    car = vehicle("a", "car", 450, 600, heading=270, gear=1)  # facing home
    g = race(car, dice=[6, 1])
    _, res = template_pick(g, car)
    assert res.pose.y > 600 + 60  # made ground towards the finish line at y = 1050
    racer = vehicle("b", "car", 450, 930, gear=2)  # nose 60 mm short of the line
    g2 = race(racer, dice=[6, 1])
    pick, res = template_pick(g2, racer)
    sc = g2.scenario
    from carnage.games.refuelled.scenarios import StreetRace, crosses

    assert isinstance(sc, StreetRace)
    assert crosses(sc.finish_line, res.swept(24), racer.length, racer.width), pick


def test_heuristic_picks_the_worst_for_an_opponent_under_touch_it_use_it() -> None:
    car = vehicle("a", "car", 450, 600, heading=270, gear=1, player=0)
    g = race(car, dice=[6, 1])
    own, own_res = template_pick(g, car)
    theirs, their_res = template_pick(g, car, chooser=1)
    assert theirs != own
    bot = HeuristicBot()
    assert bot.score_move(g, car, their_res, 0) < bot.score_move(g, car, own_res, 0)
    assert their_res.interrupted or leaves_table(g, their_res)


# -- heuristic: skid dice and shifts ----------------------------------------------------------
def skid_decision(g: Game, v: VehicleState) -> Decision:
    g.state.active = v.id
    return ask(v.player, "skid_dice", "how many", [(i, str(i)) for i in range(v.handling + 1)])


@pytest.mark.parametrize(("gear", "hazards", "expected"), [(1, 0, 3), (1, 4, 1), (2, 5, 0),
                                                           (4, 0, 0), (4, 2, 3)])
def test_skid_dice_as_many_as_safe_and_useful(gear: int, hazards: int, expected: int) -> None:
    car = vehicle("a", "car", 450, 400, gear=gear, hazards=hazards)
    g = race(car, dice=[6, 1])
    assert HeuristicBot().choose(g, skid_decision(g, car), RNG) == expected


def test_push_it_rerolls_the_bad_dice_when_affordable() -> None:
    car = vehicle("a", "car", 450, 400, hazards=0)
    g = race(car, dice=[6, 1])
    g.state.active = car.id
    d = ask(0, "push_it", "push?", [("no", "keep"), ("0", "0"), ("1", "1"), ("0,1", "0,1"),
                                     ("0,2", "0,2"), ("0,1,2", "all")])
    g.emit("skid", vehicle=car.id, faces=["spin", "slide", "shift"])
    assert HeuristicBot().choose(g, d, RNG) == "0,1"
    g.emit("skid", vehicle=car.id, faces=["spin", "shift", "shift"])
    assert HeuristicBot().choose(g, d, RNG) == "no"


def shift_decision(*values: str) -> Decision:
    labels = {"cancel:0": "cancel hazard", "cancel:1": "cancel spin", "cancel:2": "cancel slide"}
    return Decision(0, "spend_shift", "spend", options=tuple(
        Option(v, labels.get(v, v)) for v in values))


def test_shifts_cancel_spins_then_gear_up_then_discard_hazards() -> None:
    car = vehicle("a", "car", 450, 400, gear=2, hazards=1)
    g = race(car, dice=[6, 1])
    g.state.active = car.id
    bot = HeuristicBot()
    full = ("cancel:0", "cancel:1", "cancel:2", "gear_up", "gear_down", "discard_hazard",
            "discard", "done")
    assert bot.choose(g, shift_decision(*full), RNG) == "cancel:1"
    assert bot.choose(g, shift_decision("cancel:0", "cancel:2", "done"), RNG) == "cancel:2"
    rest = ("gear_up", "gear_down", "discard_hazard", "discard", "done")
    assert bot.choose(g, shift_decision(*rest), RNG) == "gear_up"
    car.hazards = 3  # gearing up would make 4: too close to a wipeout
    assert bot.choose(g, shift_decision(*rest), RNG) == "discard_hazard"
    car.hazards, car.gear = 0, 4  # at the gear it wants and nothing to discard
    assert bot.choose(g, shift_decision(*rest), RNG) == "done"


# -- heuristic: collisions, attacks, pivots ---------------------------------------------------
@pytest.mark.parametrize(
    ("mover", "other", "mover_says", "other_says"),
    [(("truck", 2), ("buggy", 2), "smash", "evade"),  # heavier smashes, lighter evades
     (("car", 3), ("car", 2), "smash", "evade"),  # same weight: the faster smashes
     (("buggy", 4), ("car", 1), "evade", "smash")],
)
def test_collision_reaction_smash_when_heavier_or_faster(
    mover: tuple[str, int], other: tuple[str, int], mover_says: str, other_says: str
) -> None:
    a = vehicle("a", mover[0], 450, 400, gear=mover[1], player=0)
    b = vehicle("b", other[0], 450, 500, gear=other[1], player=1)
    g = race(a, b, dice=[6, 1])
    g.state.active = a.id
    # The decision names who reacts and whom to (the prompt names nobody).
    def d(p: int, me: str, them: str) -> Decision:
        return ask(p, "collision_reaction", "react", [("smash", "s"), ("evade", "e")],
                   vehicle=me, target=them)

    assert HeuristicBot().choose(g, d(0, "a", "b"), RNG) == mover_says
    assert HeuristicBot().choose(g, d(1, "b", "a"), RNG) == other_says


def test_attack_shoots_the_enemy_with_the_most_dice_never_a_friend() -> None:
    me = vehicle("me", "car", 450, 400, player=0, weapons=[("machine_gun", "front")])
    mate = vehicle("mate", "car", 450, 500, player=0)
    foe = vehicle("foe", "car", 500, 500, player=1)
    g = race(me, mate, foe, dice=[6, 1])
    g.state.active = me.id
    opts = [("stop", "stop"), ("handgun>foe", "h"), ("machine_gun#0>mate", "m"),
            ("machine_gun#0>foe", "m [cover]"), ("handgun>mate", "h")]
    d = ask(0, "attack", "shoot", opts)
    assert HeuristicBot().choose(g, d, RNG) == "handgun>foe"  # out of cover beats more dice
    d2 = ask(0, "attack", "shoot", [*opts[:1], ("machine_gun#0>foe", "m"), *opts[1:3]])
    assert HeuristicBot().choose(g, d2, RNG) == "machine_gun#0>foe"
    d3 = ask(0, "attack", "shoot", [opts[0], opts[2], opts[4]])
    assert HeuristicBot().choose(g, d3, RNG) == "stop"


def test_lose_control_points_an_opponent_at_the_nearest_obstruction() -> None:
    victim = vehicle("v", "car", 450, 400, heading=90, player=0)
    g = race(victim, dice=[6, 1])
    g.state.obstacles["r"] = rock("r", 560, 400, 40, 40)  # 90 mm to its right (east)
    d = Decision(1, "lose_control", "pivot", domain=Interval(-180, 180), vehicle="v")
    angle = float(HeuristicBot().choose(g, d, RNG))
    heading = (90 + angle) % 360
    assert min(abs(heading), abs(heading - 360)) <= 15  # nose at the rock (east is 0)
    own = Decision(0, "lose_control", "pivot", domain=Interval(-180, 180), vehicle="v")
    mine = (90 + float(HeuristicBot().choose(g, own, RNG))) % 360
    assert 45 <= mine <= 135  # its own car it points up the table, towards the finish


def test_spin_points_its_own_car_towards_the_goal() -> None:
    car = vehicle("a", "car", 300, 600, heading=0, player=0)
    g = race(car, dice=[6, 1])
    g.state.active = car.id
    angle = float(HeuristicBot().choose(
        g, Decision(0, "spin", "spin", domain=Interval(-90, 90)), RNG))
    assert 30 <= angle <= 90  # turns left, up the table


# -- whole games ----------------------------------------------------------------------------
@pytest.mark.parametrize("bots", [("heuristic", "random"), ("random", "heuristic"),
                                  ("heuristic", "heuristic")])
def test_bots_only_make_legal_choices_in_whole_games(bots: tuple[str, str]) -> None:
    for seed in range(3):
        g = build_game(GameSetup(max_rounds=8), seed)
        players = [make_bot(b) for b in bots]
        seen: list[Any] = []
        play_out(g, players, bot_rng(seed), after=lambda _g, d, seen=seen: seen.append(d.kind))
        assert g.outcome() is not None and len(seen) == len(g.choices)
        assert len(g.log.of_kind("decision")) == len(g.choices)


def test_heuristic_beats_random_at_racing() -> None:
    wins = 0
    for seed in range(6):
        g = build_game(GameSetup(max_rounds=10), seed)
        play_out(g, [make_bot("heuristic"), make_bot("random")], bot_rng(seed))
        out = g.outcome()
        assert out is not None
        wins += out.winner == 0
    assert wins >= 5
