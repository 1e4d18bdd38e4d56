"""Refuelled's observation is the layout of ``docs/rl.md``, value for value: the vectors of a
few seeded positions (Street Race at the start and mid-game, Arena of Death with obstacles)
were written to ``data/refuelled_observation.json`` by the environment's own encoder before
it moved into the Refuelled package, and must not change. The Kart variant and Legacy share
it: a kart race shows no hull, every Legacy chapter's game encodes its vehicles."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import carnage.rl
from carnage.games.legacy.campaign import chapters
from carnage.games.refuelled.observation import GLOBAL, MAX_VEHICLES, VEHICLE
from carnage.kernel.observation import action_values
from carnage.kernel.session import GameRequest
from carnage.rulesets import KART, LEGACY, REFUELLED

CASES = json.loads((Path(__file__).parent / "data" / "refuelled_observation.json")
                   .read_text("utf-8"))["cases"]


def _position(scenario: str, seed: int, max_rounds: int, steps: int) -> carnage.rl.CarnageEnv:
    env = carnage.rl.env(scenario=scenario, max_rounds=max_rounds)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


@pytest.mark.parametrize("case", CASES, ids=lambda c: (f"{c['scenario']}-{c['seed']}-"
                                                       f"{c['random_steps']}-{c['agent']}"))
def test_refuelled_observation_is_unchanged(case: dict) -> None:
    env = _position(case["scenario"], case["seed"], case["max_rounds"], case["random_steps"])
    x = env.observe(case["agent"])["observation"]
    want = np.zeros(case["size"], dtype=np.float32)
    for i, v in case["nonzero"].items():
        want[int(i)] = v
    assert x.shape == want.shape
    assert np.array_equal(x, want), np.flatnonzero(x != want)


def _slots(x: np.ndarray) -> list[np.ndarray]:
    return [x[GLOBAL + i * VEHICLE: GLOBAL + (i + 1) * VEHICLE] for i in range(MAX_VEHICLES)]


def _random_positions(game, seed: int, steps: int = 4000):
    """``game`` and each position of it as random legal choices play it to its end."""
    rng = random.Random(seed)
    for _ in range(steps):
        yield game
        d = game.pending()
        if d is None:
            return
        game.apply(rng.choice(action_values(d)))
    raise AssertionError("the game did not end")


def test_a_kart_race_has_no_hull_track_so_its_hull_fields_are_zero():
    env = carnage.rl.env(ruleset="kart", scenario="street-race", max_rounds=2)
    env.reset(seed=3)
    seen = 0
    for game in _random_positions(env.game, 3):
        x = np.asarray(KART.observation.encode(game, 0), dtype=np.float32)
        vehicles = sorted(game.state.vehicles.values(), key=lambda v: (v.player, v.id))
        for row, v in zip(_slots(x), vehicles, strict=False):
            assert row[0] == 1.0 and row[9] == 0.0 and row[10] == 0.0
            assert row[8] == np.float32(v.hazards / 6.0)
            seen += v.hazards > 0
    assert seen  # the karts did gather hazards, which is what a hit does to one


def test_refuelled_hull_fields_follow_the_hull_points_left():
    env = carnage.rl.env(scenario="arena-of-death", max_rounds=2)
    env.reset(seed=3)
    damaged = 0
    for game in _random_positions(env.game, 3):
        x = np.asarray(REFUELLED.observation.encode(game, 1), dtype=np.float32)
        vehicles = sorted(game.state.vehicles.values(), key=lambda v: ((v.player - 1) % 2, v.id))
        for row, v in zip(_slots(x), vehicles, strict=False):
            assert row[9] == np.float32(v.hull_points / 20.0)
            assert row[10] == np.float32(v.hull_points / v.hull)
            damaged += v.hull_points < v.hull
    assert damaged


@pytest.mark.parametrize("chapter", chapters(), ids=lambda c: f"chapter-{c.number}")
def test_every_legacy_chapter_game_encodes_its_vehicles(chapter):
    request = GameRequest(scenario=chapter.scenario, max_rounds=2,
                          options=(f"chapter_rules={','.join(chapter.rules)}",))
    game = LEGACY.games(request).new_game(chapter.number)
    offer = LEGACY.observation
    for g in _random_positions(game, chapter.number):
        for seat in range(g.players):
            x = np.asarray(offer.encode(g, seat), dtype=np.float64)
            assert x.shape == (offer.size,) and np.isfinite(x).all()
            assert np.abs(x).max() <= 2.0
            present = [row for row in _slots(x) if row[0] == 1.0]
            assert len(present) == min(MAX_VEHICLES, len(g.state.vehicles))
            own = [v for v in g.state.vehicles.values() if v.player == seat]
            assert all(row[1] == 1.0 for row in present[: len(own)])
            assert all(row[10] > 0.0 for row in present if row[2] == 1.0)  # in play: hull


@pytest.mark.parametrize("seat", [0, 1])
def test_vehicles_no_seat_owns_come_after_every_seats(seat):
    game = REFUELLED.new_game(scenario="big-game-hunter", seed=1)
    x = np.asarray(REFUELLED.observation.encode(game, seat), dtype=np.float32)
    owners = {v.player for v in game.state.vehicles.values()}
    assert owners == {-1, 0, 1}
    rows = _slots(x)
    assert [r[1] for r in rows[:5]] == [1.0, 1.0, 0.0, 0.0, 0.0] and rows[5][0] == 0.0
    creature = game.state.vehicles["creature-1"]
    assert rows[4][13] == np.float32(creature.length / 100.0)
    assert rows[4][9] == np.float32(creature.hull_points / 20.0)
