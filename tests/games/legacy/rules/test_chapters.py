"""The Legacy chapters' scenario rules (games/legacy/rules/chapters.py) through the real flow."""

from __future__ import annotations

import contextlib
import math
from dataclasses import replace

import pytest
from tests.builders import BLUE, RED, armed, play, run_step, table, values, vehicle
from tests.simulation import play_checked

from carnage.games.legacy.rules import chapters as ch
from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.scenarios.common import tokens
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.geometry.shapes import Pose
from carnage.geometry.surfaces import SurfaceKind
from carnage.rulesets import LEGACY, build_game


def legacy_setup(scenario: str, *rules: str) -> GameSetup:
    return GameSetup(scenario=scenario, ruleset="legacy", players=2, max_rounds=4,
                     scenario_options=((ch.OPTION, ",".join(rules)),))


def answer_pools(g: Game) -> list[int]:
    who = []
    while (d := g.pending()) is not None and d.kind == "corrosive_pool":
        who.append(d.player)
        g.apply(d.options[0].value)
    return who


def test_players_take_turns_placing_three_treacherous_pools_about_medium_across() -> None:
    g = build_game(legacy_setup("express-delivery", ch.POOLS), 5)
    assert answer_pools(g) == [0, 1, 0]
    pools = [s for s in g.state.surfaces.values() if s.id.startswith("pool-")]
    assert len(pools) == 3 and all(s.kind is SurfaceKind.TREACHEROUS for s in pools)
    medium = g.templates.ranges["medium"]
    for s in pools:
        cx = sum(p[0] for p in s.polygon) / len(s.polygon)
        cy = sum(p[1] for p in s.polygon) / len(s.polygon)
        inner = min(math.dist((cx, cy), p) for p in s.polygon) * math.cos(math.pi / 12)
        assert inner == pytest.approx(medium / 2 * math.cos(math.pi / 12), rel=1e-6) or (
            math.dist((cx, cy), s.polygon[0]) >= medium / 2)
    # no pool overlaps another: the candidates left out the spot taken
    centres = {(round(sum(p[0] for p in s.polygon) / 12), round(sum(p[1] for p in s.polygon)
                                                                / 12)) for s in pools}
    assert len(centres) == 3


def test_an_unknown_chapter_rule_is_refused_by_name() -> None:
    with pytest.raises(SetupError, match="unknown rule 'acid-rain'"):
        build_game(legacy_setup("express-delivery", "acid-rain"), 1)


def test_a_move_across_a_pool_gets_goo_on_the_vehicle_once() -> None:
    g = build_game(legacy_setup("express-delivery", ch.POOLS), 5)
    answer_pools(g)
    pool = next(s for s in g.state.surfaces.values() if s.id.startswith("pool-"))
    cx = sum(p[0] for p in pool.polygon) / 12
    cy = sum(p[1] for p in pool.polygon) / 12
    v = next(iter(g.state.vehicles.values()))
    far = [Pose(10.0, 10.0, 0.0), Pose(40.0, 10.0, 0.0)]
    ch._judge_goo(g, v, far)
    assert ch.goo(g.state) == []
    through = [Pose(cx - 200.0, cy, 0.0), Pose(cx, cy, 0.0)]
    ch._judge_goo(g, v, through)
    ch._judge_goo(g, v, through)
    assert ch.goo(g.state) == [v.id]


def test_the_refrigerator_starts_at_the_centre_and_rides_with_whoever_touches_it() -> None:
    g = build_game(legacy_setup("zombie-bash", ch.FRIDGE), 3)
    st = g.state
    t = tokens.tokens(st)[ch.FRIDGE_ID]
    assert (t["x"], t["y"]) == (st.width / 2, st.height / 2) and t["carrier"] is None
    v = next(iter(st.vehicles.values()))
    from carnage.games.refuelled.scenarios.common import score

    zombies_left = len(tokens.on_table(st, "zombie"))
    g.scenario._judge_tokens(g, v, [Pose(st.width / 2 - 150, st.height / 2, 0.0),
                                    Pose(st.width / 2, st.height / 2, 0.0)])
    assert ch.fridge_holder(st) == v.id
    collected = zombies_left - len(tokens.on_table(st, "zombie"))
    assert score.total(g, "zombies", v.player) == collected  # the refrigerator scores nothing
    # wrecked: it goes back on the table touching the wreck
    v.status = Status.WRECKED
    g.scenario._carrier_wrecked(None, {"game": g, "vehicle": v})
    assert ch.fridge_holder(st) is None and tokens.tokens(st)[ch.FRIDGE_ID]["x"] is not None


