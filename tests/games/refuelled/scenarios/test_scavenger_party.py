"""Scavenger Party (Refuelled pp.139-140): the crate ring, picking crates up (by move, spin or
pivot) with a loot box each, crates dropped by a wreck and kept by a scarperer, more than half
the crates ending the game, the spoils. Exact poses, scripted dice, the real flow."""

from __future__ import annotations

import math

import pytest
from tests.builders import drive, ev, vehicle
from tests.games.refuelled.scenarios.skirmish_tables import placed

from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.common.tokens import carried_by, on_table, tokens
from carnage.games.refuelled.scenarios.loot import held
from carnage.games.refuelled.scenarios.scavenger_party import CRATE, KEY, ScavengerParty
from carnage.games.refuelled.scenarios.skirmish_layout import CRATE_SIZE
from carnage.games.refuelled.setup import GameSetup, build_game

MOVE = dict(skid_dice=0, spend_shift="done", attack="stop")


def crates(*points: tuple[float, float]) -> dict[str, tuple[str, tuple[float, float], float]]:
    return {f"crate-{i + 1}": (CRATE, p, CRATE_SIZE) for i, p in enumerate(points)}


def party(*vs: object, at: list[tuple[float, float]], dice: list[int], start: int = 12
          ) -> object:
    g = placed(ScavengerParty, *vs, dice=dice, tokens=crates(*at))
    g.state.scenario[KEY] = {"start": start}
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_d6_plus_6_crates_each_exactly_double_from_the_centre(seed: int) -> None:
    g = build_game(GameSetup(scenario="scavenger-party"), seed)
    pts = [(t["x"], t["y"]) for t in on_table(g.state, CRATE).values()]
    assert 7 <= len(pts) <= 12
    assert len(pts) == g.state.scenario[KEY]["count"] == g.state.scenario[KEY]["start"]
    for p in pts:
        assert math.dist(p, (450.0, 600.0)) == pytest.approx(300.0, abs=1e-3)
    for ob in g.state.obstacles.values():  # the terrain leaves the ring clear
        assert all(math.dist(p, (ob.pose.x, ob.pose.y)) > 30.0 for p in pts)


def test_a_crate_on_the_move_is_picked_up_with_a_loot_box() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 900, 270, player=1)
    g = party(blue, red, at=[(300.0, 400.0), (600.0, 600.0)], dice=[4])  # loot: a Bazooka
    drive(g, template=["medium_straight"], **MOVE)
    assert carried_by(g.state, "blue", CRATE) == ["crate-1"]
    assert ev(g, "token_picked_up")[0] == {"token": "crate-1", "token_kind": CRATE,
                                            "vehicle": "blue", "player": 0}
    assert ev(g, "roll", why="loot box")[0]["dice"] == [4]
    assert [i["item"] for i in held(g.state, "blue")] == ["bazooka"]
    assert ev(g, "loot_box")[0]["item"] == "bazooka"


def test_a_spin_into_a_crate_picks_it_up() -> None:
    # Blue's Short Straight ends at (300, 420); the crate at (345, 420) is 15 mm clear of the
    # body until a skid die's Spin (a 2) turns it 90 degrees into the crate.
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 900, 270, player=1)
    g = party(blue, red, at=[(345.0, 420.0)], dice=[2, 1], start=12)
    d = drive(g, template=["short_straight"], skid_dice=1, spend_shift="done", attack="stop")
    while d is not None and d.kind != "activate":
        if d.kind == "spin":
            g.apply(max(d.options, key=lambda o: abs(float(o.value))).value
                    if d.domain is None else -90.0)
        else:
            g.apply(d.options[0].value if d.domain is None else d.domain.low)
        d = drive(g, **MOVE)
    kinds = [e.kind for e in g.log if e.kind in ("move", "pivot", "token_picked_up")]
    assert kinds[:3] == ["move", "pivot", "token_picked_up"]  # not by the move: by the spin
    assert carried_by(g.state, "blue", CRATE) == ["crate-1"]


def test_a_wrecked_carrier_puts_its_crates_by_the_wreck_and_a_scarperer_keeps_them() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 900, 270, player=1)
    red2 = vehicle("red2", "buggy", 700, 300, 270, player=1)
    g = party(blue, red, red2, at=[(600.0, 600.0), (100.0, 1100.0)], dice=[], start=8)
    tokens(g.state)["crate-1"].update(carrier="red", x=None, y=None)
    tokens(g.state)["crate-2"].update(carrier="red2", x=None, y=None)
    assert g.scenario.crates_held(g) == {0: 0, 1: 2}
    red.status = Status.WRECKED
    g.effects.run_event("wrecked", None, {"game": g, "vehicle": red})
    assert "crate-1" in on_table(g.state, CRATE)
    t = on_table(g.state, CRATE)["crate-1"]
    assert math.dist((t["x"], t["y"]), (800.0, 900.0)) == pytest.approx(30 + CRATE_SIZE / 2)
    red2.status = Status.DISQUALIFIED
    g.emit("disqualified", vehicle="red2", reason="left the table")
    assert carried_by(g.state, "red2", CRATE) == ["crate-2"]
    assert g.scenario.crates_held(g) == {0: 0, 1: 1}


def test_more_than_half_the_starting_crates_ends_the_game() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 900, 270, player=1)
    g = party(blue, red, at=[(300.0, 400.0), (700.0, 700.0), (100.0, 1100.0)], dice=[6],
              start=3)
    tokens(g.state)["crate-2"].update(carrier="blue", x=None, y=None)
    drive(g, template=["medium_straight"], **MOVE)
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.rounds == 1
    assert out.reason == "most crates held (more than half the crates held): P1 with 2"
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["the game ended"]


def test_registry_and_spoils() -> None:
    cls = SCENARIOS["scavenger-party"]
    assert cls is ScavengerParty
    assert (cls.page, cls.table_rolls, cls.round_limit, cls.scarper) == (139, (3, 4), 3, True)
    assert cls.spoils.formula(3) == "3D6+3 Cans (at most 20)"


def test_copies_made_after_a_loot_item_was_handed_out_play_on_identically() -> None:
    import random

    from tests.copies import copies_diverge

    from carnage.games.refuelled.ai.bots import HeuristicBot

    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 500, 700, 270, player=1)
    g = party(blue, red, at=[(300.0, 400.0), (600.0, 600.0)], dice=[4] + [3] * 200)
    drive(g, template=["medium_straight"], skid_dice=0, spend_shift="done")
    assert ev(g, "loot_box") and g.pending() is not None
    assert copies_diverge(g, [HeuristicBot()], random.Random(1), steps=20) is None


def test_the_table_draws_the_ring_and_the_crates() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 900, 270, player=1)
    g = party(blue, red, at=[(600.0, 600.0)], dice=[])
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert marks["crate-ring"].kind == "zone"
    assert all(math.dist(p, (450.0, 600.0)) == pytest.approx(300.0)
               for p in marks["crate-ring"].points)
    assert marks["token-crate-1"].kind == "token" and marks["token-crate-1"].points == (
        (600.0, 600.0),)
    rows = {r.key: r.value for r in g.scenario.report(g)}
    assert rows["crates_left"] == 1 and rows["crates_p1"] == 0
