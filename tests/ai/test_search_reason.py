"""The search bot's reason for a choice in one short plain sentence (``Explanation.reason``):
its playouts against the next best candidate's, whether it kept its first instinct, and the
playouts counted as the search really played them."""

from __future__ import annotations

from carnage.ai.runner import bot_rng, make_bot_for
from carnage.ai.search import Explanation, SearchBot, Weighed
from carnage.rulesets import get_ruleset


def explained(chosen: str, pick: str | None, *cands: Weighed, iterations: int = 40) -> str:
    return Explanation(decision=7, player=1, kind="template", vehicle="v", chosen=chosen,
                       iterations=iterations, seconds=0.5, candidates=cands, level="hard",
                       pick=pick).reason()


def test_playouts_to_the_end_are_counted_as_games_won() -> None:
    a = Weighed("a", "Gentle", 22, 14 / 22, ended=22, won=14)
    b = Weighed("b", "Hard", 21, 9 / 21, ended=21, won=9)
    assert explained("a", "a", a, b) == "won 14 of 22 playouts, next best 9 of 21"


def test_playouts_valued_before_the_end_are_given_as_a_score() -> None:
    a = Weighed("a", "Gentle", 22, 0.64, ended=3, won=2)
    b = Weighed("b", "Hard", 21, 0.41, ended=21, won=9)
    assert explained("a", "a", a, b) == "scored 64% over 22 playouts, next best 9 of 21"
    b2 = Weighed("b", "Hard", 21, 0.41, ended=0)
    assert explained("a", "a", a, b2) == "scored 64% over 22 playouts, next best 41% over 21"


def test_it_says_when_it_overruled_or_kept_its_first_instinct() -> None:
    a = Weighed("a", "Gentle", 10, 0.5, ended=10, won=5)
    b = Weighed("b", "Hard", 10, 0.6, ended=10, won=6)
    assert explained("a", "a", a, b) == (
        "won 5 of 10 playouts, next best 6 of 10; kept its first instinct: the gap was "
        "within the dice's luck")
    assert explained("b", "a", a, b) == (
        "won 6 of 10 playouts, next best 5 of 10; it beat its first instinct on the same dice")


def test_nothing_weighed_is_answered_at_once() -> None:
    a = Weighed("a", "Gentle", 0, 0.0)
    assert explained("a", "a", a, iterations=0) == "answered at once: nothing worth weighing"
    only = Weighed("a", "Gentle", 5, 0.6, ended=5, won=3)
    assert explained("a", "a", only) == "won 3 of 5 playouts"


def test_a_real_search_reports_the_playouts_it_played() -> None:
    ruleset = get_ruleset("refuelled")
    game = ruleset.new_game(scenario="street-race", seed=3)
    bots = [make_bot_for(ruleset, "heuristic"),
            SearchBot("hard", iterations=12, seconds=None, seed=1, horizon=400,
                      adapter=ruleset.search)]
    rng = bot_rng(1)
    searched = None
    for _ in range(80):
        d = game.pending()
        assert d is not None
        game.apply(bots[d.player].choose(game, d, rng))
        last = bots[1].explanations[-1] if bots[1].explanations else None
        if last is not None and last.iterations > 0:
            searched = last
            break
    assert searched is not None, "the search bot weighed a choice"
    chosen = next(c for c in searched.candidates if c.choice == searched.chosen)
    # with a horizon of 400 every playout reaches the end of the race: a game won or lost
    assert chosen.ended == chosen.visits > 0
    assert sum(c.visits for c in searched.candidates) == searched.iterations
    assert chosen.won == round(chosen.value * chosen.visits)
    assert searched.reason().startswith(f"won {chosen.won} of {chosen.visits} playouts")
    assert searched.to_json()["reason"] == searched.reason()
    assert searched.lines()[1].strip() == searched.reason()