def test_snatch_drops_counters_only_for_enemy_damage_and_ends_with_one_player_left() -> None:
    g = build_game(legacy_setup("automated-salvage", ch.SNATCH), 4)
    while (d := g.pending()) is not None and g.state.round < 1:
        g.apply(d.options[0].value)
    st = g.state
    mine = [v for v in st.vehicles.values() if v.player == 0]
    theirs = [v for v in st.vehicles.values() if v.player == 1]
    owed = g.scenario.memo(st)["damaged"]
    g.scenario._damaged(None, {"game": g, "data": {"vehicle": mine[0].id, "amount": 1}})
    assert owed == []  # no enemy hit it: a hazard or its own doing
    ch._note_hit(None, {"game": g, "data": {"target": mine[0].id, "vehicle": theirs[0].id}})
    g.scenario._damaged(None, {"game": g, "data": {"vehicle": mine[0].id, "amount": 1}})
    assert owed == [mine[0].id]
    for v in theirs:
        v.status = Status.WRECKED
    g.scenario.check_end(g)
    assert st.finished and "Snatch" in st.reason


def test_a_crate_holder_counts_as_having_the_nano_cloaking_device() -> None:
    def game(with_crate: bool) -> Game:
        blue = armed(vehicle("blue", "car", *BLUE, player=0), ("machine_gun", "front", None))
        red = vehicle("red", "car", *RED, player=1, gear=1)

        def step(g: Game) -> Flow:
            g.install("test:nano-tech", lambda *_: ch._install_nano_tech(g, "test"))
            if with_crate:
                tokens.add_token(g, "crate-1", "crate", carrier=red, source="t", page=None)
            g.state.active = "blue"
            g.state.step = "attack"
            yield from attack_step(g, blue)

        return run_step(table(blue, red), step, [6, 6, 1, 1], ruleset=LEGACY)

    g = game(with_crate=True)
    play(g, "machine_gun#0>red")
    d = g.pending()
    assert d is not None and (d.kind, values(d)) == ("nano_cloak", ["no", "cloak"])
    g = game(with_crate=False)
    play(g, "machine_gun#0>red")
    d = g.pending()
    assert d is None or d.kind != "nano_cloak"


def test_corrosive_drool_reads_the_first_creature_damage_from_the_log() -> None:
    g = build_game(legacy_setup("big-game-hunter", ch.DROOL), 2)
    st = g.state
    creature = next(v for v in st.vehicles.values() if v.neutral)
    car = next(v for v in st.vehicles.values() if not v.neutral)
    g.emit("attack_hits", source="t", page=None, vehicle=creature.id, target=car.id, hits=2)
    g.emit("damage", source="t", page=None, vehicle=car.id, amount=2)
    g.emit("damage", source="t", page=None, vehicle=car.id, amount=1)
    assert ch.drooled(g) == [car.id]
    other = replace(legacy_setup("big-game-hunter"))
    g2 = build_game(other, 2)
    assert ch.drooled(g2) == []


@pytest.mark.parametrize(("scenario", "rules"), [
    ("express-delivery", [ch.POOLS]), ("automated-salvage", [ch.SNATCH]),
    ("zombie-bash", [ch.FRIDGE]), ("big-game-hunter", [ch.DINOSAURS, ch.DROOL]),
    ("scavenger-party", [ch.NANO_TECH, ch.POOLS_ONCE])])
def test_each_chapters_game_plays_clean_with_bots(scenario: str, rules: list[str]) -> None:
    for seed in (1, 2):
        checked = play_checked(legacy_setup(scenario, *rules), seed, ["heuristic", "random"],
                               check_replay=True)
        assert checked.error is None, (seed, checked.error)
        assert checked.problems == [], (seed, checked.problems)


def dino_game(*rules: str) -> Game:
    g = build_game(legacy_setup("big-game-hunter", *rules), 6)
    while (d := g.pending()) is not None and g.state.round < 1:
        g.apply(d.options[0].value)
    return g


def test_dinosaurs_go_up_and_over_and_ignore_distraction() -> None:
    g = dino_game(ch.DINOSAURS)
    beasts = [v for v in g.state.vehicles.values() if v.neutral]
    assert beasts and all("up_and_over" in v.special_rules for v in beasts)
    assert all(g.effects.has("move_collided", f"legacy:dinosaur:{v.id}") for v in beasts)
    assert g.effects.run_event("distracted", True, {"game": g, "vehicle": beasts[0]}) is False
    car = next(v for v in g.state.vehicles.values() if not v.neutral)
    assert g.effects.run_event("distracted", True, {"game": g, "vehicle": car}) is True
    plain = dino_game()
    assert all("up_and_over" not in v.special_rules for v in plain.state.vehicles.values()
               if v.neutral)


