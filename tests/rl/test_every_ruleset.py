"""The environment for every ruleset of the registry: the PettingZoo API test, seeded
random-action episodes played to the end (observations inside the declared space, rewards
as the outcome says, the same seed the same episode), the ruleset's default scenario and
its text render; a ruleset that declares no observation, or a wrong one, is refused by name."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import carnage.rl
from carnage.kernel.observation import ObservationOffer
from carnage.rulesets import REFUELLED, RULESETS

EPISODES: dict[str, list[tuple[str, int | None]]] = {
    "refuelled": [("street-race", 2), ("arena-of-death", 2)],
    "kart": [("street-race", 2), ("death-race", 2)],
    "legacy": [("street-race", 2), ("arena-of-death", 2)],
    # its missions set their own turn limit (7 turns; Hell on Wheels disengages by turn 10)
    "devils-run": [("devils-run", None), ("hell-on-wheels", None)],
}
"""The scenarios each ruleset's episodes play, with a small ``max_rounds`` where it takes one."""

CASES = [(name, scenario, rounds) for name in sorted(RULESETS)
         for scenario, rounds in EPISODES.get(name, [("", None)])]


def test_every_ruleset_of_the_registry_has_episodes_here():
    missing = sorted(set(RULESETS) - set(EPISODES))
    assert not missing, f"add episodes for {missing} to EPISODES"


def test_every_shipped_ruleset_declares_an_observation():
    assert all(r.observation is not None for r in RULESETS.values())


def _episode(name: str, scenario: str, rounds: int | None, seed: int
             ) -> tuple[list[np.ndarray], list[int], dict[str, float], Any]:
    env = carnage.rl.env(ruleset=name, scenario=scenario, max_rounds=rounds)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    space = env.observation_space("seat_0")
    observations: list[np.ndarray] = []
    actions: list[int] = []
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(20_000):
        obs, reward, term, trunc, _ = env.last()
        assert space.contains(obs), f"{name} {scenario}: observation outside its space"
        assert np.isfinite(obs["observation"]).all()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        observations.append(obs["observation"].copy())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    assert not env.agents, f"{name} {scenario}: the episode did not end"
    return observations, actions, total, env.game.outcome()


@pytest.mark.parametrize(("name", "scenario", "rounds"), CASES)
def test_pettingzoo_api_test_passes_for_every_ruleset(name, scenario, rounds):
    api_test(carnage.rl.env(ruleset=name, scenario=scenario, max_rounds=rounds), num_cycles=60)


@pytest.mark.parametrize(("name", "scenario", "rounds"), CASES)
def test_seeded_random_episodes_end_rewarding_the_outcome(name, scenario, rounds):
    for seed in (1, 2):
        observations, actions, total, out = _episode(name, scenario, rounds, seed)
        assert out is not None and actions
        size = RULESETS[name].observation.size
        assert all(x.shape == (size,) and x.dtype == np.float32 for x in observations)
        if out.winner is None or out.draw:
            assert set(total.values()) == {0.0}
        else:
            assert total[f"seat_{out.winner}"] == 1.0
            assert all(r == -1.0 for a, r in total.items() if a != f"seat_{out.winner}")


@pytest.mark.parametrize(("name", "scenario", "rounds"), CASES)
def test_the_same_seed_plays_the_same_episode(name, scenario, rounds):
    obs_a, act_a, total_a, out_a = _episode(name, scenario, rounds, 5)
    obs_b, act_b, total_b, out_b = _episode(name, scenario, rounds, 5)
    assert act_a == act_b and total_a == total_b and out_a == out_b
    assert np.array_equal(np.stack(obs_a), np.stack(obs_b))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_default_scenario_and_text_render(name):
    offer = RULESETS[name].observation
    env = carnage.rl.env(ruleset=name, render_mode="ansi")
    env.reset(seed=3)
    assert env.scenario == offer.default_scenario
    assert env.observation_space("seat_0")["observation"].shape == (offer.size,)
    text = env.render()
    assert isinstance(text, str) and f"decides {env.game.pending().kind}" in text


def test_a_ruleset_without_an_observation_is_refused_naming_those_with_one():
    blind = dataclasses.replace(REFUELLED, name="blind", observation=None)
    with pytest.raises(ValueError, match=r"ruleset 'blind' declares no observation for the "
                       r"environment \(rulesets that do: devils-run, kart, legacy, refuelled\)"):
        carnage.rl.env(ruleset=blind)


def test_an_observation_of_the_wrong_length_is_refused_naming_the_ruleset():
    wrong = ObservationOffer(size=4, encode=lambda game, seat: [0.0, 1.0, 2.0],
                             default_scenario="street-race")
    env = carnage.rl.env(ruleset=dataclasses.replace(REFUELLED, name="short", observation=wrong))
    env.reset(seed=1)
    with pytest.raises(ValueError, match="ruleset 'short': its observation has 3 values, "
                                         "not the 4 it declares"):
        env.observe(env.agent_selection)


def test_a_ruleset_given_as_an_object_without_a_scenario_list_needs_a_scenario():
    bare = dataclasses.replace(REFUELLED, name="bare", scenario_list=None,
                               observation=ObservationOffer(size=1, encode=lambda g, s: [0.0]))
    with pytest.raises(ValueError, match="ruleset 'bare' lists no scenario: name one"):
        carnage.rl.env(ruleset=bare)
    env = carnage.rl.env(ruleset=bare, scenario="street-race")
    env.reset(seed=1)
    assert env.observe(env.agent_selection)["observation"].tolist() == [0.0]


def test_a_text_render_without_the_rulesets_text_says_who_decides():
    plain = dataclasses.replace(
        REFUELLED, name="plain",
        observation=ObservationOffer(size=1, encode=lambda g, s: [0.0],
                                     default_scenario="street-race"))
    env = carnage.rl.env(ruleset=plain, render_mode="ansi")
    env.reset(seed=1)
    d = env.game.pending()
    assert env.render() == f"seat {d.player + 1} decides {d.kind}: {d.prompt}"


def test_devils_run_refuses_max_rounds_its_missions_set_their_own_limit():
    with pytest.raises(ValueError, match=r"Devil's Run takes no options \['max_rounds'\]"):
        carnage.rl.env(ruleset="devils-run", max_rounds=3)


def test_an_offer_without_a_default_scenario_plays_the_rulesets_first():
    first = REFUELLED.scenario_infos()[0].id
    assert first != "street-race"
    own = dataclasses.replace(REFUELLED, name="own",
                              observation=ObservationOffer(size=1, encode=lambda g, s: [0.5]))
    env = carnage.rl.env(ruleset=own)
    env.reset(seed=1)
    assert env.scenario == first and env.game.scenario.id == first
