"""Capture the Flag (Refuelled p.131): the search bot keeps its flags and gives its own to its
toughest vehicle, as the heuristic bot does.

A flag set down goes to the first vehicle that touches it. Searched, rollouts 40 decisions
deep valued setting one's own flag down about as keeping it, so the noise chose; the scenario
now leaves that decision to the rollout policy (``search_leaves``). Seed 87 is a lost game of
the bot table where the search, in seat 2, set its flag down in round 1.

It also gives its own flag to its toughest vehicle. The carrier is the vehicle the other
side hunts, and a wrecked carrier drops the flag for anyone to take (the flag a player starts
with counts towards the two that win: ruling CTF-2). Searched, rollouts 40 decisions deep
could not tell a 10-Hull car from a 6-Hull buggy as carrier and the noise chose: in 6 of 40
games of the bot table at hard the search gave its flag to the buggy, and lost 3 of them
(seed 35: the buggy, rammed head-on in round 1, was wrecked and the rammer took the flag and
won). The scenario leaves that choice to the rollout policy too.

And its value weighs the carriers' hull: each hull point of a vehicle holding a flag, either
side's, counts four times another's (``CaptureTheFlag.CARRIER_HULL``), as losing the carrier
loses the flag.
"""

from __future__ import annotations

import random

import pytest

import carnage.rulesets as registry
from carnage.ai.search import SearchBot
from carnage.analysis.matches import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.base import TableScenario
from carnage.games.refuelled.scenarios.capture_the_flag import FLAG, CaptureTheFlag
from carnage.games.refuelled.scenarios.common.tokens import KEEP, carried_by
from carnage.kernel.decisions import Decision

SEED = 87
CARRIER_SEED = 35


def _to_choice(search: SearchBot, seed: int, kind: str) -> tuple[Game, Decision, random.Random]:
    """Seed ``seed`` as the bot table plays it (the heuristic bot in seat 1, the search bot
    in seat 2) up to seat 2's first decision of ``kind``."""
    rs = registry.get_ruleset("refuelled")
    game = rs.new_game(scenario="capture-the-flag", seed=seed)
    heuristic, rng = HeuristicBot(), bot_rng(seed)
    while (d := game.pending()) is not None:
        if d.kind == kind and d.player == 1:
            assert isinstance(game, Game)
            return game, d, rng
        game.apply((search if d.player == 1 else heuristic).choose(game, d, rng))
    raise AssertionError(f"seat 2 never met a {kind} decision")


def _to_first_flag_choice(search: SearchBot) -> tuple[Game, Decision, random.Random]:
    """Seat 2's first choice whether to set its flag down, in seed 87."""
    return _to_choice(search, SEED, "token_drop")


def _to_flag_carrier(search: SearchBot) -> tuple[Game, Decision, random.Random]:
    """Seat 2's choice of the vehicle that carries its flag, in seed 35."""
    return _to_choice(search, CARRIER_SEED, "flag_carrier")


def _bot(level: str = "normal", seed: int = SEED) -> SearchBot:
    return SearchBot(level, seconds=None, seed=seed,
                     adapter=registry.get_ruleset("refuelled").search)


def test_the_search_bot_keeps_its_flag_without_searching() -> None:
    bot = _bot()
    game, d, rng = _to_first_flag_choice(bot)
    assert game.state.round == 1
    assert any(str(o.value) != KEEP for o in d.options)
    before = len(bot.explanations)
    assert bot.choose(game, d, rng) == KEEP
    # Nothing was searched: no explanation weighs setting it down.
    assert all(len(e.candidates) <= 1 for e in bot.explanations[before:])


