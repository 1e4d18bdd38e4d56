"""The heuristic bot's candidate bounds: sound, and the pick is the exhaustive one.

The bot skips sweeping a candidate move when a bound on its score is below the best score
found (``ai/bots.py`` ``_ScoreBound``). These tests check, over seeded Street Races and Death
Races, that every bound is at least the candidate's real score (before the move is swept,
and once it is), that a move with nothing near it (``clear_of``) is bounded by the bound
at its end, and that the pick equals the
one scoring every candidate would make (the first of the highest scores in option order);
and that ``DistanceField.least_in`` never exceeds the field anywhere in its box.
"""

from __future__ import annotations

import math
import random

import pytest

from carnage.ai import bot_rng
from carnage.catalog import TemplateUse
from carnage.games.refuelled.ai.bots import Candidate, HeuristicBot
from carnage.games.refuelled.ai.field import FAR, distance_field
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.movement import parse_template_value, template_use
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.movement import resolve_move
from carnage.kernel.decisions import Decision


def _exhaustive(bot: HeuristicBot, game: Game, d: Decision
                ) -> tuple[object, list[tuple[Candidate, float]]]:
    """The pick of scoring every candidate (the bot's rule before it skipped any)."""
    v = bot.active(game)
    assert v is not None
    obs, ignoring = bot.moves_for(game, v)
    scored = []
    for o in d.options:
        tid, mirror, reverse = parse_template_value(str(o.value))
        use = template_use(game, v, tid, v.gear)
        if use is TemplateUse.NOT_PERMITTED:
            continue
        res = resolve_move(v.rect(), tid, obs, mirror=mirror, reverse=reverse,
                           ignoring=ignoring, ts=game.templates)
        hazards = v.hazards + (1 if use is TemplateUse.HAZARDOUS else 0)
        s = bot.score_move(game, v, res, hazards) + (5.0 if use is TemplateUse.TRIVIAL else 0.0)
        scored.append(((o.value, tid, mirror, reverse, use), s))
    best = max(scored, key=lambda t: t[1])
    return best[0][0], scored


@pytest.mark.parametrize("scenario,seeds", [("street-race", range(6)), ("death-race", range(2))])
def test_bounds_hold_and_the_pick_is_the_exhaustive_one(scenario: str, seeds: range) -> None:
    checked = skipped_some = swept_skips = clear = 0
    for seed in seeds:
        g = build_game(GameSetup(scenario=scenario), seed)
        bots = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(seed)
        while (d := g.pending()) is not None:
            bot = bots[d.player]
            v = bot.active(g)
            if d.kind == "template" and v is not None and d.player == v.player:
                want, scored = _exhaustive(bot, g, d)
                got = bot.choose(g, d, random.Random(0))
                assert got == want, (seed, got, want)
                bounder = bot._score_bounder(g, v)
                if bounder is not None:
                    top = max(x for _, x in scored)
                    obs, ignoring = bot.moves_for(g, v)
                    for cand, s in scored:
                        bound = max(bounder.at_end(cand), bounder.interrupted(cand))
                        assert bound >= s
                        skipped_some += bound < top
                        _, tid, mirror, reverse, _ = cand
                        res = resolve_move(v.rect(), tid, obs, mirror=mirror, reverse=reverse,
                                           ignoring=ignoring, ts=g.templates)
                        assert bounder.swept(cand, res) >= s
                        swept_skips += bounder.swept(cand, res) < top <= bound
                        if bounder.clear(cand, obs):
                            assert bounder.at_end(cand) >= s
                            clear += 1
                        # the bound the bot uses before sweeping: the same numbers at once
                        assert bounder.before_sweep(cand, obs) == (
                            bounder.at_end(cand) if bounder.clear(cand, obs) else bound)
                checked += 1
            g.apply(bot.choose(g, d, rng))
    assert checked > 20
    assert skipped_some > 0  # the bounds do rule candidates out
    assert swept_skips > 0  # ... and so does the bound once a move is swept
    assert clear > 0  # ... and some moves have nothing near them


