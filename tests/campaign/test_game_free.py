"""The campaign layer, the campaign desk of the web table and the ``carnage campaign`` commands
reach a game only through the campaign modes interface (``carnage.campaign.modes.Mode``) and
the kernel's contracts: a mode's set-up is an ``EventSetup``, its game a ``PlayableGame``, a
roster is written and priced by the mode. The modes (in the games' packages) keep their side:
they refuse a set-up or a game that is not theirs with a ``SeasonError`` naming it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.imports import edges_of, modules

from carnage.campaign.modes import MODES, Mode
from carnage.campaign.steps import SeasonError, extended
from carnage.campaign.store import Campaign
from carnage.kernel.campaign_modes import EventSetup
from carnage.kernel.contract import PlayableGame
from carnage.kernel.session import SetupRefused
from carnage.team import check_team, load_team, parse_team

INTRO = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"

GENERIC = ("carnage.web.campaigns", "carnage.web.campaigndesk", "carnage.cli.campaign_cmd")
"""The campaign desk and commands, besides the campaign layer (``carnage.campaign``)."""


def test_the_campaign_layer_desk_and_commands_import_no_game_package() -> None:
    """Every import counts: at the top, inside a function, for the type checker."""
    edges = edges_of(modules())
    ours = [m for m in edges if m in GENERIC or m == "carnage.campaign"
            or m.startswith("carnage.campaign.")]
    assert set(GENERIC) <= set(ours) and "carnage.campaign.modes" in ours
    assert sorted((m, t) for m in ours for t in edges[m]
                  if t == "carnage.games" or t.startswith("carnage.games.")) == []


def _season(mode: str) -> tuple[Mode, Campaign]:
    m = MODES[mode]
    opts = m.options({})
    team = load_team(INTRO)
    recs = m.start(opts, [team.model_copy(update={"name": f"T{i}"}) for i in range(2)])
    return m, extended(Campaign("c", mode, opts, 1, datetime.now(UTC), ()), recs)


def test_a_mode_writes_and_prices_a_roster_for_the_desk_and_the_commands() -> None:
    spec = load_team(INTRO)
    for mid, m in MODES.items():
        doc = m.team_json(spec)
        assert parse_team(doc, mid) == spec, mid
        assert "career" not in doc["vehicles"][0], mid  # unset fields are left out
        assert m.team_cost(spec) == check_team(spec).total_cans > 0, mid


def test_the_next_game_is_an_event_setup_the_mode_builds_with_its_cap() -> None:
    m, c = _season("escalating")
    ev = m.next_event(c)
    assert ev is not None
    setup = m.setup(c, ev)
    assert isinstance(setup, EventSetup) and setup.scenario == ev.scenario
    capped = setup.with_max_rounds(2)
    assert (capped.max_rounds, capped.scenario) == (2, setup.scenario)
    assert setup.max_rounds != 2  # the set-up itself is unchanged
    game = m.new_game(capped, 5)
    assert isinstance(game, PlayableGame) and game.pending() is not None


def test_a_mode_refuses_a_setup_or_a_game_of_another_ruleset() -> None:
    from carnage.rulesets import get_ruleset

    m, c = _season("championship")
    ev = m.next_event(c)
    assert ev is not None
    foreign = get_ruleset("devils-run").new_game(seed=1)
    for mode in (m, MODES["legacy"]):
        with pytest.raises(SeasonError, match="DevilsRunGame is not a game of this campaign"):
            mode.post_game(c, ev, foreign, "g1", 7)
        with pytest.raises(SeasonError, match="str is not the set-up of a game"):
            mode.new_game("street-race", 7)


def test_a_setup_the_game_refuses_is_the_kernels_refusal() -> None:
    """The desk catches the kernel's ``SetupRefused``; the games' own set-up error is one."""
    m, c = _season("escalating")
    ev = m.next_event(c)
    assert ev is not None
    setup = m.setup(c, ev)
    from dataclasses import replace

    from carnage.rulesets import build_game

    with pytest.raises(SetupRefused, match="unknown scenario"):
        build_game(replace(setup, scenario="no-such-race"), 1)
    with pytest.raises(SeasonError, match="unknown scenario"):
        m.new_game(replace(setup, scenario="no-such-race"), 1)
