"""Arena of Death (Refuelled p.130): set-up with 2D6 gun turrets, no respawn, victory judged at
the end of a Gear Phase. Scripted dice and exact poses through the real flow."""

from __future__ import annotations

from tests.builders import table, values, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Status
from carnage.games.refuelled.engine.votes import respawn_candidates
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.arena_of_death import ArenaOfDeath, turret_places
from carnage.games.refuelled.scenarios.common.spawn import spawn_points
from carnage.games.refuelled.scenarios.emplacements import GUN_TURRET, turret_obstacle, turrets
from carnage.games.refuelled.setup import GameSetup
from carnage.geometry.shapes import Pose, Rect, distance
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game


class PlacedArena(ArenaOfDeath):
    """Arena of Death with the vehicles and turrets already placed (pole to seat 0)."""

    def setup(self, game: Game) -> Flow:
        game.state.pole = 0
        yield from ()


def arena(state: GameState, dice: list[int], physical: bool = False) -> Game:
    return Game(ruleset=REFUELLED, state=state, scenario=PlacedArena(),
                dice=ScriptedDice(dice), options=RuleOptions(physical=physical))


def test_registered_with_its_metadata() -> None:
    sc = SCENARIOS["arena-of-death"]
    assert sc is ArenaOfDeath
    assert (sc.page, sc.table, sc.table_rolls, sc.min_players) == (130, "Televised Event",
                                                                   (3,), 2)
    assert sc.end_checks == frozenset({"gear_phase_end"}) and sc.summary


def test_set_up_rolls_2d6_turrets_placed_in_pole_order_clear_of_everything() -> None:
    # Roll-off 2, 5: seat 1 has pole. Turrets: 2D6 = 1 + 2 = 3.
    g = build_game(GameSetup(scenario="arena-of-death", players=2),
                   dice=ScriptedDice([2, 5, 1, 2]))
    seen = []
    while (d := g.pending()) is not None and d.kind != "activate":
        if d.kind == "turret_place":
            seen.append(d.player)
            places = turret_places(g)
            assert set(values(d)) == set(places) and places
            st = g.state
            for p in places.values():
                body = Rect(Pose(p[0], p[1], 0), 30, 30).polygon()
                assert all(distance(body, v.polygon()) > 0 for v in st.in_play())
                assert all(distance(body, o.polygon()) > 0 for o in st.obstacles.values())
                assert all(distance(body, [c, c, c]) > 10.0 for c in spawn_points(st).values())
        if d.kind == "spend_votes":
            g.apply("done")
            continue
        g.apply(values(d)[0])
    assert seen == [1, 0, 1]
    guns = turrets(g)
    assert [t.id for t in guns] == ["gun_turret:1", "gun_turret:2", "gun_turret:3"]
    assert all((t.hull, t.destructible, t.weight.value) == (4, True, "middleweight")
               for t in guns)
    assert [e.data["count"] for e in g.log.of_kind("gun_turrets")] == [3]


def test_nobody_may_respawn_even_with_the_votes() -> None:
    a = vehicle("a", "car", 200, 200, 90)
    b = vehicle("b", "car", 700, 900, 90, player=1)
    g = arena(table(a, b, width=900, height=1200), [])
    a.status = Status.REMOVED
    g.emit("wrecked", source="test", vehicle="a", player=0, in_collision=False)
    g.state.votes[0] = 9
    assert respawn_candidates(g, 0) == []


def test_the_game_is_judged_only_at_the_end_of_the_gear_phase() -> None:
    # Seat 0's only car is wrecked during phase 1; the game ends when phase 1 ends.
    a = vehicle("a", "car", 200, 200, 90, gear=1)
    b = vehicle("b", "car", 700, 900, 90, player=1, gear=1)
    g = arena(table(a, b, width=900, height=1200), [])
    assert g.pending() is not None and not g.state.finished
    a.status = Status.REMOVED  # gone mid-phase (say, an explosion)
    # After a step the game goes on: only the end of the Gear Phase judges it.
    g.scenario.check_end_at(g, "step")
    assert not g.state.finished
    g.scenario.check_end_at(g, "gear_phase_end")
    assert g.state.finished and g.state.winner == 1


