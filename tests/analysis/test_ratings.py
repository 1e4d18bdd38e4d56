"""Elo ratings from pairwise results (analysis/ratings.py): known results give known ratings,
symmetric results equal ones, draws count half, a perfect record is finite and uncertain, and
bad input is refused by name."""

from __future__ import annotations

import math

import pytest

from carnage.analysis.ratings import (
    MEAN_RATING,
    GameResult,
    Record,
    expected_score,
    fit_elo,
    pairwise,
    rate,
    records,
)


def _games(a: str, b: str, wins: int, draws: int, losses: int) -> list[GameResult]:
    """``a``'s record against ``b``, with seats alternating as a ladder plays them."""
    out = []
    for k, s in enumerate([1.0] * wins + [0.5] * draws + [0.0] * losses):
        out.append(GameResult(a, b, s) if k % 2 == 0 else GameResult(b, a, 1.0 - s))
    return out


def _elo(p: float) -> float:
    """The Elo difference at which the stronger side scores ``p`` per game."""
    return 400.0 * math.log10(p / (1.0 - p))


def test_one_pair_gives_the_elo_difference_of_its_score() -> None:
    # 3 of 4: the odds are 3 to 1, so 400 log10(3) = 190.85 points apart.
    r = fit_elo(_games("a", "b", 3, 0, 1), anchor="b", prior_draws=0)
    assert r["b"] == 0.0
    assert r["a"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r["a"] == pytest.approx(190.848, abs=1e-3)


def test_three_players_with_consistent_results_give_those_differences() -> None:
    # a-b 3:1 and b-c 3:1 put a 2 x 190.85 above c, whose odds are 9:1 (36 of 40).
    games = (_games("a", "b", 3, 0, 1) + _games("b", "c", 3, 0, 1)
             + _games("a", "c", 36, 0, 4))
    r = fit_elo(games, anchor="c", prior_draws=0)
    assert r["b"] == pytest.approx(_elo(0.75), abs=1e-6)
    assert r["a"] == pytest.approx(2 * _elo(0.75), abs=1e-6)
    assert expected_score(r["a"], r["c"]) == pytest.approx(0.9)


def test_the_mean_anchor_centres_on_1500() -> None:
    r = fit_elo(_games("a", "b", 3, 0, 1), prior_draws=0)
    assert (r["a"] + r["b"]) / 2 == pytest.approx(MEAN_RATING)
    assert r["a"] - r["b"] == pytest.approx(_elo(0.75), abs=1e-6)


def test_symmetric_results_give_equal_ratings() -> None:
    # A cycle: each beats the next 3 to 1; and an even pair.
    cycle = _games("a", "b", 3, 0, 1) + _games("b", "c", 3, 0, 1) + _games("c", "a", 3, 0, 1)
    r = fit_elo(cycle)
    assert r["a"] == pytest.approx(MEAN_RATING, abs=1e-6)
    assert r["b"] == pytest.approx(MEAN_RATING, abs=1e-6)
    assert r["c"] == pytest.approx(MEAN_RATING, abs=1e-6)
    even = fit_elo(_games("x", "y", 5, 2, 5), anchor="y")
    assert even["x"] == pytest.approx(0.0, abs=1e-6)


def test_draws_count_half_a_win() -> None:
    # 2 wins and 2 draws score 3 of 4, as 3 wins and a loss do.
    with_draws = fit_elo(_games("a", "b", 2, 2, 0), anchor="b", prior_draws=0)
    without = fit_elo(_games("a", "b", 3, 0, 1), anchor="b", prior_draws=0)
    assert with_draws["a"] == pytest.approx(without["a"], abs=1e-6)
    assert records(_games("a", "b", 2, 2, 0))["a"] == Record(wins=2, draws=2, losses=0)


def test_the_prior_pulls_towards_even() -> None:
    # One virtual draw: 3 of 4 becomes 3.5 of 5.
    r = fit_elo(_games("a", "b", 3, 0, 1), anchor="b", prior_draws=1.0)
    assert r["a"] == pytest.approx(_elo(0.7), abs=1e-6)


def test_a_perfect_record_is_finite_clearly_higher_and_uncertain() -> None:
    games = (_games("top", "mid", 4, 0, 0) + _games("top", "low", 4, 0, 0)
             + _games("mid", "low", 2, 0, 2))
    ratings = {r.player: r for r in rate(games, anchor="low", resamples=300, seed=1)}
    top, mid = ratings["top"], ratings["mid"]
    assert math.isfinite(top.elo) and math.isfinite(top.high)
    assert top.elo > mid.elo + 200
    assert top.record == Record(wins=8, draws=0, losses=0)
    # Eight games won say little about how much better: the interval spans hundreds of points.
    assert top.high - top.low > 200
    assert top.low <= top.elo <= top.high + 1e-9
    # The anchor stays at 0; the best is listed first.
    assert ratings["low"].elo == 0.0 and ratings["low"].low == ratings["low"].high == 0.0
    assert rate(games, anchor="low", resamples=50)[0].player == "top"


def test_more_games_narrow_the_interval() -> None:
    few = {r.player: r for r in rate(_games("a", "b", 6, 0, 2), anchor="b", resamples=300)}
    many = {r.player: r for r in rate(_games("a", "b", 60, 0, 20), anchor="b",
                                      resamples=300)}
    assert many["a"].high - many["a"].low < (few["a"].high - few["a"].low) / 2
    assert many["a"].low < many["a"].elo < many["a"].high


def test_the_interval_is_the_same_for_the_same_seed() -> None:
    games = _games("a", "b", 5, 1, 2) + _games("b", "c", 4, 0, 4)
    assert rate(games, resamples=100, seed=7) == rate(games, resamples=100, seed=7)
    assert rate(games, resamples=100, seed=7) != rate(games, resamples=100, seed=8)


def test_pairwise_records_from_each_side() -> None:
    table = pairwise(_games("a", "b", 3, 1, 0))
    assert table[("a", "b")] == Record(3, 1, 0)
    assert table[("b", "a")] == Record(0, 1, 3)


def test_bad_input_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"score is 1, 0\.5 or 0"):
        GameResult("a", "b", 0.7)
    with pytest.raises(ValueError, match="against itself"):
        GameResult("a", "a", 1.0)
    with pytest.raises(ValueError, match=r"no common scale.*'c'"):
        fit_elo(_games("a", "b", 1, 0, 1) + _games("c", "d", 1, 0, 1))
    with pytest.raises(ValueError, match="no finite ratings without a prior"):
        fit_elo(_games("a", "b", 3, 0, 0), prior_draws=0)
    with pytest.raises(ValueError, match="anchor 'z'"):
        fit_elo(_games("a", "b", 1, 0, 1), anchor="z")
    with pytest.raises(ValueError, match="at least two players"):
        fit_elo([])
    with pytest.raises(ValueError, match="'q' is not among"):
        fit_elo(_games("a", "q", 1, 0, 1), players=["a", "b"])
    with pytest.raises(ValueError, match="prior_draws > 0"):
        rate(_games("a", "b", 1, 0, 1), prior_draws=0)


