"""Tourneys (``carnage.analysis.tourney``): Wilson intervals against values worked out by hand,
per-game seeds and seats, damage credited to the vehicle that dealt it, and a result that does
not depend on how many worker processes play it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from carnage.analysis.tourney import (
    Tourney,
    TourneyError,
    a_seat,
    chunked,
    game_seed,
    play_game,
    run_tourney,
    wilson,
)
from carnage.analysis.workers import map_chunks
from carnage.team import load_team

TEAMS = Path(__file__).resolve().parents[2] / "examples" / "teams"
INTRO = load_team(TEAMS / "intro.yaml")
IDRIS = load_team(TEAMS / "idris_cult_of_speed.yaml")
Z = 1.959963984540054


def test_wilson_against_hand_computed_intervals() -> None:
    # 50 of 100: p = 1/2, z^2/n = 0.0384146; centre 1/2; half-width
    # z / (1 + z^2/n) * sqrt(1/4/100 + z^2/(4 * 100^2)) = 1.887456 * 0.0509510 = 0.0961684.
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.5 - 0.0961684, abs=1e-6)
    assert hi == pytest.approx(0.5 + 0.0961684, abs=1e-6)
    # 0 of n: the interval is [0, z^2 / (n + z^2)] (0 of 8: 3.841459 / 11.841459 = 0.324408).
    assert wilson(0, 8) == pytest.approx((0.0, 0.324408), abs=1e-6)
    assert wilson(8, 8) == pytest.approx((1 - 0.324408, 1.0), abs=1e-6)
    assert wilson(0, 10)[1] == pytest.approx(Z * Z / (10 + Z * Z))
    # 5 of 12: centre (5/12 + z^2/24) / (1 + z^2/12) = 0.576727 / 1.320122 = 0.436874;
    # half-width 1.484682 * sqrt(0.0202546 + 0.0066690) = 0.243610.
    lo, hi = wilson(5, 12)
    assert lo == pytest.approx(0.436874 - 0.243610, abs=1e-5)
    assert hi == pytest.approx(0.436874 + 0.243610, abs=1e-5)
    # Symmetric, always inside [0, 1] and around the observed rate; nothing observed: [0, 1].
    for n in (1, 3, 17, 250):
        for k in range(n + 1):
            a, b = wilson(k, n)
            c, d = wilson(n - k, n)
            assert a == pytest.approx(1 - d) and b == pytest.approx(1 - c)
            assert 0 <= a <= k / n <= b <= 1
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 4)


def test_games_come_in_pairs_sharing_dice_with_the_seats_swapped() -> None:
    assert [a_seat(i) for i in range(4)] == [0, 1, 0, 1]
    assert game_seed(7, 0) == game_seed(7, 1) != game_seed(7, 2) == game_seed(7, 3)
    assert game_seed(7, 0) != game_seed(8, 0)
    assert game_seed(7, 5) == game_seed(7, 5)  # a pure function of (master seed, game)
    t = Tourney(a=INTRO, b=IDRIS, games=2, seed=7)
    job = t.job()
    first, second = play_game(job, 0), play_game(job, 1)
    assert (first["a_seat"], second["a_seat"]) == (0, 1)
    assert first["seed"] == second["seed"]
    # Team A's vehicles are reported as A's whichever seat they sat in.
    names = [v.name for v in INTRO.vehicles]
    for r in (first, second):
        a_rows = [row for row in r["vehicles"] if row[0] == "A"]
        assert [row[1] for row in a_rows] == list(range(len(names)))


def test_chunks_cover_every_game_once() -> None:
    for games in (1, 7, 40, 1000):
        for workers in (1, 2, 8):
            parts = chunked(games, workers)
            assert [g for p in parts for g in p] == list(range(games))
            assert max(len(p) for p in parts) <= 16
    assert len(chunked(40, 2)) == 8  # about four chunks per worker


def test_map_chunks_gives_chunk_order_whatever_order_they_finish() -> None:
    out = map_chunks(_slow_square, [[3], [0], [2], [1]], workers=2, on_chunk=None)
    assert out == [9, 0, 4, 1]
    seen: list[int] = []
    assert map_chunks(_slow_square, [[1], [2]], workers=1,
                      on_chunk=lambda i, part: seen.append(i)) == [1, 4]
    assert seen == [0, 1]


def _slow_square(chunk: list[int]) -> list[int]:
    import time

    time.sleep(0.05 * chunk[0])
    return [x * x for x in chunk]


def test_a_small_tourney_is_the_same_on_one_or_two_worker_processes() -> None:
    t = Tourney(a=INTRO, b=IDRIS, games=10, seed=3, a_source="intro", b_source="idris")
    ticks: list[int] = []
    one, run1 = run_tourney(t, workers=1, on_games=ticks.append)
    two, run2 = run_tourney(t, workers=2)
    assert one == two
    assert sum(ticks) == 10 and (run1.workers, run2.workers) == (1, 2)
    a = one["a"]
    assert sum(a[k]["count"] for k in ("win", "draw", "loss")) == one["played"] == 10
    assert a["win"]["ci95"] == pytest.approx(list(wilson(a["win"]["count"], 10)), abs=1e-6)
    assert sum(s["games"] for s in one["by_seat"].values()) == 10
    assert [v["name"] for v in one["vehicles"]] == (
        [v.name for v in INTRO.vehicles] + [v.name for v in IDRIS.vehicles])
    for v in one["vehicles"]:
        assert v["games"] == 10 and 0 <= v["survived"]["rate"] <= 1
    # The damage one team dealt is damage the other team took.
    dealt = {team: sum(v["damage_dealt"] for v in one["vehicles"] if v["team"] == team)
             for team in "AB"}
    taken = {team: sum(v["damage_taken"] for v in one["vehicles"] if v["team"] == team)
             for team in "AB"}
    assert dealt["A"] <= taken["B"] + 1e-9 and dealt["B"] <= taken["A"] + 1e-9
    assert dealt["A"] + dealt["B"] > 0
    assert one["mean_rounds"] >= 1 and not one["errors"]
    # Another master seed plays other games.
    other, _ = run_tourney(Tourney(a=INTRO, b=IDRIS, games=10, seed=4, a_source="intro",
                                   b_source="idris"))
    assert other != one


def test_a_crashing_game_is_counted_and_the_tourney_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import carnage.analysis.tourney as tourney

    real = tourney.play_out

    def flaky(game: object, bots: object, rng: object) -> object:
        if tourney.a_seat(len(calls)) == 1:
            calls.append(1)
            raise RuntimeError("boom")
        calls.append(0)
        return real(game, bots, rng)

    calls: list[int] = []
    monkeypatch.setattr(tourney, "play_out", flaky)
    s, _ = run_tourney(Tourney(a=INTRO, b=IDRIS, games=4, seed=1))
    assert s["played"] == 2 and s["games"] == 4
    assert [(e["game"], e["a_seat"], e["error"]) for e in s["errors"]] == [
        (1, 2, "RuntimeError: boom"), (3, 2, "RuntimeError: boom")]
    assert s["errors"][0]["seed"] == game_seed(1, 1)


@pytest.mark.parametrize(("change", "message"), [
    ({"games": 0}, "--games must be at least 1"),
    ({"scenario": "no-such"}, "unknown scenario 'no-such'"),
    ({"ruleset": "devils-run"}, r"--ruleset devils-run: Devil's Run: Route 666 offers no "
                                r"tourney \(tourneys play: refuelled, kart, legacy\)"),
    ({"ruleset": "chess"}, "unknown ruleset 'chess'"),
    ({"bots": ("heuristic", "genius")}, "--bots: unknown bot 'genius'"),
    ({"max_rounds": 0}, "max rounds must be at least 1"),
])
def test_what_stops_every_game_is_one_clear_error(change: dict[str, object],
                                                   message: str) -> None:
    t = Tourney(a=INTRO, b=IDRIS, games=2)
    t = Tourney(**{**t.__dict__, **change})
    with pytest.raises(TourneyError, match=message):
        run_tourney(t)


def test_an_illegal_team_is_named_with_its_file() -> None:
    broke = INTRO.model_copy(update={"cans": 5})
    with pytest.raises(TourneyError, match=r"team B \(broke.yaml\) \(.*\): .*cans"):
        run_tourney(Tourney(a=INTRO, b=broke, games=2, b_source="broke.yaml"))


def test_run_options_are_checked() -> None:
    t = Tourney(a=INTRO, b=IDRIS, games=2)
    with pytest.raises(TourneyError, match="--backend must be local or ray"):
        run_tourney(t, backend="spark")
    with pytest.raises(TourneyError, match="--workers must be at least 1"):
        run_tourney(t, workers=0)
    with pytest.raises(TourneyError, match="use it with --backend ray"):
        run_tourney(t, address="127.0.0.1:6379")


def test_a_deadline_stops_early_with_what_was_played() -> None:
    import time

    s, _ = run_tourney(Tourney(a=INTRO, b=IDRIS, games=50), deadline=time.monotonic())
    assert s["games"] == 0 and s["played"] == 0
    assert s["a"]["win"]["ci95"] == [0.0, 1.0]
    assert math.isclose(s["mean_rounds"], 0.0)
