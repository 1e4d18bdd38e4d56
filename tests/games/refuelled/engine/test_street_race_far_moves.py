"""Street Race judges a crossing only for moves whose sweep comes near the finish line: the box
``MoveResult.swept_box`` holds every pose ``swept`` gives, so a move whose box is clear of the
line cannot cross it (the finish is then judged from no poses, and gives the same answer)."""

from __future__ import annotations

import random

from carnage.games.refuelled.scenarios.base import Line, crosses
from carnage.games.refuelled.scenarios.street_race import FAR_FROM_LINE, SAMPLES
from carnage.geometry.collision import Obstruction
from carnage.geometry.movement import MoveResult, SlideSide, resolve_move
from carnage.geometry.shapes import Pose, Rect, penetration

TEMPLATES = ["short_straight", "medium_straight", "long_straight", "gentle", "veer", "turn",
             "hairpin", "swerve", "hard"]
LINE = Line((400.0, 600.0), (580.0, 600.0), (0.0, 1.0))
POINT = Line((490.0, 600.0), (490.0, 600.0), (0.0, 1.0))


def _moves(n: int, seed: int) -> list[tuple[Rect, MoveResult]]:
    rng = random.Random(seed)
    out = []
    wall = Obstruction("wall", tuple(Rect(Pose(490.0, 650.0, 0.0), 60.0, 20.0).polygon()))
    for _ in range(n):
        body = Rect(Pose(rng.uniform(250, 730), rng.uniform(300, 900), rng.uniform(0, 360)),
                    rng.uniform(30, 70), rng.uniform(15, 35))
        slide: SlideSide | None = rng.choice([None, "left", "right"])
        obs = [wall] if rng.random() < 0.3 else []
        tid, mirror, reverse = rng.choice(TEMPLATES), rng.random() < 0.5, rng.random() < 0.2
        ignoring = [o.id for o in obs if penetration(body.polygon(), list(o.polygon)) >= -1e-6]
        try:
            res = resolve_move(body, tid, obs, mirror=mirror, reverse=reverse, slide=slide,
                               ignoring=ignoring)
        except ValueError:  # that template does not slide to that side
            res = resolve_move(body, tid, obs, mirror=mirror, reverse=reverse,
                               ignoring=ignoring)
        out.append((body, res))
    return out


def test_every_swept_pose_lies_in_the_box_and_far_moves_never_cross() -> None:
    far_seen = near_crossing = 0
    for body, res in _moves(600, 7):
        box = res.swept_box()
        poses = res.swept(SAMPLES)
        for p in poses:  # each body corner inside the box (within rounding)
            for corner in Rect(p, body.length, body.width).polygon():
                assert penetration(box, [corner, corner]) >= -1e-6
        for line in (LINE, POINT):
            far = penetration(box, [line.a, line.b]) < -FAR_FROM_LINE
            crossed = crosses(line, poses, body.length, body.width)
            assert not (far and crossed)
            far_seen += far
            near_crossing += crossed
    assert far_seen > 300 and near_crossing > 20  # both kinds of move are exercised