def test_searched_the_same_choice_set_the_flag_down(monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: with the decision searched, the same bot on the same seed sets it down,
    # valuing positions as it did then (a carrier's hull worth no more than another's; with
    # the carriers' weight this one searched decision happens to keep the flag).
    monkeypatch.setattr(CaptureTheFlag, "search_leaves", frozenset())
    monkeypatch.setattr(CaptureTheFlag, "CARRIER_HULL", 0.0)
    bot = _bot()
    game, d, rng = _to_first_flag_choice(bot)
    chosen = bot.choose(game, d, rng)
    assert chosen != KEEP and str(chosen).startswith("down:")
    assert bot.last is not None and len(bot.last.candidates) > 1


def test_the_search_bot_gives_its_flag_to_its_toughest_vehicle() -> None:
    bot = _bot("hard", CARRIER_SEED)
    game, d, rng = _to_flag_carrier(bot)
    hulls = {str(o.value): game.state.vehicles[str(o.value)].hull_points for o in d.options}
    assert sorted(hulls.values()) == [6, 10]
    before = len(bot.explanations)
    chosen = bot.choose(game, d, rng)
    assert hulls[str(chosen)] == 10
    # Nothing was searched: no explanation weighs the other vehicle.
    assert all(len(e.candidates) <= 1 for e in bot.explanations[before:])


def test_searched_the_same_choice_gave_the_flag_to_the_buggy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: the hard level as it played those 40 games (the choice searched, with the
    # other objective scenarios' flat search, a carrier's hull worth no more than another's)
    # picks the buggy on the same seed.
    monkeypatch.setattr(CaptureTheFlag, "search_leaves", frozenset({"token_drop"}))
    monkeypatch.setattr(CaptureTheFlag, "search_levels", {})
    monkeypatch.setattr(CaptureTheFlag, "CARRIER_HULL", 0.0)
    bot = _bot("hard", CARRIER_SEED)
    game, d, rng = _to_flag_carrier(bot)
    chosen = bot.choose(game, d, rng)
    assert game.state.vehicles[str(chosen)].hull_points == 6
    assert bot.last is not None and len(bot.last.candidates) > 1


def _carriers_at_the_start() -> tuple[Game, dict[int, tuple[str, str]]]:
    """Seed 35 played by the heuristic bot to the first template of round 1: each seat's
    flag carrier and its other vehicle."""
    rs = registry.get_ruleset("refuelled")
    game = rs.new_game(scenario="capture-the-flag", seed=CARRIER_SEED)
    bot, rng = HeuristicBot(), bot_rng(CARRIER_SEED)
    while (d := game.pending()) is not None and d.kind != "template":
        game.apply(bot.choose(game, d, rng))
    assert isinstance(game, Game) and game.state.round == 1
    st = game.state
    pairs: dict[int, tuple[str, str]] = {}
    for p in range(game.players):
        mine = [v.id for v in st.vehicles.values() if v.player == p and v.in_play]
        held = [vid for vid in mine if carried_by(st, vid, FLAG)]
        assert len(mine) == 2 and len(held) == 1
        pairs[p] = (held[0], next(vid for vid in mine if vid not in held))
    return game, pairs


def _adapter(game: Game) -> RefuelledAdapter:
    ad = registry.get_ruleset("refuelled").search(game.players)
    assert isinstance(ad, RefuelledAdapter)
    return ad


def _hit(game: Game, vid: str, hull: int) -> Game:
    out = game.clone()
    out.state.vehicles[vid].damage += hull
    return out


def test_the_search_values_a_flag_carriers_hull_above_another_vehicles() -> None:
    # A wrecked carrier drops its flag for the other side to take, and two flags win: the
    # search's value counts each hull point of a carrier, either side's, four times.
    game, pairs = _carriers_at_the_start()
    ad = _adapter(game)
    base = ad.scores(game)
    for p, (carrier, other) in pairs.items():
        foe = 1 - p
        hit_carrier, hit_other = _hit(game, carrier, 2), _hit(game, other, 2)
        assert base[p] - ad.scores(hit_carrier)[p] == 2 * (RefuelledAdapter.HULL
                                                          + CaptureTheFlag.CARRIER_HULL)
        assert base[p] - ad.scores(hit_other)[p] == 2 * RefuelledAdapter.HULL
        assert ad.scores(hit_carrier)[foe] == base[foe]
        # So the foe gains more from 2 hits on the carrier than from 2 on the other vehicle.
        assert ad.values(hit_carrier)[foe] > ad.values(hit_other)[foe] > ad.values(game)[foe]


def test_without_the_carriers_weight_both_vehicles_hull_counts_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: with no weight of its own, a carrier's hull point counts as any other's.
    monkeypatch.setattr(CaptureTheFlag, "CARRIER_HULL", 0.0)
    game, pairs = _carriers_at_the_start()
    ad = _adapter(game)
    for p, (carrier, other) in pairs.items():
        assert ad.scores(_hit(game, carrier, 2))[p] == ad.scores(_hit(game, other, 2))[p]


def test_other_scenarios_weigh_no_vehicles_hull_above_the_rest() -> None:
    # Only Capture the Flag has a weight of its own; every other scenario keeps the default
    # (0 for every vehicle), so its search values hull as before.
    rs = registry.get_ruleset("refuelled")
    own = {sid for sid, cls in rs.scenarios.items()
           if cls.search_hull is not TableScenario.search_hull}
    assert own == {"capture-the-flag"}
    for scenario in rs.scenarios.keys() - own:
        game = rs.new_game(scenario=scenario, seed=1)
        assert isinstance(game, Game) and isinstance(game.scenario, TableScenario)
        worth = {game.scenario.search_hull(game.state, v) for v in game.state.vehicles.values()}
        assert worth <= {0.0}, scenario
