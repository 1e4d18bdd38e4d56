"""Short games of any ruleset of the registry, through its ``Ruleset.games`` alone."""

from __future__ import annotations

from carnage.kernel.ruleset import Ruleset
from carnage.kernel.session import GameMaker, GameRequest, SetupRefused

SHORT = 3
"""Rounds a short game lasts at most, where the ruleset lets the players choose."""


def short_games(rs: Ruleset, scenario: str | None = None, rounds: int = SHORT) -> GameMaker:
    """Games of ``scenario`` capped at ``rounds`` rounds; a ruleset whose scenarios set their
    own limit (Devil's Run's missions) refuses the cap by name, and plays them as they are."""
    assert rs.games is not None, f"{rs.name} makes no games from a request"
    try:
        return rs.games(GameRequest(scenario=scenario, max_rounds=rounds, only_apply=True))
    except SetupRefused as e:
        if not str(e).startswith("--max-rounds"):
            raise
    return rs.games(GameRequest(scenario=scenario, only_apply=True))
