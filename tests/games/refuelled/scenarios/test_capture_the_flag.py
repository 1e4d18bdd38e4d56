"""Capture the Flag (Refuelled p.131) and the shared machinery it stands on: spawn points,
deployment within Short, carried tokens (pick up, drop on a wreck, set down, disqualified
carrier), through the real flow with scripted dice and exact poses."""

from __future__ import annotations

import math

from tests.builders import drive, ev, rock, vehicle

from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.scenarios.capture_the_flag import CaptureTheFlag
from carnage.games.refuelled.scenarios.common import spawn, tokens
from carnage.games.refuelled.setup import GameSetup
from carnage.geometry.shapes import distance, penetration
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game


class PlacedCTF(CaptureTheFlag):
    """Capture the Flag on an empty table: the roll-off as usual, then the vehicles and flags
    where the test put them (no spawn-point placement)."""

    def __init__(self, flags: dict[str, tuple[float, float] | str]) -> None:
        self.flags = flags

    def generate(self, state: GameState, rng: object) -> None:
        pass

    def setup(self, game: Game) -> Flow:
        game.state.pole = self.roll_off(game)
        for i, (tid, where) in enumerate(sorted(self.flags.items())):
            if isinstance(where, str):
                tokens.add_token(game, tid, "flag", carrier=game.state.vehicles[where],
                                 owner=i, source="test", page=None)
            else:
                tokens.add_token(game, tid, "flag", at=where, owner=i, source="test",
                                 page=None)
        yield from ()


def ctf(*placed: VehicleState, flags: dict[str, tuple[float, float] | str],
        dice: list[int], scenario: CaptureTheFlag | None = None,
        physical: bool = False) -> Game:
    sc = scenario or PlacedCTF(flags)
    st = GameState(900.0, 1200.0, 2)
    for v in placed:
        st.vehicles[v.id] = v
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=2, physical=physical))


# -- spawn points (G-11, M-01) -----------------------------------------------------------------
def test_spawn_candidates_are_near_an_edge_and_more_than_double_from_other_spawn_points() -> None:
    g = build_game(GameSetup(scenario="capture-the-flag"), 3)
    st = g.state
    st.obstacles.clear()
    st.obstacles["rock"] = rock("rock", 100, 600, 80, 80)
    spawn.set_spawn_point(g, 1, (465.0, 105.0), source="test", page=None)
    cands = spawn.spawn_candidates(g)
    assert cands
    r = spawn.SPAWN_DIAMETER / 2
    for x, y in cands.values():
        assert r <= x <= st.width - r and r <= y <= st.height - r
        assert min(x, y, st.width - x, st.height - y) - r <= 120.0 + 1e-9  # within Medium
        assert math.hypot(x - 465.0, y - 105.0) - 2 * r > 300.0  # more than Double
        assert penetration(spawn._disc((x, y), r), st.obstacles["rock"].polygon()) <= 1e-6
    # A point just inside Double of the placed one is not offered; the far corner is.
    assert all(math.hypot(x - 465, y - 105) > 320 for x, y in cands.values())
    assert any(y > 1100 for _, y in cands.values())


def test_with_no_room_left_the_farthest_points_are_offered_and_logged() -> None:
    g = build_game(GameSetup(scenario="capture-the-flag"), 3)
    g.state.width = g.state.height = 300.0
    g.state.obstacles.clear()
    spawn.set_spawn_point(g, 0, (150.0, 15.0), source="test", page=None)
    cands = spawn.spawn_candidates(g, log=True)
    # Nowhere is more than Double away: the far corners, the farthest points, are offered.
    best = max(math.hypot(x - 150, y - 15) for x, y in cands.values())
    assert all(y > 250 and math.hypot(x - 150, y - 15) >= best - spawn.SPAWN_GRID
               for x, y in cands.values())
    assert {"15,285", "285,285"} <= set(cands)
    assert ev(g, "spawn_relaxed")


