"""The search bot finds its adapter through the game's ruleset (``Ruleset.search``), never by
the ruleset's name: a test-only ruleset added to the registry with its own adapter gets it,
whether its bot is made by name for the ruleset or on its own; a ruleset that declares none
gets the generic adapter; the shipped rulesets declare theirs (Legacy inherits Refuelled's,
the Kart variant extends it)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

import carnage.rulesets as registry
from carnage.ai import make_bot_for
from carnage.ai.search import Adapter, SearchBot, adapter_for
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.ruleset import refuelled_ruleset
from carnage.kernel.contract import Choice
from carnage.kernel.decisions import Decision
from carnage.kernel.ruleset import Ruleset


class Recording(Adapter):
    """Plays the first option everywhere and counts what the search asked of it."""

    made: ClassVar[list[int]] = []

    def __init__(self, players: int) -> None:
        super().__init__(self._first, players)
        self.asked: list[str] = []
        Recording.made.append(players)

    def _first(self, game: Any, d: Decision, rng: random.Random) -> Choice:
        return d.domain.low if d.domain is not None else d.options[0].value

    def ordered(self, game: Any, d: Decision, rng: random.Random) -> list[tuple[Choice, str]]:
        self.asked.append(f"ordered:{d.kind}")
        return super().ordered(game, d, rng)

    def values(self, game: Any) -> list[float]:
        self.asked.append("values")
        return super().values(game)


@pytest.fixture
def test_ruleset(monkeypatch: pytest.MonkeyPatch) -> Ruleset:
    """A ruleset only this test knows, added to the registry, with its own search adapter."""
    rs = refuelled_ruleset(name="test-search", title="Search test", search=Recording)
    monkeypatch.setattr(registry, "RULESETS", registry.RULESETS.with_ruleset(rs))
    Recording.made.clear()
    return rs


def _searched(bot: SearchBot, game: Any) -> Decision:
    """Let ``bot`` answer decisions until it searched one with more than one candidate."""
    rng = random.Random(1)
    while (d := game.pending()) is not None:
        game.apply(bot.choose(game, d, rng))
        last = bot.last
        if last is not None and len(last.candidates) > 1:
            return d
    raise AssertionError("the game ended before a decision was searched")


def test_a_test_rulesets_own_adapter_is_used_by_the_search(test_ruleset: Ruleset) -> None:
    rs = registry.get_ruleset("test-search")
    assert rs is test_ruleset
    by_name = make_bot_for(rs, "search:easy")
    on_its_own = SearchBot("easy", iterations=4, seconds=None)
    assert isinstance(by_name, SearchBot)
    for bot in (by_name, on_its_own):
        game = rs.new_game(scenario="street-race", seed=3, max_rounds=2)
        ad = bot.adapter(game)
        assert isinstance(ad, Recording) and ad.players == game.players
        _searched(bot, game)
        assert "values" in ad.asked and any(a.startswith("ordered:") for a in ad.asked)
    assert Recording.made == [2, 2]
    # The same bot on a game of another ruleset searches with that ruleset's adapter.
    refuelled = registry.get_ruleset("refuelled").new_game(scenario="street-race", seed=3)
    assert isinstance(on_its_own.adapter(refuelled), RefuelledAdapter)
    assert isinstance(adapter_for(refuelled), RefuelledAdapter)


def test_a_ruleset_without_an_adapter_gets_the_generic_one() -> None:
    from dataclasses import replace

    plain = replace(refuelled_ruleset(name="test-plain"), search=None)
    game = plain.new_game(scenario="street-race", seed=1)
    assert isinstance(game, Game)
    # ``replace`` keeps the parent's game factory, whose games name the parent: point this
    # game at the ruleset that declares no adapter.
    game.ruleset = plain
    assert type(adapter_for(game)) is Adapter
    bot = make_bot_for(plain, "search:easy")
    assert isinstance(bot, SearchBot) and type(bot.adapter(game)) is Adapter
    decision = game.pending()
    assert decision is not None
    assert bot.choose(game, decision, random.Random(1)) is not None


@pytest.mark.parametrize(("name", "module"), [
    ("refuelled", "carnage.games.refuelled.ai.search_adapter"),
    ("kart", "carnage.games.kart.search"),
    ("legacy", "carnage.games.refuelled.ai.search_adapter"),
    ("devils-run", "carnage.games.devilsrun.search"),
])
def test_every_shipped_ruleset_declares_its_adapter(name: str, module: str) -> None:
    rs = registry.RULESETS[name]
    assert rs.search is not None
    game = rs.new_game(seed=1) if name == "devils-run" else rs.new_game(
        scenario="street-race", seed=1)
    assert type(adapter_for(game)).__module__ == module
    assert type(SearchBot("easy").adapter(game)).__module__ == module


class Budgeted(Recording):
    """Recording's adapter that sets its own budget for the hard level."""

    def budget(self, level: str, game: Any) -> dict[str, int]:
        return {"iterations": 3, "horizon": 2, "depth": 1, "candidates": 2} if (
            level == "hard") else {}


