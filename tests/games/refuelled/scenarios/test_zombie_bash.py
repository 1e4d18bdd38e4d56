"""Zombie Bash (Refuelled pp.142-143): collecting zombies, five dropped round a wreck, the four
ways the game ends, Scarper and the spoils. Exact poses, scripted dice, the real flow."""

from __future__ import annotations

import math
import random

import pytest
from tests.builders import drive, ev, vehicle
from tests.games.refuelled.scenarios.skirmish_tables import placed

from carnage.games.refuelled.engine.state import GameState, Obstacle, Status
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.tokens import on_table
from carnage.games.refuelled.scenarios.skirmish_layout import ZOMBIE_RADIUS
from carnage.games.refuelled.scenarios.snl_prizes import point_gap
from carnage.games.refuelled.scenarios.zombie_bash import PER_PLAYER, ZOMBIE, ZOMBIES, ZombieBash
from carnage.geometry.shapes import Pose

MOVE = dict(skid_dice=0, spend_shift="done", attack="stop")


def horde(*points: tuple[float, float]) -> dict[str, tuple[str, tuple[float, float], float]]:
    return {f"zombie-{i + 1}": (ZOMBIE, p, 2 * ZOMBIE_RADIUS) for i, p in enumerate(points)}


FAR = [(50.0 + 40 * i, 1150.0) for i in range(12)]
"""Zombies along the far edge, out of everyone's way (keeps the count at 10 or more)."""


def test_a_vehicle_touching_a_zombie_collects_it_for_its_controller() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 700, 270, player=1)
    # On Blue's Medium Straight, one just touching the area its 30 mm wide body sweeps
    # (ruling SC-6: x 285-315), one well clear.
    z = horde((300.0, 400.0), (324.0, 380.0), (400.0, 400.0), *FAR)
    g = placed(ZombieBash, blue, red, dice=[], tokens=z)
    drive(g, template=["medium_straight"], **MOVE)
    assert score.total(g, ZOMBIES, 0) == 2
    left = on_table(g.state, ZOMBIE)
    assert "zombie-1" not in left and "zombie-2" not in left and "zombie-3" in left
    assert [e["reason"] for e in ev(g, "token_removed")][:2] == ["collected by blue"] * 2


def test_a_wrecked_vehicles_controller_puts_five_zombies_within_short_of_the_wreck() -> None:
    from carnage.catalog import Weight

    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 600, 700, 270, player=1)
    g = placed(ZombieBash, blue, red, dice=[], tokens=horde(*FAR))
    g.state.scenario["scores"] = {ZOMBIES: {"s1": 7}}
    red.status = Status.WRECKED
    g.state.obstacles["wreck:red"] = Obstacle("wreck:red", Pose(600, 700, 270), 60, 30,
                                              Weight.MIDDLEWEIGHT, wreck_of="red")
    g.emit("wrecked", source="damage", page=43, vehicle="red", player=1, in_collision=False)
    d = drive(g, template=["medium_straight"], **MOVE)  # Blue's move: the step ends
    placed_at = []
    while d is not None and d.kind == "zombie_drop":
        assert d.player == 1 and d.vehicle == "red"
        g.apply(d.options[0].value)
        placed_at.append(max(on_table(g.state, ZOMBIE), key=lambda k: int(k.split("-")[1])))
        d = g.pending()
    assert len(placed_at) == 5
    assert score.total(g, ZOMBIES, 1) == 2
    wreck = g.state.obstacles["wreck:red"].polygon()
    for tid in placed_at:
        t = on_table(g.state, ZOMBIE)[tid]
        gap = point_gap(wreck, (t["x"], t["y"])) - ZOMBIE_RADIUS
        assert -1e-6 <= gap <= 60.0 + 1e-6