def test_set_up_places_spawn_points_in_pole_order_and_deploys_within_short_of_them() -> None:
    # Roll-off 2 against 5: seat 1 has the pole, places its spawn point and deploys first.
    g = build_game(GameSetup(scenario="capture-the-flag"), 0, dice=ScriptedDice([2, 5]))
    d = g.pending()
    assert d is not None and d.kind == "spawn_point" and d.player == 1
    g.apply("465,105")
    d = g.pending()
    assert d is not None and d.kind == "spawn_point" and d.player == 0
    assert "465,105" not in [o.value for o in d.options]
    far = max((str(o.value) for o in d.options), key=lambda k: float(k.split(",")[1]))
    g.apply(far)
    order = []
    while (d := g.pending()) is not None and d.kind in ("deploy", "spawn_pose"):
        if d.kind == "spawn_pose":
            order.append(d.player)
            poses = g.scenario.option_poses(g, d)
            assert set(poses) == {str(o.value) for o in d.options}
        g.apply(d.options[-1].value)
    assert order == [1, 1, 0, 0]
    st = g.state
    pts = spawn.spawn_points(st)
    for v in st.vehicles.values():
        disc = spawn._disc(pts[v.player], spawn.SPAWN_DIAMETER / 2)
        assert distance(v.polygon(), disc) <= 60.0 + 1e-6  # within Short, like a shot
    a, b, c, e = (v.polygon() for v in st.vehicles.values())
    assert penetration(a, b) < 0 and penetration(c, e) < 0
    # Then each player, in Pole order, puts a flag on one of their own vehicles.
    assert d is not None and d.kind == "flag_carrier" and d.player == 1
    g.apply("p2-blue-buggy")
    d = g.pending()
    assert d is not None and d.kind == "flag_carrier" and d.player == 0
    g.apply("p1-red-car")
    assert tokens.carried_by(st, "p2-blue-buggy") == ["flag-2"]
    assert tokens.carried_by(st, "p1-red-car") == ["flag-1"]


# -- flags (p.131, rulings CTF-1 .. CTF-4) -----------------------------------------------------
def red_and_blue() -> tuple[VehicleState, VehicleState]:
    return (vehicle("red", "car", 300, 300, heading=90, player=0),
            vehicle("blue", "car", 700, 900, heading=270, player=1))


def test_a_final_position_touching_a_flag_picks_it_up_without_a_collision() -> None:
    red, blue = red_and_blue()
    # Short Straight: red's nose ends at y=390; the flag (30 mm) reaches down to y=385.
    g = ctf(red, blue, flags={"flag-1": (300.0, 400.0), "flag-2": (800.0, 100.0)}, dice=[6, 1])
    d = drive(g, template="short_straight")
    assert tokens.carried_by(g.state, "red") == ["flag-1"]
    assert not ev(g, "collision")  # CTF-1: a flag is not an obstruction
    assert d is not None and d.kind == "token_drop" and d.vehicle == "red"


def test_a_template_passing_over_a_flag_picks_it_up_and_one_passing_by_does_not() -> None:
    red, blue = red_and_blue()
    red.gear = blue.gear = 2
    # Medium Straight from y=300 to y=420: it passes over (300, 360); (340, 360) is 10 mm clear.
    g = ctf(red, blue, flags={"flag-1": (300.0, 360.0), "flag-2": (340.0, 360.0)}, dice=[6, 1])
    drive(g, template="medium_straight", token_drop="keep")
    assert tokens.carried_by(g.state, "red") == ["flag-1"]
    assert tokens.on_table(g.state).keys() == {"flag-2"}


def test_a_vehicle_holding_two_flags_wins_at_once_counting_the_flag_it_started_with() -> None:
    red, blue = red_and_blue()
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (300.0, 400.0)}, dice=[6, 1])
    drive(g, template="short_straight")
    assert g.state.finished and g.state.winner == 0  # CTF-2
    assert ev(g, "flags_captured") == [{"vehicle": "red", "player": 0,
                                        "flags": ["flag-1", "flag-2"]}]


def test_a_wrecked_carrier_puts_its_flag_back_touching_the_wreck() -> None:
    red, blue = red_and_blue()

    class WreckRed(PlacedCTF):
        def setup(self, game: Game) -> Flow:
            yield from super().setup(game)
            yield from wreck(game, game.state.vehicles["red"])

    # Roll-off, then the explosion check: 1 (no explosion, a wreck is left).
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1, 1],
            scenario=WreckRed({"flag-1": "red", "flag-2": (800.0, 100.0)}))
    st = g.state
    assert red.status is Status.WRECKED
    wreck_poly = next(o for o in st.obstacles.values() if o.wreck_of == "red").polygon()
    assert tokens.carried_by(st, "red") == []
    flag = tokens.token_polygon(st, "flag-1")
    assert distance(flag, wreck_poly) <= 0.5  # touching the wreck (SC-7: behind it)
    assert tokens.token_point(st, "flag-1")[1] < red.pose.y  # behind its rear edge: red faces +y
    assert ev(g, "token_dropped")[0]["reason"] == "carrier wrecked"


def test_a_carrier_may_set_a_flag_down_within_short_at_the_end_of_its_activation() -> None:
    red, blue = red_and_blue()
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "token_drop"
    values = [str(o.value) for o in d.options]
    assert values[0] == "keep" and all(v.startswith("down:") for v in values[1:])
    pick = "down:180:55"
    assert pick in values
    g.apply(pick)
    st = g.state
    flag = tokens.token_polygon(st, "flag-1")
    gap = distance(flag, red.polygon())
    assert 50.0 <= gap <= 60.0 + 1e-6  # within Short (CTF-4)
    assert tokens.on_table(st).keys() == {"flag-1", "flag-2"}