def test_a_single_perfect_record_still_has_a_wide_interval() -> None:
    # Resampled as it is, 4 wins of 4 would always be 4 of 4 (an interval of one point); the
    # smoothing lets a resample lose a game, as a short record may have.
    a = {r.player: r for r in rate(_games("a", "b", 4, 0, 0), anchor="b", resamples=300)}["a"]
    assert a.elo == pytest.approx(_elo(4.5 / 5), abs=1e-6)
    assert a.elo - a.low > 150
    plain = {r.player: r for r in rate(_games("a", "b", 4, 0, 0), anchor="b", resamples=300,
                                       smoothing=0.0)}["a"]
    assert plain.low == pytest.approx(plain.high)


def test_every_interval_holds_its_rating_when_all_beat_the_anchor() -> None:
    # The shape of the shipped Street Race ladder: six games a pair, everyone beats random
    # every time. The smoothing pulls each resampled record towards an even one, so the
    # resamples' percentiles alone ran below the ratings (the best bot rated 672 "between 303
    # and 648"); placed on the fitted rating, the spread holds it, and keeps its width.
    games = (_games("hard", "normal", 4, 0, 2) + _games("hard", "easy", 6, 0, 0)
             + _games("hard", "heuristic", 6, 0, 0) + _games("hard", "random", 6, 0, 0)
             + _games("normal", "easy", 3, 0, 3) + _games("normal", "heuristic", 4, 0, 2)
             + _games("normal", "random", 6, 0, 0) + _games("easy", "heuristic", 3, 0, 3)
             + _games("easy", "random", 6, 0, 0) + _games("heuristic", "random", 6, 0, 0))
    ratings = rate(games, anchor="random", resamples=400, seed=3)
    for r in ratings:
        assert r.low <= r.elo <= r.high, r
    best = ratings[0]
    assert best.player == "hard"
    assert best.high - best.low > 200  # 30 games say little: hundreds of points wide
    # Below the rating by the resamples' median less their low percentile, and so on up.
    assert best.elo - best.low > 100 and best.high - best.elo > 100
