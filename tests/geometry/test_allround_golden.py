"""The 360° cover search gives the same answers as the version it replaced, on 600 seeded
scenes (``allround_scenes``: spread and crowded tables, narrow slots, every ruler and
burst; answers recorded from the earlier search in ``data/allround_golden.json``), and
every placement it offers is what it claims."""

from __future__ import annotations

import json

from tests.geometry.allround_scenes import GOLDEN, scenes
from tests.geometry.test_cover_360 import clear_along

from carnage.geometry.arcs import Arc
from carnage.geometry.cover import check_fire, clear_memo
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import distance


def test_answers_match_the_recorded_ones_and_placements_hold() -> None:
    golden = json.loads(GOLDEN.read_text())["answers"]
    cases = scenes()
    assert len(golden) == len(cases) == 600
    clear_memo()
    kinds = set()
    for k, ((shooter, target, tpl, blockers), want) in enumerate(zip(cases, golden,
                                                                     strict=True)):
        fc = check_fire(shooter, target, Arc.TURRET, shooting_template(tpl), blockers)
        got = [int(fc.in_range), int(fc.cover), int(fc.blocked)]
        assert got == want, (k, tpl)
        kinds.add(tuple(got))
        if not fc.in_range:
            continue
        assert fc.placement is not None and fc.heading is not None
        assert distance(list(fc.placement), target) <= 0.2
        assert distance(list(fc.placement), shooter.polygon()) <= 1e-6
        if not fc.cover:
            assert clear_along(fc.placement, fc.heading, target, blockers), k
        if not fc.blocked:
            assert clear_along(fc.placement, fc.heading, target,
                               [b for b in blockers if b.tall]), k
    # every kind of answer is among them
    assert kinds == {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)}