def test_everyone_gone_at_the_end_of_a_phase_is_a_draw() -> None:
    a = vehicle("a", "car", 200, 200, 90)
    b = vehicle("b", "car", 700, 900, 90, player=1)
    g = arena(table(a, b, width=900, height=1200), [])
    a.status = b.status = Status.REMOVED
    g.scenario.check_end_at(g, "gear_phase_end")
    assert g.state.finished and g.state.draw and g.state.winner is None


def test_a_placed_gun_turret_shoots_in_the_real_game_flow() -> None:
    a = vehicle("a", "car", 450, 400, 90, gear=1)
    b = vehicle("b", "car", 100, 1100, 270, player=1, gear=1)
    st = table(a, b, width=900, height=1200)
    t = turret_obstacle(GUN_TURRET, 1, (450.0, 600.0))
    st.obstacles[t.id] = t
    # a: short straight, ends 35 mm from the turret: 2D6 (6, 5: 3 hits), evade 1 die (2).
    g = arena(st, [6, 5, 2])
    while (d := g.pending()) is not None and not g.log.of_kind("turret_attack"):
        answer = {"activate": "a", "template": "short_straight", "skid_dice": 0,
                  "spend_shift": "done", "spend_votes": "done", "attack": "stop"}
        g.apply(answer[d.kind] if d.kind in answer else values(d)[0])
    (shot,) = [e.data for e in g.log.of_kind("turret_attack")]
    assert (shot["obstacle"], shot["target"], shot["dice"]) == ("gun_turret:1", "a", 2)
    assert a.damage == 3


def test_the_arena_is_seeded_and_leaves_the_edges_free_for_spawn_points() -> None:
    import random

    from carnage.games.refuelled.scenarios.arena import EDGE_CLEAR, arena_terrain

    def laid(seed: int) -> list[tuple[str, float, float]]:
        st = GameState(900, 1200, 2)
        arena_terrain(st, random.Random(seed))
        for ob in st.obstacles.values():
            assert all(EDGE_CLEAR <= x <= 900 - EDGE_CLEAR and EDGE_CLEAR <= y <= 1200 - EDGE_CLEAR
                       for x, y in ob.polygon())
        return [(o.id, round(o.pose.x, 6), round(o.pose.y, 6)) for o in st.obstacles.values()]

    assert laid(7) == laid(7) and laid(7) != laid(8)
    assert 5 <= len(laid(7)) <= 8


def test_not_even_inexorable_brings_a_vehicle_back() -> None:
    from carnage.games.refuelled.engine.scenario import Scenario

    def candidates(scenario: Scenario) -> list[str]:
        a = vehicle("a", "car", 200, 200, 90)
        st = table(a, vehicle("a2", "car", 300, 200, 90),
                   vehicle("b", "car", 700, 900, 90, player=1), width=900, height=1200)
        st.sponsors = ["beverly", None]  # Inexorable: respawn with others in play (p.101)
        g = Game(ruleset=REFUELLED, state=st, scenario=scenario, dice=ScriptedDice([]))
        a.status = Status.REMOVED
        g.emit("wrecked", source="test", vehicle="a", player=0, in_collision=False)
        g.state.votes[0] = 9
        return [v.id for v in respawn_candidates(g, 0)]

    assert candidates(Scenario()) == ["a"]  # anywhere else Inexorable allows it
    assert candidates(PlacedArena()) == []


