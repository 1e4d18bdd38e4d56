"""Seeded matches between named bots of any ruleset (analysis/matches.py): seats alternate,
games replay the same from their seeds, each bot's decisions are timed, and what a ruleset
refuses is refused by name."""

from __future__ import annotations

import pytest

from carnage.ai.search import SearchBot
from carnage.analysis.matches import (
    Played,
    SearchOptions,
    Timing,
    check_bots,
    default_scenario,
    make_bot,
    play_looked_at,
    play_match,
    playout_copy,
    ruleset_and_scenario,
    wilson,
)
from carnage.kernel.decisions import Decision
from carnage.rulesets import get_ruleset

FAST = SearchOptions(iterations=2, seconds=None, horizon=4)
"""A tiny search without a time limit: reproducible from the game's seed."""


def _summary(games: list[Played]) -> list[tuple[int, tuple[str, str], float, str]]:
    return [(p.seed, p.seats, p.score, p.outcome.reason) for p in games]


def test_seats_alternate_and_the_score_is_the_first_bots() -> None:
    rs = get_ruleset("refuelled")
    timings = {"heuristic": Timing()}
    games = play_match(rs, "street-race", "heuristic", "random", 2, 5, {"max_rounds": 3},
                       timings)
    assert [p.seats for p in games] == [("heuristic", "random"), ("random", "heuristic")]
    assert [p.seed for p in games] == [5, 6]
    assert [p.first_seat for p in games] == [0, 1]
    for p in games:
        # The score follows the first bot, whichever seat it took.
        winner = p.outcome.winner
        if p.outcome.draw or winner is None:
            assert p.score == 0.5
        else:
            assert p.score == (1.0 if winner == p.first_seat else 0.0)
    # Only the bots asked for are timed, one entry per decision they took.
    assert timings["heuristic"].wall and len(timings["heuristic"].wall) == len(
        timings["heuristic"].cpu)
    assert timings["heuristic"].sims == []


def test_a_seeded_search_replays_the_same_games() -> None:
    rs = get_ruleset("kart")
    runs = []
    for _ in range(2):
        t = {"search:easy": Timing()}
        runs.append(_summary(play_match(rs, "street-race", "search:easy", "heuristic", 2, 0,
                                        {"max_rounds": 2}, t, FAST)))
        assert 2 in t["search:easy"].sims and set(t["search:easy"].sims) <= {0, 1, 2}
    assert runs[0] == runs[1]


def test_the_search_bot_is_seeded_with_the_game_and_its_ruleset_adapter() -> None:
    rs = get_ruleset("devils-run")
    bot = make_bot(rs, "search:hard", 42, FAST)
    assert isinstance(bot, SearchBot)
    assert (bot.name, bot.seed, bot.iterations, bot.seconds) == ("search:hard", 42, 2, None)
    assert bot._make_adapter is rs.search
    assert make_bot(rs, "heuristic", 42).name == "heuristic"


def test_devils_run_plays_through_the_contract() -> None:
    rs = get_ruleset("devils-run")
    assert default_scenario(rs, ["street-race"]) == "devils-run"
    assert default_scenario(get_ruleset("refuelled"), ["street-race"]) == "street-race"
    assert default_scenario(get_ruleset("refuelled")) == "ambush"  # the first listed
    games = play_match(rs, "devils-run", "heuristic", "random", 2, 0, {}, {})
    assert len(games) == 2 and all(p.score in (0.0, 0.5, 1.0) for p in games)


def test_what_a_ruleset_refuses_is_named() -> None:
    with pytest.raises(ValueError, match="takes no options"):
        play_match(get_ruleset("devils-run"), "devils-run", "heuristic", "random", 1, 0,
                   {"max_rounds": 3}, {})
    with pytest.raises(ValueError, match="unknown bot 'champion'"):
        check_bots(get_ruleset("kart"), ["heuristic", "champion"])