def test_a_dinosaur_counts_as_gear_three_in_a_collision_outside_its_activation() -> None:
    from carnage.games.refuelled.engine.collision import smash_dice, weight_class
    from carnage.games.refuelled.engine.hooks import PARTY

    g = dino_game(ch.DINOSAURS)
    st = g.state
    beast = next(v for v in st.vehicles.values() if v.neutral)
    car = next(v for v in st.vehicles.values() if not v.neutral)
    beast.gear, car.gear = 6, 2
    wb, wc = weight_class(g, beast), weight_class(g, car)
    for active, beast_gear in ((car.id, 3), (beast.id, 6)):
        st.active = active
        for me, other, mine, theirs in ((beast, car, beast_gear, 2), (car, beast, 2, beast_gear)):
            base = smash_dice("head_on", me.gear, other.gear, weight_class(g, me),
                              weight_class(g, other))
            # A party's context as the collision passes it (every field; most unset here).
            ctx = {**dict.fromkeys(PARTY.split()), "game": g, "vehicle": me, "other": other,
                   "orientation": "head_on"}
            got = g.effects.run_event("smash_dice", base, ctx)
            want = smash_dice("head_on", mine, theirs, wb if me is beast else wc,
                              wc if me is beast else wb)
            assert got == want, (active, me.id)


def test_a_creatures_own_activation_enrages_no_creature() -> None:
    from carnage.games.refuelled.scenarios.beasts import memory
    from carnage.kernel.effects import run_flows

    g = dino_game(ch.DINOSAURS)
    beast = next(v for v in g.state.vehicles.values() if v.neutral)
    memory(g)["rage"] = {beast.id: {"0": 3}}
    flow = run_flows(g, "after_activation", {"game": g, "vehicle": beast})
    with contextlib.suppress(StopIteration):
        asked = next(flow)
        for _ in range(20):  # other rules of the moment (the teams' Slip Away) ask first
            asked = flow.send(asked.options[0].value)
    assert memory(g)["rage"] == {}
    assert any(e.kind == "legacy_rule" and e.data.get("rule") == "GL-080" for e in g.log.events)


@pytest.mark.parametrize("dinosaurs", [True, False])
def test_a_penned_in_dinosaur_stops_at_the_table_edge(dinosaurs: bool) -> None:
    from carnage.games.refuelled.engine.movement import forced_move
    from carnage.geometry.shapes import Rect

    g = dino_game(*([ch.DINOSAURS] if dinosaurs else []))
    st = g.state
    beast = next(v for v in st.vehicles.values() if v.neutral and v.in_play)
    st.obstacles.clear()
    for v in st.vehicles.values():
        if v is not beast:
            v.pose = Pose(100.0, 100.0 + 80.0 * len(v.id) % 300, 90.0)
    beast.pose = Pose(st.width - 150.0, st.height / 2, 0.0)
    flow = forced_move(g, beast, "long_straight", source="test", page=1)
    asked = [d for d in flow]
    assert asked == []
    if not dinosaurs:
        assert beast.status is Status.DISQUALIFIED
        return
    assert beast.in_play and beast.status is Status.ACTIVE
    xs = [p[0] for p in Rect(beast.pose, beast.length, beast.width).polygon()]
    assert max(xs) <= st.width + 1e-9 and max(xs) == pytest.approx(st.width, abs=0.01)
    assert beast.pose.heading == pytest.approx(0.0)


def berserk_game(dinosaurs: bool) -> Game:
    from carnage.games.refuelled.scenarios.beasts import make_creature

    beast = make_creature(1, Pose(600.0, 600.0, 0.0))
    pair = [vehicle("a", "car", 700, 600, 0.0, player=1), vehicle("b", "car", 700, 650, 0.0,
                                                                   player=1)]
    lone = vehicle("c", "car", 480, 600, 180.0, player=1)

    def step(g: Game) -> Flow:
        if dinosaurs:
            g.install("test:dinosaurs", lambda *_: ch._install_dinosaurs(g, "test"))
        g.state.active = beast.id
        g.state.step = "attack"
        yield from attack_step(g, beast)

    return run_step(table(beast, *pair, lone), step, [6] * 40, ruleset=LEGACY)


def test_a_berserk_dinosaur_must_flame_the_most_vehicles() -> None:
    g = berserk_game(dinosaurs=True)
    d = g.pending()
    assert d is not None and d.kind == "attack"
    offered = values(d)
    assert "stop" not in offered and offered, offered
    assert all(str(o).startswith("flamethrower#0>") for o in offered)
    assert "flamethrower#0>c" not in offered  # the lone car: fewer under the template
    play(g, offered[0])
    # the template goes over both cars of the pair (the only placement covering the most)
    splash = [e.data for e in g.log.events if e.kind == "splash"]
    assert len(splash) == 1 and {splash[0]["target"], *splash[0]["also"]} == {"a", "b"}
    assert any(e.data.get("rule") == "GL-078" for e in g.log.events)
    # Refuelled's creatures may hold their fire and flame anyone in range
    g = berserk_game(dinosaurs=False)
    d = g.pending()
    assert d is not None and "stop" in values(d) and "flamethrower#0>c" in values(d)
    play(g, "flamethrower#0>a")
    d = g.pending()  # and may lay the template over fewer vehicles
    assert d is not None and d.kind == "splash" and "-" in values(d)