def test_set_down_points_keep_clear_of_terrain_and_the_table_edge() -> None:
    red, blue = red_and_blue()
    red.pose = red.pose.__class__(20.0, 300.0, 90.0)  # hugging the left edge
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
    g.state.obstacles["rock"] = rock("rock", 20, 390, 40, 40)
    for c in tokens.set_down_points(g, red).values():
        poly = tokens.disc(c, tokens.TOKEN_SIZE)
        assert all(0 <= x <= 900 for x, _ in poly)
        assert penetration(poly, g.state.obstacles["rock"].polygon()) <= 1e-6


def walked_one_step_at_a_time(g: Game, v: VehicleState) -> dict[str, tuple[float, float]]:
    """The set-down places found by walking out every 2 mm step (the oracle for the halving)."""
    short = float(g.templates.ranges["short"])
    out = {}
    for b in range(0, 360, 45):
        ux = math.cos(math.radians(v.pose.heading + b))
        uy = math.sin(math.radians(v.pose.heading + b))
        for gap in (5.0, short / 2.0, short - 5.0):
            d = 0.0
            while d < 400.0:
                c = (v.pose.x + ux * d, v.pose.y + uy * d)
                if distance(tokens.disc(c, tokens.TOKEN_SIZE), v.polygon()) >= gap:
                    break
                d += 2.0
            if tokens._clear(g.state, c, tokens.TOKEN_SIZE, {v.id}):
                out[f"{b}:{gap:.0f}"] = c
    return out


def test_set_down_points_are_the_places_a_step_by_step_walk_finds() -> None:
    """The set-down places (M-12) are found by halving the walk out along each bearing; they
    are exactly those a walk of every 2 mm step finds, for cars and bigger vehicles at many
    places and facings, near edges and terrain too."""
    import random

    rnd = random.Random(7)
    red, blue = red_and_blue()
    compared = 0
    for _ in range(60):
        red.pose = red.pose.__class__(rnd.uniform(10.0, 890.0), rnd.uniform(10.0, 1190.0),
                                      rnd.uniform(-180.0, 180.0))
        red.length, red.width = rnd.choice([(40.0, 20.0), (60.0, 30.0), (100.0, 40.0)])
        g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
        g.state.obstacles["rock"] = rock("rock", rnd.uniform(0, 860), rnd.uniform(0, 1160), 40, 40)
        got = tokens.set_down_points(g, red)
        assert got == walked_one_step_at_a_time(g, red)
        compared += len(got)
    assert compared > 600


def test_a_disqualified_carrier_leaves_its_flag_where_it_stood_before_leaving() -> None:
    red, blue = red_and_blue()
    red.pose = red.pose.__class__(300.0, 1160.0, 90.0)  # nose 10 mm from the far edge
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
    drive(g, template="short_straight")
    assert red.status is Status.DISQUALIFIED
    assert tokens.token_point(g.state, "flag-1") == (300.0, 1160.0)  # SC-8
    assert ev(g, "token_dropped")[0]["reason"] == "carrier disqualified (SC-8)"


def test_bots_are_told_to_chase_the_nearest_loose_flag() -> None:
    red, blue = red_and_blue()
    g = ctf(red, blue, flags={"flag-1": (300.0, 700.0), "flag-2": (800.0, 100.0)}, dice=[6, 1])
    goal = g.scenario.goal(g.state, red)
    assert goal is not None and goal.a == goal.b == (300.0, 700.0)


# -- the shared token rules in other scenarios' settings (G-13, M-12) ----------------------------
class ScarperCTF(PlacedCTF):
    scarper = True
    token_hand_over = True


def test_in_a_scarper_scenario_a_disqualified_carrier_keeps_its_tokens() -> None:
    red, blue = red_and_blue()
    red.pose = red.pose.__class__(300.0, 1160.0, 90.0)
    flags: dict[str, tuple[float, float] | str] = {"flag-1": "red", "flag-2": (800.0, 100.0)}
    g = ctf(red, blue, flags=flags, dice=[6, 1], scenario=ScarperCTF(flags))
    drive(g, template="short_straight")
    assert red.status is Status.DISQUALIFIED
    assert tokens.carried_by(g.state, "red") == ["flag-1"]  # G-13: kept for scoring
    from carnage.games.refuelled.scenarios.common import victory

    assert victory.scarpered(g) == ["red"] and not victory.destroyed(red.status)


