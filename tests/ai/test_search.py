"""The search bot: legal choices in every game it plays, its budget, reproducibility from its
seed, and that it never reads the real dice."""

from __future__ import annotations

import random

import pytest
from tests.simulation import invariant_problems

import carnage
from carnage.ai import bot_rng, make_bot
from carnage.ai.search import LEVELS, SearchBot, signature
from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot
from carnage.kernel.dice import ScriptedDice

SMALL = {"iterations": 3, "seconds": None, "horizon": 4}
"""A tiny budget: enough to exercise the search, quick on a shared machine."""


def play(game, bots, rng, check=None):
    while (d := game.pending()) is not None:
        b = bots[d.player]
        choice = b.choose(game, d, rng)
        assert d.validate(choice) == choice  # legal, and already in canonical form
        game.apply(choice)
        if check is not None:
            check(game)
    return game


def test_search_plays_legal_street_races_against_heuristic_and_random_bots():
    for seed, other in ((1, HeuristicBot()), (2, RandomBot()), (3, HeuristicBot())):
        bot = SearchBot("hard", seed=seed, iterations=2, seconds=None, horizon=3)
        bots = [bot, other] if seed % 2 else [other, bot]
        g = carnage.new_game(seed=seed, max_rounds=2)
        play(g, bots, bot_rng(seed), check=lambda g: _clean(g))
        assert g.outcome() is not None
        assert bot.explanations, "every searched decision is explained"
        for e in bot.explanations:
            assert e.failed == 0
            assert any(c.choice == e.chosen for c in e.candidates)


def _clean(g):
    assert invariant_problems(g) == []


def test_search_plays_devils_run_through_the_same_decision_api():
    g = carnage.new_game(ruleset="devils-run", scenario="devils-run", seed=4)
    bots = [SearchBot("easy", seed=4, **SMALL), SearchBot("easy", seed=5, **SMALL)]
    play(g, bots, random.Random(0))
    assert g.outcome() is not None
    assert bots[0].explanations and bots[1].explanations


def test_continuous_choices_are_offered_as_points_inside_the_domain():
    # A spin is an Interval: find one in a seeded random game and search it.
    g = carnage.new_game(seed=11, max_rounds=6)
    rnd, rng = RandomBot(), random.Random(3)
    bot = SearchBot("normal", seed=1, **SMALL)
    for _ in range(3000):
        d = g.pending()
        if d is None:
            pytest.fail("no continuous decision met in the game")
        if d.domain is not None:
            choice = bot.choose(g, d, rng)
            assert isinstance(choice, float) and d.domain.contains(choice)
            e = bot.last
            assert e is not None and len(e.candidates) >= 2
            assert all(d.domain.contains(float(c.choice)) for c in e.candidates)
            return
        g.apply(rnd.choose(g, d, rng))


def first_decision(game, kind, player=None):
    """Play the heuristic bot until a decision of ``kind`` (for ``player``) is pending."""
    h, rng = HeuristicBot(), random.Random(0)
    while (d := game.pending()) is not None:
        if d.kind == kind and (player is None or d.player == player) and len(d.options) > 1:
            return d
        game.apply(h.choose(game, d, rng))
    raise AssertionError(f"no {kind} decision")


def test_iteration_budget_is_spent_exactly():
    g = carnage.new_game(seed=5)
    d = first_decision(g, "template")
    bot = SearchBot("hard", iterations=7, seconds=None, horizon=3, seed=0)
    bot.choose(g, d, random.Random(0))
    e = bot.last
    assert e is not None and e.iterations == 7
    assert sum(c.visits for c in e.candidates) == 7


def test_time_budget_stops_the_search():
    g = carnage.new_game(seed=5)
    d = first_decision(g, "template")
    bot = SearchBot("hard", iterations=10**6, seconds=0.05, horizon=3, seed=0)
    bot.choose(g, d, random.Random(0))
    e = bot.last
    assert e is not None and 1 <= e.iterations < 10**6


def test_same_seed_same_choices_and_explanations():
    def run(seed):
        g = carnage.new_game(seed=8)
        bot, other, rng = SearchBot("normal", seed=seed, **SMALL), HeuristicBot(), bot_rng(8)
        while len(bot.explanations) < 10:  # the first ten searched decisions
            d = g.pending()
            g.apply((bot if d.player == 0 else other).choose(g, d, rng))
        return list(g.choices), [{k: v for k, v in e.to_json().items() if k != "seconds"}
                                 for e in bot.explanations]

    a, b = run(1), run(1)
    assert a == b
    c = run(2)
    assert c[1] != a[1]  # another seed draws other dice in its simulations