def test_a_player_with_fewer_than_five_drops_them_all() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 600, 700, 270, player=1)
    g = placed(ZombieBash, blue, red, dice=[], tokens=horde(*FAR))
    g.state.scenario["scores"] = {ZOMBIES: {"s1": 2}}
    g.emit("wrecked", source="damage", page=43, vehicle="red", player=1, in_collision=False)
    drive(g, template=["medium_straight"], zombie_drop=["0deg 5mm", "90deg 5mm"], **MOVE)
    assert score.total(g, ZOMBIES, 1) == 0
    assert len(ev(g, "token_placed")) == 2


@pytest.mark.parametrize(("zombies", "scores", "reason"), [
    (10, {}, "fewer than 10 zombies left"),
    (12, {"s0": 20, "s1": 3}, "20 zombies collected"),
])
def test_the_game_ends_with_fewer_than_ten_zombies_or_twenty_collected(
        zombies: int, scores: dict[str, int], reason: str) -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 700, 270, player=1)
    # Blue's move collects one zombie: that leaves 9 on the table, or makes 20.
    z = horde((300.0, 400.0), *FAR[: zombies - 1]) if zombies == 10 else horde(*FAR)
    g = placed(ZombieBash, blue, red, dice=[], tokens=z)
    g.state.scenario["scores"] = {ZOMBIES: dict(scores)}
    if scores:
        g.state.scenario["scores"][ZOMBIES]["s0"] = 19
        g.state.scenario["tokens"]["zombie-x"] = {"kind": ZOMBIE, "owner": None, "x": 300.0,
                                                  "y": 400.0, "carrier": None, "size": 20.0}
    drive(g, template=["medium_straight"], **MOVE)
    out = g.outcome()
    assert out is not None and out.winner == 0
    assert reason in out.reason and out.rounds == 1


def test_the_game_ends_when_only_one_player_fields_vehicles_and_a_scarperer_never_returns(
        ) -> None:
    from carnage.games.refuelled.engine.votes import respawn_candidates

    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 700, 270, player=1)
    g = placed(ZombieBash, blue, red, dice=[], tokens=horde(*FAR),
               spawn={0: (100.0, 100.0), 1: (800.0, 1100.0)})
    g.state.scenario["scores"] = {ZOMBIES: {"s1": 4}}
    red.status = Status.DISQUALIFIED
    g.state.votes[1] = 5
    assert respawn_candidates(g, 1) == []  # Scarper: never respawns
    g.scenario.check_end(g)
    out = g.outcome()
    assert out is not None and out.winner == 1  # the scarperer's player still has the most
    assert out.reason == "most zombies (only one player left with vehicles in play): P2 with 4"


def test_the_generated_table_has_twelve_zombies_a_player_spread_over_it() -> None:
    from carnage.games.refuelled.setup import GameSetup, build_game

    g = build_game(GameSetup(scenario="zombie-bash", players=3), 7)
    pts = [(t["x"], t["y"]) for t in on_table(g.state, ZOMBIE).values()]
    assert len(pts) == 3 * PER_PLAYER == 36
    for qx in (0, 1):
        for qy in (0, 1):
            assert sum(qx * 450 <= x < (qx + 1) * 450 and qy * 600 <= y < (qy + 1) * 600
                       for x, y in pts) >= 6
    assert all(math.dist(a, b) >= 2 * ZOMBIE_RADIUS - 1e-9 for a in pts for b in pts if a != b)
    st = GameState(900.0, 1200.0, 2)
    ZombieBash().generate(st, random.Random(1))
    assert len(st.scenario["zombie_bash"]["layout"]) == 24


def test_registry_spoils_and_report() -> None:
    cls = SCENARIOS["zombie-bash"]
    assert cls is ZombieBash
    assert (cls.page, cls.table_rolls, cls.round_limit, cls.scarper) == (142, (6,), 3, True)
    assert cls.spoils.formula(25) == "25 Cans (at most 20)"
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 700, 270, player=1)
    g = placed(ZombieBash, blue, red, dice=[], tokens=horde(*FAR))
    rows = {r.key: r.value for r in g.scenario.report(g)}
    assert rows["zombies_left"] == 12 and rows["zombies_p1"] == 0
    kinds = {d.kind for d in g.scenario.drawables(g)}
    assert kinds == {"token"}
