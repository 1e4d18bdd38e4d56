"""The dropped-weapon heuristics measure the nearest foe once: the same foe as the plain
"least gap, first of equals" and the same gap as measuring it again, and nothing is measured
when there is nothing to drop."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.builders import attack_game, table, vehicle

from carnage.games.refuelled.ai import dropped
from carnage.games.refuelled.ai.dropped import drop_pick, nearest_foe
from carnage.geometry.shapes import distance
from carnage.kernel.decisions import Decision, Option


def _plain_nearest(game: Any, v: Any) -> Any:
    foes = [o for o in game.state.in_play() if o.player != v.player]
    return min(foes, key=lambda o: distance(v.polygon(), o.polygon()), default=None)


@pytest.mark.parametrize("seed", range(6))
def test_nearest_foe_is_the_least_gap_first_of_equals(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        cars = [vehicle(f"v{i}", rng.choice(["car", "bus", "bike"]), rng.uniform(100, 900),
                        rng.uniform(100, 900), rng.uniform(0, 360), player=i % 3)
                for i in range(6)]
        g = attack_game(table(*cars, players=3), "v0")
        for v in cars:
            assert nearest_foe(g, v) is _plain_nearest(g, v)


def _attack_decision(*values: str) -> Decision:
    return Decision(0, "attack", "?", tuple(Option(x, x) for x in values), vehicle="me")


def test_drop_pick_measures_nothing_without_a_drop(monkeypatch: pytest.MonkeyPatch) -> None:
    me = vehicle("me", "car", 300, 300, 90, player=0)
    foe = vehicle("foe", "car", 300, 200, 90, player=1)  # close behind
    g = attack_game(table(me, foe), "me")
    calls: list[int] = []
    real = dropped.distance

    def counted(a: Any, b: Any) -> float:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(dropped, "distance", counted)
    assert drop_pick(g, _attack_decision("stop", "handgun>foe"), me) is None
    assert calls == []
    # with something to drop on a foe close behind: dropped, the gap measured once
    assert drop_pick(g, _attack_decision("stop", "drop:mines#0"), me) == "drop:mines#0"
    assert len(calls) == 1
    # a foe beyond Medium range: nothing dropped
    foe.pose = type(foe.pose)(300, -400, 90)
    assert drop_pick(g, _attack_decision("stop", "drop:mines#0"), me) is None