def test_wilson_interval() -> None:
    lo, hi = wilson(1, 2)
    assert lo == pytest.approx(0.0945, abs=1e-3) and hi == pytest.approx(0.9055, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(3, 3)[1] == 1.0


def test_search_options_from_the_command_line() -> None:
    """``--seconds 0`` means no time limit (iterations only); no ``--seconds``: the level's."""
    import argparse

    from carnage.analysis.matches import SearchOptions

    ap = argparse.ArgumentParser()
    SearchOptions.add_arguments(ap)
    assert SearchOptions.from_arguments(ap.parse_args([])) == SearchOptions()
    given = SearchOptions.from_arguments(ap.parse_args(
        ["--seconds", "0", "--iterations", "40", "--horizon", "9", "--cpu-clock"]))
    assert given == SearchOptions(iterations=40, seconds=None, horizon=9, cpu_clock=True)
    assert SearchOptions.from_arguments(ap.parse_args(["--seconds", "0.5"])).seconds == 0.5


def test_a_team_game_puts_the_first_bot_on_every_seat_of_one_side_in_turn() -> None:
    """Refuelled p.123: four players on two sides; the first bot plays both seats of side 1
    in even games and of side 2 in odd ones, and a win is its side's."""
    from carnage.games.refuelled.engine.sides import side_of

    rs = get_ruleset("refuelled")
    timings = {"heuristic": Timing()}
    games = play_match(rs, "death-race", "heuristic", "random", 2, 3, {"max_rounds": 6},
                       timings, sides=[[0, 2], [1, 3]])
    assert [p.seats for p in games] == [("heuristic", "random", "heuristic", "random"),
                                        ("random", "heuristic", "random", "heuristic")]
    assert [p.first_seats for p in games] == [(0, 2), (1, 3)]
    assert [p.first_seat for p in games] == [0, 1]
    for p in games:
        winner = p.outcome.winner
        if p.outcome.draw or winner is None:
            assert p.score == 0.5
        else:
            assert p.score == (1.0 if winner in p.first_seats else 0.0)
    # The game really is a team game of four seats: seats 1 and 3 are one side.
    game = rs.new_game(scenario="death-race", seed=3, players=4, sides=[[0, 2], [1, 3]])
    assert game.players == 4
    assert [side_of(game, p) for p in range(4)] == [0, 1, 0, 1]
    # Both of the first bot's seats were played by it: its decisions were timed in both.
    assert timings["heuristic"].wall


def test_a_team_game_the_ruleset_refuses_is_named() -> None:
    with pytest.raises(ValueError, match="seat 5 is not one of the 4 players"):
        get_ruleset("refuelled").new_game(scenario="death-race", seed=0, players=4,
                                          sides=[[0, 4], [1, 2, 3]])
    with pytest.raises(ValueError, match="seat"):
        play_match(get_ruleset("refuelled"), "death-race", "heuristic", "random", 1, 0, {},
                   {}, sides=[[0, 1], [1, 2, 3]])
    with pytest.raises(ValueError, match="takes no options"):
        play_match(get_ruleset("devils-run"), "devils-run", "heuristic", "random", 1, 0, {},
                   {}, sides=[[0], [1]])


def test_a_ruleset_and_its_scenario_are_found_or_named_as_missing() -> None:
    rs, scenario = ruleset_and_scenario("kart", None)
    assert rs.name == "kart" and scenario == "street-race"
    assert ruleset_and_scenario("kart", "death-race")[1] == "death-race"
    # Devil's Run has no Street Race: its first scenario.
    dr, first = ruleset_and_scenario("devils-run", None)
    assert first == default_scenario(dr) and first in dr.scenarios
    with pytest.raises(ValueError, match=r"unknown ruleset 'nope'.*kart"):
        ruleset_and_scenario("nope", None)
    with pytest.raises(ValueError, match="Kart variant has no scenario 'nope'"):
        ruleset_and_scenario("kart", "nope")


def test_a_playout_copy_leaves_the_game_as_it_was() -> None:
    for name in ("kart", "devils-run"):
        rs, scenario = ruleset_and_scenario(name, None)
        game = rs.new_game(scenario=scenario, seed=3)
        d = game.pending()
        assert d is not None
        copy = playout_copy(game)
        copy.apply(d.options[0].value)
        assert game.pending() == d and len(game.choices) == 0
        assert len(copy.choices) == 1


def test_what_is_looked_at_is_kept_by_game() -> None:
    rs = get_ruleset("kart")
    seen: list[int] = []

    def look(bot: SearchBot, game: object, d: Decision, choice: object) -> str | None:
        return d.kind if d.kind == "template" else None

    per = play_looked_at(rs, "street-race", "easy", 2, 7, look,
                         each=lambda p, kept: seen.append(len(kept)))
    plain = play_match(rs, "street-race", "search:easy", "heuristic", 2, 7, {}, {},
                       SearchOptions(seconds=None))
    assert [_summary([p])[0] for p, _ in per] == _summary(plain)
    assert seen == [len(kept) for _, kept in per]
    assert all(kept and set(kept) == {"template"} for _, kept in per)
