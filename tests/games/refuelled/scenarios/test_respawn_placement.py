"""Respawn placement in every scenario with spawn points (ruling SC-45): the scenario's "a
vehicle must respawn within Short of its controller's spawn point" wins over p.90's wreck
turned back over where it lies. Each scenario is set up through its real flow (default
teams, the first option of every set-up decision); a vehicle is left as a wreck Long and
more from its spawn point and respawned through the core respawn flow."""

from __future__ import annotations

from typing import Any

import pytest

from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import Obstacle, Status, VehicleState
from carnage.games.refuelled.engine.votes import respawn, respawn_candidates
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.common import spawn
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import Pose, Rect, distance, penetration
from carnage.kernel.decisions import Decision

SPAWN_POINT_SCENARIOS = sorted(sid for sid, cls in SCENARIOS.items()
                               if issubclass(cls, spawn.SpawnPoints))


def test_the_spawn_point_scenarios_are_the_ones_the_book_names() -> None:
    assert set(SPAWN_POINT_SCENARIOS) >= {
        "arena-of-death", "capture-the-flag", "flag-tag", "saturday-night-live",
        "automated-salvage", "scavenger-party", "the-revolution-will-be-televised", "zombie-bash",
        "big-game-hunter", "monster-truck-smash", "truckasaurus", "desert-strike",
        "tank-commander", "express-delivery"}


def _run(flow: Flow, **answers: Any) -> list[Decision]:
    asked: list[Decision] = []
    reply: Any = None
    while True:
        try:
            d = flow.send(reply)
        except StopIteration:
            return asked
        assert isinstance(d, Decision)
        asked.append(d)
        reply = answers.get(d.kind, d.options[0].value)


def _set_up(sid: str) -> Game:
    cls = SCENARIOS[sid]
    g = build_game(GameSetup(scenario=sid, players=max(2, cls.min_players)), seed=7)
    while (d := g.pending()) is not None and d.kind not in ("activate", "commercial_break",
                                                             "spend_votes"):
        g.apply(d.options[0].value)
    return g


def _clear_spot_far_from(g: Game, v: VehicleState, home: tuple[float, float]) -> Pose:
    """A pose on the table, clear of everything, as far as can be from ``home``."""
    st = g.state
    others = [ob.polygon() for ob in st.obstacles.values()]
    others += [r.polygon() for o in st.in_play() if o.id != v.id for _, r in o.bodies()]
    best: tuple[float, Pose] | None = None
    for i in range(1, 12):
        for j in range(1, 16):
            pose = Pose(st.width * i / 12, st.height * j / 16, 0.0)
            poly = Rect(pose, v.length + 40, v.width + 40).polygon()
            if any(penetration(poly, o) >= 0 for o in others):
                continue
            d = ((pose.x - home[0]) ** 2 + (pose.y - home[1]) ** 2) ** 0.5
            if best is None or d > best[0]:
                best = (d, pose)
    assert best is not None
    return best[1]


@pytest.mark.parametrize("sid", SPAWN_POINT_SCENARIOS)
def test_every_spawn_point_scenario_respawns_a_wreck_at_its_spawn_point(sid: str) -> None:
    g = _set_up(sid)
    st = g.state
    v = next(o for o in st.vehicles.values()
             if o.in_team and o.in_play and spawn.spawn_point(st, o.player) is not None)
    home = spawn.spawn_point(st, v.player)
    assert home is not None
    where = _clear_spot_far_from(g, v, home)
    long = g.templates.ranges["long"]
    v.pose = where
    assert distance(v.polygon(), bt.disc(home)) > long
    # Left as a wreck there (p.43-44).
    v.damage = v.hull
    v.status = Status.WRECKED
    oid = f"wreck:{v.id}"
    st.obstacles[oid] = Obstacle(oid, where, v.length, v.width, weight=v.weight,
                                 destructible=True, wreck_of=v.id)
    g.log.emit("wrecked", source="damage", page=43, vehicle=v.id, player=v.player)
    if not any(o.in_play and o.player == v.player and o.in_team for o in st.vehicles.values()):
        assert v in respawn_candidates(g, v.player) or sid == "arena-of-death"
    asked = _run(respawn(g, v, v.player, source="respawn", page=90))
    assert [d.kind for d in asked] == ["respawn_position"]
    short = g.templates.ranges["short"]
    assert v.in_play and oid not in st.obstacles
    assert distance(v.polygon(), bt.disc(home)) <= short + 1e-6
    assert v.hull_points == max(1, v.hull // 2)
    respawned = [e for e in g.log.of_kind("respawn") if e.data["vehicle"] == v.id]
    assert respawned[-1].data["how"] == "placed"


def test_a_skirmish_still_turns_the_wreck_back_over_where_it_lies() -> None:
    g = _set_up("skirmish") if "skirmish" in SCENARIOS else build_game(GameSetup(), seed=7)
    st = g.state
    while (d := g.pending()) is not None and d.kind not in ("activate", "spend_votes"):
        g.apply(d.options[0].value)
    v = next(o for o in st.vehicles.values() if o.in_team and o.in_play)
    where = v.pose
    v.damage, v.status = v.hull, Status.WRECKED
    st.obstacles[f"wreck:{v.id}"] = Obstacle(f"wreck:{v.id}", where, v.length, v.width,
                                             weight=v.weight, destructible=True, wreck_of=v.id)
    g.log.emit("wrecked", source="damage", page=43, vehicle=v.id, player=v.player)
    assert _run(respawn(g, v, v.player, source="respawn", page=90)) == []
    assert v.in_play and v.pose == where