def test_least_in_is_a_lower_bound_of_the_field() -> None:
    terrain = (((300.0, 300.0), (420.0, 300.0), (420.0, 380.0), (300.0, 380.0)),
               ((700.0, 600.0), (760.0, 560.0), (820.0, 650.0), (740.0, 700.0)))
    f = distance_field(1200.0, 1200.0, terrain, ((100.0, 1100.0), (500.0, 1100.0)), 20.0)
    rng = random.Random(5)
    for _ in range(200):
        x0, y0 = rng.uniform(-100, 1250), rng.uniform(-100, 1250)
        x1, y1 = x0 + rng.uniform(0, 400), y0 + rng.uniform(0, 400)
        lb = f.least_in(x0, y0, x1, y1)
        pts = [(x0 + (x1 - x0) * i / 12, y0 + (y1 - y0) * j / 12)
               for i in range(13) for j in range(13)]
        pts += [(rng.uniform(x0, x1), rng.uniform(y0, y1)) for _ in range(50)]
        assert all(f.at(p) >= lb - 1e-9 for p in pts)
        assert lb <= FAR
    # and it is not vacuous: a box round the goal reads near zero
    assert f.least_in(250.0, 1050.0, 350.0, 1150.0) < 30.0
    assert math.isfinite(f.least_in(0.0, 0.0, 1200.0, 1200.0))


def test_a_move_clear_of_everything_is_not_interrupted_and_ends_at_its_final_pose() -> None:
    """``clear_of`` True: ``resolve_move`` finds nothing near (random bodies, templates and
    obstructions), the move is uninterrupted, touches nothing and ends at ``final_pose``."""
    from carnage.geometry.collision import Obstruction
    from carnage.geometry.movement import clear_of, final_pose, motion_bounds, unobstructed
    from carnage.geometry.shapes import Pose, Rect
    from carnage.geometry.templateset import default_template_set

    ts = default_template_set()
    ids = sorted(ts.movement)
    rng = random.Random(11)
    said_clear = said_not = 0
    for _ in range(1500):
        body = Rect(Pose(rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360)),
                    rng.choice((50.0, 45.0, 70.0)), rng.choice((25.0, 20.0, 30.0)))
        obs = [Obstruction(f"o{i}", tuple(Rect(Pose(rng.uniform(0, 900), rng.uniform(0, 900),
                                                    rng.uniform(0, 360)),
                                               rng.uniform(10, 120), rng.uniform(10, 80)
                                               ).polygon()))
               for i in range(rng.randint(0, 4))]
        tid, mirror, reverse = rng.choice(ids), rng.random() < 0.5, rng.random() < 0.2
        clear = clear_of(body, tid, obs, mirror=mirror, reverse=reverse, ts=ts)
        res = resolve_move(body, tid, obs, mirror=mirror, reverse=reverse, ts=ts)
        if clear:
            said_clear += 1
            assert not res.interrupted and not res.touched and not res.ignored
            assert res.pose == final_pose(body, tid, mirror=mirror, reverse=reverse, ts=ts)
        else:
            said_not += 1
        # with nothing on the table every move is clear
        assert clear_of(body, tid, [], mirror=mirror, reverse=reverse, ts=ts)
        # ``unobstructed``: the three answers at once
        assert unobstructed(body, tid, obs, mirror=mirror, reverse=reverse, ts=ts) == (
            final_pose(body, tid, mirror=mirror, reverse=reverse, ts=ts),
            motion_bounds(body, tid, mirror=mirror, reverse=reverse, ts=ts), clear)
    assert said_clear > 100 and said_not > 100


def test_least_in_reads_the_blocks_as_the_one_line_minimum_did() -> None:
    """``least_in`` walks the blocks in loops: the same number as the minimum over the
    rows' minima it replaced, over boxes on and off the table."""
    from carnage.games.refuelled.ai.field import BLOCK, CELL, _block_mins

    terrain = (((300.0, 300.0), (420.0, 300.0), (420.0, 380.0), (300.0, 380.0)),)
    f = distance_field(1000.0, 700.0, terrain, ((100.0, 650.0), (500.0, 650.0)), 20.0)
    mins, bc = _block_mins(f)
    rng = random.Random(8)
    for _ in range(2000):
        x0, y0 = rng.uniform(-300, 1100), rng.uniform(-300, 800)
        x1, y1 = x0 + rng.uniform(0, 600), y0 + rng.uniform(0, 600)
        c0 = max(math.floor(x0 / CELL - 0.5) - 1, 0) // BLOCK
        c1 = min(math.floor(x1 / CELL - 0.5) + 2, f.cols - 1) // BLOCK
        r0 = max(math.floor(y0 / CELL - 0.5) - 1, 0) // BLOCK
        r1 = min(math.floor(y1 / CELL - 0.5) + 2, f.rows - 1) // BLOCK
        want = FAR if c0 > c1 or r0 > r1 else min(
            FAR, *(min(mins[r * bc + c0:r * bc + c1 + 1]) for r in range(r0, r1 + 1)))
        assert f.least_in(x0, y0, x1, y1) == want