def test_a_carrier_may_hand_a_token_to_a_touching_vehicle() -> None:
    red = vehicle("red", "car", 300, 300, heading=90, player=0)
    mate = vehicle("mate", "car", 300, 420.05, heading=90, player=0)  # its rear at y=390.05
    blue = vehicle("blue", "car", 700, 900, heading=270, player=1)
    flags: dict[str, tuple[float, float] | str] = {"flag-1": "red", "flag-2": (800.0, 100.0)}
    g = ctf(red, mate, blue, flags=flags, dice=[6, 1], scenario=ScarperCTF(flags))
    assert [o.id for o in tokens.touching_vehicles(g, red)] == []
    red.pose = red.pose.__class__(300.0, 360.0, 90.0)  # nose at 390: 0.05 mm short, touching
    assert [o.id for o in tokens.touching_vehicles(g, red)] == ["mate"]
    tokens.hand_over(g, "flag-1", mate, source="test", page=None)
    assert tokens.carried_by(g.state, "mate") == ["flag-1"]
    assert ev(g, "token_handed_over")[0]["to"] == "mate"


def test_tokens_and_spawn_points_are_drawn() -> None:
    red, blue = red_and_blue()
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
    spawn.set_spawn_point(g, 0, (450.0, 105.0), source="test", page=None)
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert marks["spawn-1"].kind == "spawn" and marks["spawn-1"].points == ((450.0, 105.0),)
    assert marks["token-flag-1"].style == "flag carried"  # its kind, then that it is carried
    assert marks["token-flag-2"].style == "flag"
    assert marks["token-flag-2"].points == ((800.0, 100.0),) and marks["token-flag-2"].owner == 1


def test_the_end_of_activation_offers_a_hand_over_to_a_touching_vehicle() -> None:
    red = vehicle("red", "car", 300, 300, heading=90, player=0)
    mate = vehicle("mate", "car", 300, 420.05, heading=90, player=0)  # 0.05 mm past red
    blue = vehicle("blue", "car", 700, 900, heading=270, player=1)
    flags: dict[str, tuple[float, float] | str] = {"flag-1": "red", "flag-2": (800.0, 100.0)}
    g = ctf(red, mate, blue, flags=flags, dice=[6, 1] + [1] * 20, scenario=ScarperCTF(flags))
    d = drive(g, activate="red", template="short_straight", collision_reaction="evade")
    assert d is not None and d.kind == "token_drop" and d.vehicle == "red"
    assert "give:mate" in [o.value for o in d.options]
    g.apply("give:mate")
    assert tokens.carried_by(g.state, "mate") == ["flag-1"]


# -- at a real table (companion mode, ruling CP-6) ----------------------------------------------
MOVED_AT_TABLE = {"table:touching": "none", "template": "short_straight",
                  "table:move_touched": "none", "table:off_table": "no", "table:in_reach": "none"}
"""A Short Straight at a real table that touched no obstruction and stayed on the table; no
target in reach."""


def test_at_a_real_table_a_flag_reported_touched_is_picked_up_and_two_flags_win() -> None:
    red, blue = red_and_blue()
    # On the virtual table flag-2 lies far from red's move: the people's word is what counts.
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1],
            physical=True)
    d = drive(g, **MOVED_AT_TABLE)
    assert d is not None and d.kind == "table:tokens_touched" and d.page == 131
    assert [str(o.value) for o in d.options] == ["none", "flag-2"]  # its own flag is carried
    g.apply("flag-2")
    assert g.state.finished and g.state.winner == 0  # two flags on one vehicle (CTF-2)
    assert ev(g, "flags_captured") == [{"vehicle": "red", "player": 0,
                                        "flags": ["flag-1", "flag-2"]}]
    assert ev(g, "table_fact", fact="tokens_touched")[0]["answer"] == ["flag-2"]


def test_at_a_real_table_a_flag_not_reported_is_not_picked_up_and_set_down_is_one_choice(
) -> None:
    red, blue = red_and_blue()
    # The geometry would have red's Short Straight end touching flag-2: the people say no.
    g = ctf(red, blue, flags={"flag-1": "red", "flag-2": (300.0, 400.0)}, dice=[6, 1],
            physical=True)
    d = drive(g, **MOVED_AT_TABLE, **{"table:tokens_touched": "none"})
    assert tokens.carried_by(g.state, "red") == ["flag-1"]
    assert not g.state.finished
    assert d is not None and d.kind == "token_drop"
    assert [str(o.value) for o in d.options] == ["keep", "down"]  # where: the people's hand
    g.apply("down")
    assert tokens.on_table(g.state).keys() == {"flag-1", "flag-2"}
    assert ev(g, "token_dropped")[0]["reason"] == "set down"