class PeekingBot(SearchBot):
    """A search bot that cheats: its simulations keep the real dice (for the control)."""

    def adapter(self, game):
        ad = super().adapter(game)
        ad.redeal = lambda sim, seed: None
        return ad


def twin_games(kind):
    """Two games at the same decision with the same past but different future dice."""
    g = carnage.new_game(seed=21)
    first_decision(g, kind, player=0)
    past = [x for e in g.log.of_kind("roll") for x in e.data["dice"]]
    twins = []
    for future in ([6] * 3000, [1] * 3000):
        t = carnage.new_game(seed=21, dice=ScriptedDice(past + future))
        for c in g.choices:
            t.apply(c)
        twins.append(t)
    a, b = twins
    assert [e.to_json() for e in a.log.events] == [e.to_json() for e in b.log.events]
    assert signature(a.pending()) == signature(b.pending())
    return a, b


@pytest.mark.parametrize("kind", ["template", "skid_dice"])
def test_search_never_reads_the_real_dice(kind):
    a, b = twin_games(kind)

    def explain(cls, game):
        bot = cls("hard", iterations=12, seconds=None, horizon=12, seed=3)
        bot.choose(game, game.pending(), random.Random(0))
        return bot.last.to_json()

    fair_a, fair_b = explain(SearchBot, a), explain(SearchBot, b)
    for key in ("decision", "seconds"):
        fair_a.pop(key), fair_b.pop(key)
    assert fair_a == fair_b
    # The control: a bot that kept the real dice would see the sixes and the ones.
    peek_a, peek_b = explain(PeekingBot, a), explain(PeekingBot, b)
    assert peek_a["candidates"] != peek_b["candidates"]


def test_levels_and_names():
    assert set(LEVELS) == {"easy", "normal", "hard"}
    assert LEVELS["easy"].iterations < LEVELS["normal"].iterations < LEVELS["hard"].iterations
    for name in ("search", "search:easy", "search:normal", "search:hard"):
        bot = make_bot(name)
        assert isinstance(bot, SearchBot)
    assert make_bot("search:hard").name == "search:hard"
    with pytest.raises(ValueError, match="unknown search level 'brutal'"):
        SearchBot("brutal")
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        SearchBot("easy", iterations=0)


def test_explanation_lines_name_the_candidates_and_mark_the_choice():
    g = carnage.new_game(seed=5)
    d = first_decision(g, "template")
    bot = SearchBot("easy", iterations=6, seconds=None, horizon=3, seed=0)
    choice = bot.choose(g, d, random.Random(0))
    lines = bot.last.lines()
    assert lines[0].startswith("search (easy) weighed")
    marked = [ln for ln in lines[1:] if ln.startswith(" *")]
    labels = {o.value: o.label for o in d.options}
    assert marked and labels[choice] in marked[0]


def test_a_time_limit_on_a_given_clock_is_respected():
    # Each reading of the clock advances it a tenth of a second, and the bot reads it after
    # every rollout step: the simulation running when the 0.35 s are spent is abandoned (not
    # counted), and none starts after it, so the last reading is at most a tick past the limit.
    g = carnage.new_game(seed=5)
    d = first_decision(g, "template")
    readings: list[float] = []

    def clock() -> float:
        readings.append(len(readings) / 10)
        return readings[-1]

    bot = SearchBot("hard", iterations=1000, seconds=0.35, horizon=30, seed=0, clock=clock)
    choice = bot.choose(g, d, random.Random(0))
    e = bot.last
    assert e.late == 1 and e.iterations == sum(c.visits for c in e.candidates)
    assert readings[-1] <= 0.35 + 0.1 + 1e-9
    assert d.validate(choice) == choice


def test_no_simulation_starts_that_would_pass_the_limit_if_as_slow_as_the_slowest():
    # Every simulation takes 0.4 s of a fake clock: after two (0.8 s) a third would end at
    # 1.2 s, past the 0.9 s limit, so the search stops at two instead of overrunning.
    g = carnage.new_game(seed=5)
    d = first_decision(g, "template")
    now = [0.0]
    bot = SearchBot("hard", iterations=1000, seconds=0.9, horizon=3, seed=0,
                    clock=lambda: now[0])
    real = bot._iterate

    def slow(*args, **kw):
        now[0] += 0.4
        return real(*args[:-1], None)

    bot._iterate = slow
    bot.choose(g, d, random.Random(0))
    assert bot.last.iterations == 2 and bot.last.late == 0
    assert now[0] <= 0.9


