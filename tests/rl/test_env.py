"""The PettingZoo environment: the library's own API test, masks over the pending decision's
options, discretised continuous choices, rewards at the end, seeded resets, clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import carnage.rl
from carnage.games.refuelled.observation import GLOBAL, OBS_SIZE, VEHICLE
from carnage.kernel.decisions import Decision, Interval, Option
from carnage.rl.env import INTERVAL_STEPS, MAX_ACTIONS, action_values


def test_pettingzoo_api_test_passes():
    api_test(carnage.rl.env(max_rounds=3), num_cycles=150)


def test_defaults_are_a_two_seat_street_race():
    env = carnage.rl.env()
    env.reset(seed=1)
    assert env.possible_agents == ["seat_0", "seat_1"]
    assert env.game.scenario.id == "street-race"
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
    assert env.observation_space("seat_0").contains(obs)


def test_mask_covers_exactly_the_pending_options_of_the_agent_to_act():
    env = carnage.rl.env()
    env.reset(seed=2)
    for _ in range(40):
        d = env.game.pending()
        me = env.agent_selection
        assert me == f"seat_{d.player}"
        mask = env.observe(me)["action_mask"]
        assert mask.sum() == len(action_values(d)) and mask[: len(action_values(d))].all()
        other = next(a for a in env.agents if a != me)
        assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(np.flatnonzero(mask)[-1]))
        if not env.agents or env.terminations[env.agent_selection]:
            break


def test_observation_puts_own_vehicles_first_with_their_state():
    env = carnage.rl.env()
    env.reset(seed=3)
    for agent, seat in (("seat_0", 0), ("seat_1", 1)):
        x = env.observe(agent)["observation"]
        own = [v for v in sorted(env.game.state.vehicles.values(), key=lambda v: v.id)
               if v.player == seat]
        first = x[GLOBAL: GLOBAL + VEHICLE]
        assert first[0] == 1.0 and first[1] == 1.0  # present, own
        assert first[7] == pytest.approx(own[0].gear / 6.0)
        third = x[GLOBAL + 2 * VEHICLE: GLOBAL + 3 * VEHICLE]
        assert third[0] == 1.0 and third[1] == 0.0  # the other seat's first vehicle


def test_continuous_choices_are_discretised_from_low_to_high():
    d = Decision(0, "spin", "spin?", domain=Interval(-90.0, 90.0))
    vals = action_values(d)
    assert len(vals) == INTERVAL_STEPS and vals[0] == -90.0 and vals[-1] == 90.0
    assert all(d.domain.contains(v) for v in vals)
    opts = Decision(0, "attack", "?", options=tuple(Option(i) for i in range(MAX_ACTIONS + 5)))
    assert len(action_values(opts)) == MAX_ACTIONS


def test_a_finished_game_rewards_the_winner_and_terminates_everyone():
    env = carnage.rl.env()
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(20_000):
        obs, r, term, trunc, _ = env.last()
        total[agent] += r
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    out = env.game.outcome()
    assert out is not None and not env.agents
    if out.winner is None:
        assert total == {"seat_0": 0.0, "seat_1": 0.0}
    else:
        assert total[f"seat_{out.winner}"] == 1.0 and sum(total.values()) == 0.0


def test_seeded_resets_replay_the_same_game():
    def trace(seed):
        env = carnage.rl.env()
        env.reset(seed=seed)
        out = []
        for _ in range(30):
            obs = env.observe(env.agent_selection)
            out.append(obs["observation"].copy())
            env.step(0)
        return np.stack(out), [e.data["dice"] for e in env.game.log.of_kind("roll")]

    (obs_a, dice_a), (obs_b, dice_b) = trace(5), trace(5)
    assert np.array_equal(obs_a, obs_b) and dice_a == dice_b
    assert trace(6)[1] != dice_a  # another seed, other dice


def test_bad_input_is_refused_with_a_clear_message():
    env = carnage.rl.env()
    env.reset(seed=1)
    n = len(action_values(env.game.pending()))
    with pytest.raises(ValueError, match=rf"action {n} is not legal .* 0 to {n - 1}"):
        env.step(n)
    with pytest.raises(ValueError, match="unknown ruleset 'no-such-ruleset'"):
        carnage.rl.env(ruleset="no-such-ruleset")
    with pytest.raises(ValueError, match="render_mode 'human'"):
        carnage.rl.env(render_mode="human")
    with pytest.raises(ValueError, match="unknown scenario 'no-such-scenario'"):
        carnage.rl.env(scenario="no-such-scenario")


def test_ansi_render_lists_the_vehicles():
    env = carnage.rl.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Red Car" in text and "gear" in text
