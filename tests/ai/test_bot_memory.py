"""What the heuristic bot keeps between decisions, and what it leaves behind.

A bot finds the distance field it looked up last time again by identity (``_recent_field``:
the same goal line, the same obstacle poses) instead of hashing the whole key; these tests
check it gives the field the whole key gives, and nothing when the table differs. A bot
holds no reference cycle (its decisions' handlers are not methods bound to it), so a finished
game's bots are freed by their reference counts, without the garbage collector.
"""

from __future__ import annotations

import gc
from dataclasses import replace

from tests.builders import heuristic_race

from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot, _recent_field
from carnage.games.refuelled.engine.state import Obstacle
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import Pose


def test_fields_found_again_are_the_ones_the_whole_key_finds() -> None:
    compared = 0
    for seed in range(3):
        g = build_game(GameSetup(), seed)
        bots = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(seed)
        while (d := g.pending()) is not None:
            bot = bots[d.player]
            for v in g.state.in_play():
                goal = bot.goal(g, v)
                if goal is None:
                    continue
                skip = bot.targets(g, v)
                fresh = HeuristicBot()._field_for(g, v, goal, skip)  # nothing remembered
                kept = bot._field_for(g, v, goal, skip)
                assert kept.values == fresh.values
                assert (kept.cols, kept.rows) == (fresh.cols, fresh.rows)
                compared += 1
            g.apply(bot.choose(g, d, rng))
    assert compared > 300


def test_a_different_table_is_not_found_again() -> None:
    g = build_game(GameSetup(), 1)
    bot = HeuristicBot()
    st = g.state
    v = next(iter(st.in_play()))
    goal = bot.goal(g, v)
    assert goal is not None
    skip = frozenset[str]()
    f = bot._field_for(g, v, goal, skip)
    recent = bot._recent
    assert _recent_field(recent, st, goal, v.width, skip) is f
    assert _recent_field(recent, st, goal, v.width + 1.0, skip) is None
    assert _recent_field(recent, st, replace(goal), v.width, skip) is None  # not the same line
    first = next(iter(st.obstacles))
    assert _recent_field(recent, st, goal, v.width, frozenset({first})) is None
    ob = st.obstacles[first]
    st.obstacles[first] = replace(ob, pose=Pose(ob.pose.x + 5.0, ob.pose.y, ob.pose.heading))
    assert _recent_field(recent, st, goal, v.width, skip) is None  # moved
    st.obstacles[first] = replace(ob, length=ob.length + 1.0)
    assert _recent_field(recent, st, goal, v.width, skip) is None  # grown
    st.obstacles[first] = ob
    assert _recent_field(recent, st, goal, v.width, skip) is f
    st.obstacles["wreck-x"] = Obstacle("wreck-x", Pose(100.0, 100.0, 0.0), 50.0, 30.0)
    assert _recent_field(recent, st, goal, v.width, skip) is None  # one more
    del st.obstacles["wreck-x"]
    del st.obstacles[first]
    assert _recent_field(recent, st, goal, v.width, skip) is None  # one fewer


def test_a_finished_games_bots_are_freed_without_the_collector() -> None:
    g, players = heuristic_race(3)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        del players, g
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection would free is kept to be looked at
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, HeuristicBot)]
        assert left == []  # the bots went with their reference counts
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
