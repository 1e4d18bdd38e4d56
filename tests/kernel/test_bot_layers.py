"""The heuristic bot and the scenarios import one way: scenarios never import the heuristic
bot, the bot never imports a scenario (they meet through ``engine/bot_facing.py``). No cycle
crosses a package boundary at all: ``test_package_cycles.py``."""

from __future__ import annotations

from tests.imports import edges_of, modules


def test_the_bot_and_the_scenarios_do_not_import_each_other() -> None:
    edges = edges_of(modules())
    bot = "carnage.games.refuelled.ai"
    scenarios = "carnage.games.refuelled.scenarios"
    assert sorted((m, t) for m, ts in edges.items() for t in ts
                  if (m.startswith(scenarios) and t.startswith(bot))
                  or (m.startswith(bot) and t.startswith(scenarios))) == []
