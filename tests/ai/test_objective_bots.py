"""The heuristic bot plays each scenario's objective: it saves its votes to respawn, Gangers go
for the War Rig, and seeded heuristic games end by the scenario's own victory."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from tests.builders import run_step, table, values, vehicle

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.votes import DONE, spend_opportunity
from carnage.games.refuelled.scenarios.savage_highways import SavageHighways, the_rig
from carnage.games.refuelled.setup import GameSetup
from carnage.kernel.decisions import Decision, Option
from carnage.rulesets import RULESETS, build_game, get_ruleset


def wrecked_then_spend(vid: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        yield from wreck(g, g.state.vehicles[vid])
        yield from spend_opportunity(g, 0)

    return step


def test_a_side_with_only_a_wreck_saves_its_votes_to_respawn() -> None:
    # Legacy Express Delivery stalled: the side with only a wreck bought Executive
    # Intervention every round instead of saving the 3 votes a respawn costs.
    car = vehicle("a", "car", 300, 300, 90)
    foe = vehicle("b", "car", 800, 800, player=1, hazards=3)  # worth an intervention
    st = table(car, foe)
    st.votes = [1, 0]
    g = run_step(st, wrecked_then_spend("a"), dice=[1])  # explosion check 1: a wreck
    d = g.pending()
    assert d is not None and d.kind == "spend_votes" and st.votes[0] == 2  # +1 for the wreck
    assert "executive_intervention" in values(d) and "respawn" not in values(d)
    assert HeuristicBot().choose(g, d, random.Random(0)) == DONE
    # with the third vote it respawns
    car2 = vehicle("a", "car", 300, 300, 90)
    foe2 = vehicle("b", "car", 800, 800, player=1, hazards=3)
    st2 = table(car2, foe2)
    st2.votes = [2, 0]
    g2 = run_step(st2, wrecked_then_spend("a"), dice=[1])
    d2 = g2.pending()
    assert d2 is not None and "respawn" in values(d2)
    assert HeuristicBot().choose(g2, d2, random.Random(0)) == "respawn"


def test_a_side_with_a_vehicle_in_play_still_spends() -> None:
    car = vehicle("a", "car", 300, 300, 90)
    foe = vehicle("b", "car", 800, 800, player=1, hazards=3)
    st = table(car, foe)
    st.votes = [2, 0]
    g = run_step(st, lambda g: spend_opportunity(g, 0))
    d = g.pending()
    assert d is not None
    assert HeuristicBot().choose(g, d, random.Random(0)) == "executive_intervention"


def savage_game(scenario: str) -> Game:
    g = build_game(GameSetup(scenario=scenario), 0)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    rng = bot_rng(0)
    # deploy, then stop at the first activation
    while (d := g.pending()) is not None and d.kind != "template":
        g.apply(bots[d.player].choose(g, d, rng))
    return g


@pytest.mark.parametrize("scenario", ["escape-the-city", "rescue", "ambush", "long-road-home"])
def test_gangers_head_for_the_rig_and_smash_it(scenario: str) -> None:
    g = savage_game(scenario)
    st = g.state
    assert isinstance(g.scenario, SavageHighways)
    rig = the_rig(st)
    assert rig is not None
    gangers = [v for v in st.in_play() if v.player != rig.player and v.pose.x >= 0]
    assert gangers
    bot = HeuristicBot()
    for v in gangers:
        goal = bot.goal(g, v)
        assert goal is not None  # before: no goal, it chased the nearest enemy
        assert rig.id in bot.targets(g, v)
        # the goal is the rig, or ahead of its cab
        gx, gy = goal.a
        h = math.radians(rig.pose.heading)
        ahead = (gx - rig.pose.x) * math.cos(h) + (gy - rig.pose.y) * math.sin(h)
        near = math.dist((v.pose.x, v.pose.y), (rig.pose.x, rig.pose.y)) <= 250.0
        assert near or ahead > rig.length / 2.0 - 30.0
        # a collision with the rig: smash it, whatever the weights
        d = Decision(player=v.player, kind="collision_reaction", prompt="?",
                     options=(Option("smash", "smash"), Option("evade", "evade")),
                     vehicle=v.id, target=rig.id)
        assert bot.choose(g, d, random.Random(0)) == "smash"


def objective_pairs() -> list[tuple[str, str]]:
    """Every (ruleset, scenario) played through Refuelled's set-up (Kart and Legacy are its
    overlays; Devil's Run plays its own missions)."""
    return [(name, sid) for name in RULESETS if name != "devils-run"
            for sid in RULESETS[name].scenarios]


@pytest.mark.parametrize(("ruleset", "scenario"), objective_pairs())
def test_heuristic_games_end_by_the_scenarios_victory(ruleset: str, scenario: str) -> None:
    r = get_ruleset(ruleset)
    limit = r.scenario_class(scenario).round_limit
    g = build_game(GameSetup(scenario=scenario, ruleset=ruleset,
                             max_rounds=limit if limit is not None else 40), 0, ruleset=r)
    play_out(g, [make_bot("heuristic"), make_bot("heuristic")], bot_rng(0))
    reason = str(g.state.reason)
    assert g.state.finished and not reason.startswith("no result after"), reason
