"""Every ruleset of the registry makes games that keep the one game contract
(``kernel/contract.py``) and bots that keep the bot interface, checked at run time through the
contract alone (mypy checks the same statically in each ruleset's module)."""

from __future__ import annotations

import random

import pytest
from tests.rulesets.helpers import short_games

import carnage
from carnage.ai import bot_rng, bots_for, play_out
from carnage.ai.runner import StuckGame
from carnage.kernel.contract import Bot, PlayableGame
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import SeededDice
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS

NAMES = list(RULESETS)


def _game(rs: Ruleset, seed: int = 3) -> PlayableGame:
    first = rs.scenario_infos()[0]
    return rs.new_game(scenario=first.id, seed=seed)


@pytest.mark.parametrize("name", NAMES)
def test_every_rulesets_game_keeps_the_contract(name: str) -> None:
    rs = RULESETS[name]
    g = _game(rs)
    assert isinstance(g, PlayableGame)
    assert g.players == rs.scenario_infos()[0].min_players
    d = g.pending()
    assert d is not None and 0 <= d.player < g.players
    # A choice outside the options is refused and leaves the game as it was.
    before = len(g.log.events)
    with pytest.raises(IllegalChoice):
        g.apply("no such option" if d.domain is None else d.domain.high + 1e6)
    assert len(g.log.events) == before
    # Clone and snapshot: the copy and the restored game continue exactly as the game.
    copy = g.clone()
    doc = g.snapshot()
    again = rs.restore(doc)
    assert again.snapshot() == doc
    bots = bots_for(rs, ["random"] * g.players)
    for game in (g, copy, again):
        rng = random.Random(7)
        for _ in range(15):
            p = game.pending()
            if p is None:
                break
            game.apply(bots[p.player].choose(game, p, rng))
    assert [e.to_json() for e in copy.log] == [e.to_json() for e in g.log]
    assert [e.to_json() for e in again.log] == [e.to_json() for e in g.log]
    assert list(copy.choices) == list(g.choices)
    # What a spectator may read: every event, in order (hidden fields redacted, if any).
    seen = g.visible_events([])
    assert [e.kind for e in seen] == [e.kind for e in g.log.events]


@pytest.mark.parametrize("name", NAMES)
def test_every_rulesets_bots_keep_the_bot_interface_and_finish_a_game(name: str) -> None:
    rs = RULESETS[name]
    assert {"random", "heuristic"} <= set(rs.bots)
    assert set(rs.default_bots) <= set(rs.bots)
    for bot_name in rs.bots:
        bot = rs.make_bot(bot_name)
        assert isinstance(bot, Bot) and bot.name.startswith(bot_name.split(":")[0])
    g = short_games(rs, rs.scenario_infos()[0].id).new_game(5)
    try:
        play_out(g, bots_for(rs, ["heuristic"] * g.players), bot_rng(5))
    except StuckGame:  # pragma: no cover - a failure names the ruleset
        pytest.fail(f"{name}: the heuristic bots did not finish a game")
    assert g.pending() is None and g.outcome() is not None


def test_an_unknown_bot_is_refused_naming_the_rulesets_bots() -> None:
    rs = RULESETS["devils-run"]
    with pytest.raises(ValueError, match=r"unknown bot 'clever' for Devil's Run.*heuristic"):
        rs.make_bot("clever")


def test_the_search_bot_finds_devils_runs_adapter_through_the_game_or_the_ruleset() -> None:
    from carnage.ai.search import adapter_for, make_search_bot

    rs = RULESETS["devils-run"]
    g = _game(rs)
    # Made by the ruleset (its bots hand it the adapter) or on its own (the web's seats):
    # either way it searches with Devil's Run's rollouts and values, not random ones.
    for bot in (rs.make_bot("search:easy"), make_search_bot("search:easy")):
        assert type(bot).__name__ == "SearchBot"
        assert type(bot.adapter(g)).__module__ == "carnage.games.devilsrun.search"  # type: ignore[attr-defined]
    assert type(adapter_for(g)).__name__ == "DevilsRunAdapter"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_dice_option_that_cannot_roll_is_refused_by_name(name: str) -> None:
    """``dice`` takes a dice source: a name such as "table" is refused, saying what it got,
    before anything is built, in every ruleset."""
    ruleset = RULESETS[name]
    scenario = next(iter(ruleset.scenarios))
    with pytest.raises(ValueError, match=r"dice: expected a dice source .*not str 'table'"):
        carnage.new_game(name, scenario, dice="table")
    game = carnage.new_game(name, scenario, dice=SeededDice(3))  # a real source still plays
    assert game.pending() is not None