def test_a_ruleset_sets_its_own_budget_of_a_level_and_the_caller_overrides_it() -> None:
    # The adapter's settings replace the level's (the generic adapter has none) ...
    game = registry.get_ruleset("refuelled").new_game(scenario="street-race", seed=3)
    hard = SearchBot("hard", seconds=None)
    lv = hard.budget(Budgeted(2), game)
    assert (lv.iterations, lv.horizon, lv.depth, lv.candidates) == (3, 2, 1, 2)
    plain = hard.budget(Adapter(Recording(2).policy, 2), game)
    assert (plain.iterations, plain.horizon, plain.depth) == (48, 400, 0)
    assert SearchBot("normal").budget(Budgeted(2), game).horizon == 40
    # ... and what the caller sets replaces both.
    given = SearchBot("hard", iterations=7, horizon=5, seconds=None).budget(Budgeted(2), game)
    assert (given.iterations, given.horizon, given.depth) == (7, 5, 1)
    # The search plays it: 3 simulations of at most 2 candidates.
    bot = SearchBot("hard", seconds=None, adapter=Budgeted)
    _searched(bot, game)
    e = bot.last
    assert e is not None and e.iterations == 3 and len(e.candidates) == 2


@pytest.mark.parametrize("ruleset", ["refuelled", "legacy"])
def test_the_hard_level_searches_races_as_normal_does_and_values_other_scenarios_at_a_horizon(
        ruleset: str) -> None:
    # In a Street Race the hard level searches as the normal level does (a horizon of 40, a
    # tree one decision deep, six candidates) with its own 48 simulations and the root's bar
    # corrected for the candidates tested; in a scenario of many rounds its rollouts stop
    # after 40 decisions, valued as a position, with no tree and the plain bar. The other
    # levels are the same in every scenario.
    rs = registry.get_ruleset(ruleset)
    race = rs.new_game(scenario="street-race", seed=4)
    other = "death-race" if ruleset == "refuelled" else "express-delivery"
    game = rs.new_game(scenario=other, seed=4)
    hard = SearchBot("hard", seconds=None, seed=4)
    lv = hard.budget(hard.adapter(race), race)
    assert (lv.iterations, lv.horizon, lv.depth, lv.candidates, lv.corrected) == (
        48, 40, 1, 6, True)
    lv = hard.budget(hard.adapter(game), game)
    assert (lv.iterations, lv.horizon, lv.depth, lv.candidates, lv.corrected) == (
        48, 40, 0, 5, False)
    for level in ("easy", "normal"):
        bot = SearchBot(level, seconds=None)
        assert bot.budget(bot.adapter(race), race) == bot.budget(bot.adapter(game), game)
    # What the caller sets still wins.
    given = SearchBot("hard", seconds=None, horizon=400)
    assert given.budget(given.adapter(game), game).horizon == 400
    if ruleset == "legacy":
        return
    # The first decision it searches in round 1 of a Death Race: no rollout reaches the end.
    rng = random.Random(4)
    e = None
    while (d := game.pending()) is not None:
        game.apply(hard.choose(game, d, rng))
        e = hard.last
        if e is not None and len(e.candidates) > 1:
            break
    assert e is not None and 0 < e.iterations <= 48 and e.level == "hard"
    assert game.state.round == 1
    assert all(c.ended == 0 for c in e.candidates)