def test_decisions_not_worth_searching_are_the_policys_pick_at_once():
    g = carnage.new_game(seed=5)
    d = first_decision(g, "attack", player=0)
    bot = SearchBot("hard", iterations=50, seconds=None, horizon=3, seed=0)
    choice = bot.choose(g, d, random.Random(0))
    e = bot.last
    assert e.iterations == 0 and len(e.candidates) == 1
    assert choice == HeuristicBot(desired_gear=5).choose(g, d, random.Random(0))


def table_with(samples):
    """A root table whose candidate i played ``samples[i]`` (value by round)."""
    from carnage.ai.search import _Table

    k = len(samples)
    return _Table(0, list(range(k)), [str(i) for i in range(k)], [len(s) for s in samples],
                  [sum(s.values()) for s in samples], [None] * k, tries=[len(s) for s in samples],
                  samples=samples)


def test_the_answer_leaves_the_pick_only_on_paired_evidence():
    from carnage.ai.search import MIN_VISITS, SearchBot

    n = MIN_VISITS
    pick = {j: float(j % 2) for j in range(n)}
    # Candidate 1 wins every round the pick lost: clearly better. Candidate 2 is better on
    # average but by luck of one round in a noisy few; candidate 3 is the pick's twin.
    better = {j: 1.0 for j in range(n)}
    noisy = {j: (1.0 if j == 0 else pick[j]) for j in range(n)}
    twin = dict(pick)
    assert SearchBot._best(table_with([pick, better, noisy, twin])) == 1
    assert SearchBot._best(table_with([pick, noisy, twin])) == 0
    # Too few rounds: even a clear gain does not count yet.
    few = {j: 1.0 for j in range(n - 1)}
    assert SearchBot._best(table_with([pick, few])) == 0


def test_candidates_that_play_out_like_the_pick_are_pruned():
    from carnage.ai.search import PRUNE_AFTER, _prune

    pick = {j: 0.5 for j in range(PRUNE_AFTER)}
    same = dict(pick)
    worse = {j: 0.0 for j in range(PRUNE_AFTER)}
    mixed = {j: float(j % 2) for j in range(PRUNE_AFTER)}  # could still be better
    early = {j: 0.5 for j in range(PRUNE_AFTER - 1)}  # too few rounds to judge
    alive = [True] * 5
    _prune(table_with([pick, same, worse, mixed, early]), alive)
    assert alive == [True, False, False, True, True]


def test_the_answer_corrected_for_the_candidates_tested_asks_more_of_each():
    from carnage.ai.search import CONFIDENCE, MIN_VISITS, SearchBot, confidence_for

    # One candidate tested: the plain test; more: a higher bar, rising with their number.
    assert confidence_for(0) == confidence_for(1) == CONFIDENCE
    bars = [confidence_for(k) for k in range(1, 7)]
    assert bars == sorted(set(bars))
    assert 1.40 < confidence_for(2) < 1.42 and 1.85 < confidence_for(5) < 1.86
    n = 2 * MIN_VISITS
    pick = {j: float(j % 2) for j in range(n)}
    # Better than the pick in 4 rounds of 16 and alike in the rest: a gain of 0.25 with a
    # standard error of 0.11, 2.2 of them: it clears the plain bar, and the corrected one
    # with up to five candidates tested ...
    lucky = {j: (1.0 if j in (0, 2, 4, 6) else pick[j]) for j in range(n)}
    twin = dict(pick)
    assert SearchBot._best(table_with([pick, lucky])) == 1
    assert SearchBot._best(table_with([pick, lucky, twin, twin, twin, twin]), True) == 1
    # ... but better in 2 rounds (a gain of 0.125, 1.46 standard errors) it clears the plain
    # bar and the one for two candidates tested, not the one for five: the pick stands.
    two = {j: (1.0 if j in (0, 2) else pick[j]) for j in range(n)}
    assert SearchBot._best(table_with([pick, two, twin, twin, twin, twin])) == 1
    assert SearchBot._best(table_with([pick, two, twin]), True) == 1
    assert SearchBot._best(table_with([pick, two, twin, twin, twin, twin]), True) == 0
