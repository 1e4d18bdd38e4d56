"""The search bot never peeks at other seats' secrets: its simulations play guessed values
(determinisation), so its choices cannot depend on an opponent's hidden value."""

from __future__ import annotations

import random

import carnage
from carnage.ai import bot_rng
from carnage.ai.determinise import determinise, hidden_from
from carnage.ai.search import SearchBot
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.kernel.secrets import keep_secret, secrets_of

REVOLUTION = "the-revolution-will-be-televised"
BUDGET = {"iterations": 6, "seconds": None, "horizon": 12}


def revolution_until(seed: int, *, note: str | None = None):
    """A Revolution game played by heuristic bots until player 0's first movement decision
    after player 1 noted a piece in secret during play (after the two notes of the set-up);
    ``note`` replaces player 1's pick there. Also returns the pieces player 1 could note."""
    g = carnage.new_game(scenario=REVOLUTION, seed=seed)
    h, rng = HeuristicBot(), bot_rng(seed)
    could: list[str] = []
    while (d := g.pending()) is not None:
        if could and d.player == 0 and d.kind == "template":
            return g, could
        choice = h.choose(g, d, rng)
        if d.kind == "note_terrain" and d.player == 1 and len(g.choices) > 1:
            assert d.hidden
            could = [str(o.value) for o in d.options]
            if note is not None:
                choice = d.validate(note)
        g.apply(choice)
    raise AssertionError("the game ended before the decision looked for")


def other_note(seed: int) -> tuple[str, str]:
    """Player 1's real note, and another piece it could have noted instead."""
    g, could = revolution_until(seed)
    real = str(secrets_of(g)["note:1"].value)
    return real, next(p for p in could if p != real)


class Spy(SearchBot):
    """Records the note player 1 holds in every copy the search plays."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.seen: list[object] = []

    def guess_secrets(self, sim, seat, rng):
        super().guess_secrets(sim, seat, rng)
        s = secrets_of(sim).get("note:1")
        self.seen.append(None if s is None else s.value)


class Peeker(Spy):
    """The control: a search that keeps the real secrets."""

    def guess_secrets(self, sim, seat, rng):
        s = secrets_of(sim).get("note:1")
        self.seen.append(None if s is None else s.value)


def explain(cls, game):
    bot = cls("hard", seed=7, **BUDGET)
    choice = bot.choose(game, game.pending(), random.Random(0))
    out = bot.last.to_json()
    out.pop("seconds")
    return choice, out, bot.seen


def test_search_choices_do_not_depend_on_an_opponents_hidden_note():
    seed = 3
    real, other = other_note(seed)
    (a, _), (b, _) = revolution_until(seed), revolution_until(seed, note=other)
    assert secrets_of(a)["note:1"].value == real and secrets_of(b)["note:1"].value == other
    assert secrets_of(a)["note:1"].seen_by == [1]
    # The same question for player 0 in both games: only player 1's secret differs.
    assert a.pending().options == b.pending().options
    choice_a, why_a, seen_a = explain(Spy, a)
    choice_b, why_b, seen_b = explain(Spy, b)
    assert choice_a == choice_b and why_a == why_b
    assert seen_a == seen_b  # the copies held the same guesses, whatever the real note
    assert len(seen_a) == why_a["iterations"] and len(set(seen_a)) > 1
    notable = set(a.scenario.notable(a.state))
    assert set(seen_a) <= notable
    # The control: a search that kept the real secret would have played it in every copy.
    _, _, peeked_a = explain(Peeker, a)
    _, _, peeked_b = explain(Peeker, b)
    assert set(peeked_a) == {real} and set(peeked_b) == {other}


def test_the_searching_seat_keeps_its_own_secrets_and_the_real_game_is_untouched():
    g, _ = revolution_until(3)
    assert [k for k, _ in hidden_from(g, 0)["noted_terrain"]] == ["note:1"]
    mine, real = secrets_of(g)["note:0"].value, secrets_of(g)["note:1"].value
    guesses = set()
    for k in range(30):
        sim = g.clone()
        assert determinise(sim, 0, random.Random(k)) == 1
        assert secrets_of(sim)["note:0"].value == mine  # its own: known, kept
        guesses.add(secrets_of(sim)["note:1"].value)
        assert secrets_of(g)["note:1"].value == real  # the real game keeps its secret
    assert guesses <= set(g.scenario.notable(g.state)) and len(guesses) > 2


def test_dealt_secrets_are_shuffled_among_the_seats_that_hide_them():
    # Three hidden slips of one kind and one the searching seat sees: the seen one stays,
    # the hidden values are dealt again among their holders (each a permutation of them).
    g = carnage.new_game(seed=1)
    for p, value in enumerate((10, 11, 12, 13)):
        keep_secret(g, f"hand:{p}", value, [p], kind="hand", label="Hand", owner=p)
    deals = set()
    for k in range(40):
        determinise(g, 0, random.Random(k))
        s = secrets_of(g)
        assert s["hand:0"].value == 10
        hidden = tuple(s[f"hand:{p}"].value for p in (1, 2, 3))
        assert sorted(hidden) == [11, 12, 13]
        assert all(s[f"hand:{p}"].text == str(s[f"hand:{p}"].value) for p in (1, 2, 3))
        deals.add(hidden)
    assert len(deals) > 3  # more than one way of dealing them is played