def test_in_a_team_game_the_sides_take_turns_placing_turrets() -> None:
    # Four players on two sides (seats 0+2, 1+3); roll-off 6, 1, 1, 1: seat 0 has pole.
    # Turrets 2D6 = 2 + 1 = 3: placed by sides in turn: seat 0, seat 1, seat 0.
    g = build_game(GameSetup(scenario="arena-of-death", players=4, sides=((0, 2), (1, 3))),
                   dice=ScriptedDice([6, 1, 1, 1, 2, 1]))
    seen = []
    while (d := g.pending()) is not None and d.kind != "activate":
        if d.kind == "turret_place":
            seen.append(d.player)
        g.apply("done" if d.kind == "spend_votes" else values(d)[0])
    assert seen == [0, 1, 0]


def test_bots_are_told_to_keep_out_of_an_unfired_turrets_reach() -> None:
    a = vehicle("a", "car", 100, 100, 90)
    b = vehicle("b", "car", 800, 1100, 270, player=1)
    st = table(a, b, width=900, height=1200)
    t = turret_obstacle(GUN_TURRET, 1, (450.0, 600.0))
    st.obstacles[t.id] = t
    g = arena(st, [])
    sc = g.scenario
    assert isinstance(sc, ArenaOfDeath)
    assert sc.move_penalty(g, a, Pose(100, 100, 90)) == 0.0
    assert sc.move_penalty(g, a, Pose(450, 520, 90)) == 60.0  # 2 dice at 30 each


def test_at_a_real_table_a_turret_fires_at_whom_the_people_say_it_reaches() -> None:
    # On the virtual table the turret is a metre from a: only the people's word puts a in its
    # reach, in cover: its 2 dice hit on 5+ (p.42): a 6 (two hits), a 4 (a miss in cover, a hit
    # out of it); the evade (gear 1: one die) 1 fails.
    a = vehicle("a", "car", 100, 100, 90, gear=1)
    b = vehicle("b", "car", 800, 1100, 270, player=1, gear=1)
    st = table(a, b, width=900, height=1200)
    t = turret_obstacle(GUN_TURRET, 1, (450.0, 900.0))
    st.obstacles[t.id] = t
    g = arena(st, [6, 4, 1], physical=True)
    answer = {"activate": "a", "template": "short_straight", "table:touching": "none",
              "table:move_touched": "none", "table:off_table": "no", "spend_shift": "done",
              "spend_votes": "done"}
    while (d := g.pending()) is not None and d.kind != "table:turret_reach":
        g.apply(answer[d.kind] if d.kind in answer else values(d)[0])
    assert d is not None and d.page == 130 and d.vehicle == "a"
    assert values(d) == ["none", "gun_turret:1", "gun_turret:1@cover"]
    g.apply("gun_turret:1@cover")
    (shot,) = [e.data for e in g.log.of_kind("turret_attack")]
    assert (shot["obstacle"], shot["target"], shot["cover"]) == ("gun_turret:1", "a", True)
    assert [e.data["hits"] for e in g.log.of_kind("attack_hits")] == [2]
    assert a.damage == 2


def test_at_a_real_table_a_turret_out_of_reach_holds_its_fire() -> None:
    # Touching distance on the virtual table; the people say it is not in reach.
    a = vehicle("a", "car", 450, 400, 90, gear=1)
    b = vehicle("b", "car", 100, 1100, 270, player=1, gear=1)
    st = table(a, b, width=900, height=1200)
    t = turret_obstacle(GUN_TURRET, 1, (450.0, 600.0))
    st.obstacles[t.id] = t
    g = arena(st, [], physical=True)
    answer = {"activate": "a", "template": "short_straight", "table:touching": "none",
              "table:move_touched": "none", "table:off_table": "no", "spend_shift": "done",
              "spend_votes": "done"}
    while (d := g.pending()) is not None and d.kind != "table:turret_reach":
        g.apply(answer[d.kind] if d.kind in answer else values(d)[0])
    g.apply("none")
    assert not g.log.of_kind("turret_attack") and a.damage == 0