def test_path_boxes_hold_the_centre_and_the_point_ahead_all_along_the_move() -> None:
    """``_path_boxes``: every pose a move (no slide, no spin) can stop at, sampled far more
    finely than the boxes were made, has its centre in the centre box and the point
    ``LOOK_AHEAD`` ahead of its nose in the nose box; and the boxes are tighter than the
    body's bounds grown by the look-ahead, as the bound used before."""
    from carnage.games.refuelled.ai.bots import LOOK_AHEAD, _path_boxes
    from carnage.geometry.movement import unobstructed_motion
    from carnage.geometry.shapes import Pose, Rect
    from carnage.geometry.templateset import default_template_set

    ts = default_template_set()
    rng = random.Random(3)
    smaller = 0
    for tid in sorted(ts.movement):
        for mirror in (False, True):
            for reverse in (False, True):
                body = Rect(Pose(500.0, 400.0, rng.uniform(0, 360)),
                            rng.choice((50.0, 45.0, 70.0, 110.0)),
                            rng.choice((25.0, 20.0, 30.0, 40.0)))
                _, m, _ = unobstructed_motion(body, tid, (), mirror=mirror, reverse=reverse,
                                              ts=ts)
                (cx0, cy0, cx1, cy1), (nx0, ny0, nx1, ny1) = _path_boxes(m)
                d = body.length / 2.0 + LOOK_AHEAD
                n = 4000
                for i in range(n + 1):
                    x, y, h = m.at(m.length * i / n)
                    assert cx0 <= x <= cx1 and cy0 <= y <= cy1
                    px, py = x + d * math.cos(h), y + d * math.sin(h)
                    assert nx0 <= px <= nx1 and ny0 <= py <= ny1
                bx0, by0, bx1, by1 = m.bounds
                assert bx0 <= cx0 and cx1 <= bx1 and by0 <= cy0 and cy1 <= by1
                assert bx0 - d <= nx0 and nx1 <= bx1 + d and by0 - d <= ny0 and ny1 <= by1 + d
                smaller += (cx1 - cx0) * (cy1 - cy0) < (bx1 - bx0) * (by1 - by0)
    assert smaller > 20


def test_a_turn_on_the_spot_overlaps_only_what_near_turning_keeps() -> None:
    """``best_pivot`` looks for overlaps only among ``_near_turning``'s obstructions: any it
    drops is overlapped by less than 0.1 mm (separated) at every heading (random vehicles'
    poses and obstructions), and it keeps the others in order."""
    from carnage.games.refuelled.ai.bots import _near_turning
    from carnage.geometry.collision import Obstruction
    from carnage.geometry.shapes import Pose, Rect, penetration

    g = build_game(GameSetup(), 0)
    rng = random.Random(5)
    dropped = kept = 0
    for _ in range(400):
        v = rng.choice(list(g.state.vehicles.values()))
        v.pose = Pose(rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360))
        live = [Obstruction(f"o{i}", tuple(Rect(Pose(v.pose.x + rng.uniform(-150, 150),
                                                     v.pose.y + rng.uniform(-150, 150),
                                                     rng.uniform(0, 360)),
                                                rng.uniform(5, 120), rng.uniform(5, 80)
                                                ).polygon()))
                for i in range(6)]
        near = _near_turning(v, live)
        assert near == [o for o in live if o in near]  # in order
        for o in live:
            if o in near:
                kept += 1
                continue
            dropped += 1
            for k in range(72):
                poly = Rect(Pose(v.pose.x, v.pose.y, k * 5.0), v.length, v.width).polygon()
                assert penetration(poly, list(o.polygon)) < -1e-6
    assert dropped > 300 and kept > 300