def test_a_team_games_hard_level_counts_its_horizon_for_each_two_seats() -> None:
    # In a team Death Race of four seats (sides 1,3 and 2,4) the hard level's rollouts stop
    # after 80 decisions, 40 for each two seats; the two-seat game, the normal level, a team
    # race and Capture the Flag's own settings keep theirs.
    rs = registry.get_ruleset("refuelled")
    teams: dict[str, Any] = {"players": 4, "sides": [(0, 2), (1, 3)]}
    team = rs.new_game(scenario="death-race", seed=4, **teams)
    two = rs.new_game(scenario="death-race", seed=4)
    hard = SearchBot("hard", seconds=None, seed=4)
    ad, ad_two = hard.adapter(team), hard.adapter(two)
    assert isinstance(ad, RefuelledAdapter) and isinstance(ad_two, RefuelledAdapter)
    assert ad.team_game(team) and not ad_two.team_game(two)
    lv = hard.budget(ad, team)
    assert (lv.iterations, lv.horizon, lv.depth, lv.candidates, lv.corrected) == (
        48, 80, 0, 5, False)
    assert hard.budget(hard.adapter(two), two).horizon == 40
    normal = SearchBot("normal", seconds=None)
    assert normal.budget(normal.adapter(team), team).horizon == 40
    race = rs.new_game(scenario="street-race", seed=4, **teams)
    assert hard.budget(hard.adapter(race), race).horizon == 40
    ctf = rs.new_game(scenario="capture-the-flag", seed=4, **teams)
    assert hard.budget(hard.adapter(ctf), ctf).horizon == 40
    # A free-for-all of four is not a team game: its horizon stays at 40.
    ffa = rs.new_game(scenario="death-race", seed=4, players=4)
    assert not ad.team_game(ffa)
    assert hard.budget(hard.adapter(ffa), ffa).horizon == 40
    # The caller's horizon still wins.
    given = SearchBot("hard", seconds=None, horizon=400)
    assert given.budget(given.adapter(team), team).horizon == 400
    # Off, the team game keeps 40.
    ad.TEAM_HORIZON = False
    try:
        assert SearchBot("hard", seconds=None).budget(ad, team).horizon == 40
    finally:
        del ad.TEAM_HORIZON
    # The search plays it: its rollouts run past 40 decisions (more policy answers than 41
    # a simulation; none reaches the end of the race in round 1).
    plays = ad.policy
    calls = [0]

    def counted(game: Any, d: Any, r: random.Random) -> Any:
        calls[0] += 1
        return plays(game, d, r)

    ad.policy = counted
    rng = random.Random(4)
    e = None
    while (d := team.pending()) is not None:
        calls[0] = 0
        team.apply(hard.choose(team, d, rng))
        e = hard.last
        if e is not None and len(e.candidates) > 1:
            break
    assert e is not None and e.level == "hard" and e.iterations > 0
    assert all(c.ended == 0 for c in e.candidates)
    assert calls[0] > 41 * e.iterations


def test_capture_the_flags_hard_level_searches_as_a_race_does() -> None:
    # Capture the Flag names its own hard level (``search_levels``): a race's, not the flat
    # search of the other objective scenarios. Its other levels are everyone's.
    rs = registry.get_ruleset("refuelled")
    ctf = rs.new_game(scenario="capture-the-flag", seed=4)
    race = rs.new_game(scenario="street-race", seed=4)
    other = rs.new_game(scenario="death-race", seed=4)
    hard = SearchBot("hard", seconds=None, seed=4)
    lv = hard.budget(hard.adapter(ctf), ctf)
    assert lv == hard.budget(hard.adapter(race), race)
    assert (lv.iterations, lv.horizon, lv.depth, lv.candidates, lv.corrected) == (
        48, 40, 1, 6, True)
    assert hard.budget(hard.adapter(other), other).depth == 0
    for level in ("easy", "normal"):
        bot = SearchBot(level, seconds=None)
        assert bot.budget(bot.adapter(ctf), ctf) == bot.budget(bot.adapter(other), other)


@pytest.mark.parametrize("scenario, corrected", [
    ("street-race", True), ("death-race", False), ("capture-the-flag", True)])
def test_the_hard_levels_answer_in_a_race_clears_the_bar_corrected_for_its_candidates(
        monkeypatch: pytest.MonkeyPatch, scenario: str, corrected: bool) -> None:
    # The search's answer is judged with the bar its budget names: corrected in a race at
    # hard, the plain bar elsewhere.
    seen: list[bool] = []
    plain = SearchBot._best

    def judged(table: Any, corrected: bool = False) -> int:
        seen.append(corrected)
        return plain(table, corrected)

    monkeypatch.setattr(SearchBot, "_best", staticmethod(judged))
    game = registry.get_ruleset("refuelled").new_game(scenario=scenario, seed=2)
    _searched(SearchBot("hard", seconds=None, iterations=12, seed=2), game)
    assert seen and set(seen) == {corrected}
    seen.clear()
    game = registry.get_ruleset("refuelled").new_game(scenario=scenario, seed=2)
    _searched(SearchBot("normal", seconds=None, iterations=12, seed=2), game)
    assert seen and set(seen) == {False}
