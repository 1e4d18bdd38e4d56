"""What the Movement Step's helpers remember answers as working it out afresh: the
obstructions kept by id, pose and size (``obstructions_for``), and each template's use asked
of the hooks once per list of options (``template_options``)."""

from __future__ import annotations

import random

from tests.builders import attack_game, perked, rock, table, vehicle

from carnage.ai import bot_rng
from carnage.catalog import TemplateUse
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.movement import (
    _placements,
    obstructions_for,
    template_options,
    template_use,
    template_value,
)
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import Pose


def test_obstructions_kept_between_calls_are_the_ones_built_afresh() -> None:
    rng = random.Random(4)
    cars = [vehicle(f"v{i}", rng.choice(["car", "bus", "war_rig"]), rng.uniform(200, 600),
                    rng.uniform(200, 600), rng.uniform(0, 360), player=i % 2) for i in range(4)]
    walls = [rock(f"r{j}", rng.uniform(200, 600), rng.uniform(200, 600), length=60, width=15,
                  heading=rng.uniform(0, 180)) for j in range(4)]
    g = attack_game(table(*cars, obstacles=walls), "v0")
    for _ in range(60):
        o = rng.choice(walls)
        o.pose = Pose(rng.choice([o.pose.x, rng.uniform(200, 600)]), o.pose.y,
                      rng.choice([o.pose.heading, rng.uniform(0, 360)]))
        o.width = rng.choice([o.width, rng.uniform(5, 40)])
        car = rng.choice(cars)
        car.pose = Pose(rng.uniform(200, 600), rng.uniform(200, 600), rng.uniform(0, 360))
        v = rng.choice(cars)
        fresh = [(bid, tuple(r.polygon())) for o2 in cars if o2 is not v for bid, r in o2.bodies()]
        fresh += [(w.id, tuple(w.polygon())) for w in walls]
        assert [(ob.id, ob.polygon) for ob in obstructions_for(g, v)] == fresh


def _options_afresh(g: Game, v: VehicleState, permitted_only: bool) -> list[tuple[str, str]]:
    """``template_options`` as it was written before the uses were kept: every use asked of
    the hooks each time it is needed."""
    out: list[tuple[str, str]] = []
    may_reverse = g.effects.run_event("may_reverse", True, {"game": g, "vehicle": v}) is True
    hooked = not permitted_only or any(
        template_use(g, v, t.id, v.gear) is not TemplateUse.NOT_PERMITTED
        for t in g.catalog.templates)
    for t in g.catalog.templates:
        use = template_use(g, v, t.id, v.gear) if hooked else t.use_in(v.gear)
        if permitted_only and use is TemplateUse.NOT_PERMITTED:
            continue
        reverse_ok = (may_reverse and v.gear == 1 and (
            template_use(g, v, t.id, 1) if hooked else t.use_in(1)
        ) is not TemplateUse.NOT_PERMITTED)
        for tid, m, r in _placements(t.id, reverse_ok):
            label = f"{t.name}{' (left)' if m else ''}{' in reverse' if r else ''} [{use._value_}]"
            out.append((template_value(tid, m, r), label))
    return out


def test_template_options_are_those_asked_afresh_in_every_gear() -> None:
    # Seeded races, every vehicle in every gear it has, with and without touch it, use it;
    # and a vehicle whose perks change the uses through the hook (Trick Driving, Hell for
    # Leather).
    checked = 0
    for seed in range(3):
        g = build_game(GameSetup(), seed)
        bots = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(seed)
        n = 0
        while (d := g.pending()) is not None and n < 40:
            n += 1
            if d.kind == "template":
                for v in g.state.vehicles.values():
                    was = v.gear
                    for gear in range(1, v.max_gear + 1):
                        v.gear = gear
                        for only in (True, False):
                            assert template_options(g, v, permitted_only=only) == \
                                _options_afresh(g, v, only)
                            checked += 1
                    v.gear = was
            g.apply(bots[d.player].choose(g, d, rng))
    assert checked > 50
    v = perked(vehicle("p", "car", 300, 300, 0, player=0), "trick_driving", "hell_for_leather")
    g = attack_game(table(v, vehicle("q", "car", 600, 600, 0, player=1)), "p")
    for gear in range(1, v.max_gear + 1):
        v.gear = gear
        for only in (True, False):
            assert template_options(g, v, permitted_only=only) == _options_afresh(g, v, only)
