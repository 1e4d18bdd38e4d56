"""Playable scenarios, found by id (Refuelled pp.62, 122-151)."""

from carnage.rules.scenarios.arena_of_death import ArenaOfDeath
from carnage.rules.scenarios.base import Line, TableScenario, crosses
from carnage.rules.scenarios.capture_the_flag import CaptureTheFlag
from carnage.rules.scenarios.desert_strike import DesertStrike
from carnage.rules.scenarios.flag_tag import FlagTag
from carnage.rules.scenarios.street_race import StreetRace
from carnage.rules.scenarios.tank_commander import TankCommander

SCENARIOS: dict[str, type[TableScenario]] = {"street-race": StreetRace}
SCENARIOS["capture-the-flag"] = CaptureTheFlag
SCENARIOS["flag-tag"] = FlagTag
SCENARIOS["arena-of-death"] = ArenaOfDeath
SCENARIOS["desert-strike"] = DesertStrike
SCENARIOS["tank-commander"] = TankCommander
"""Scenario id -> class; a game gets a fresh instance (scenarios keep per-game state)."""


def scenario_class(scenario_id: str) -> type[TableScenario]:
    """The scenario registered as ``scenario_id``; ``ValueError`` naming the known ids if not."""
    try:
        return SCENARIOS[scenario_id]
    except KeyError:
        known = ", ".join(sorted(SCENARIOS))
        raise ValueError(f"unknown scenario {scenario_id!r} (known: {known})") from None


__all__ = ["SCENARIOS", "Line", "StreetRace", "TableScenario", "crosses", "scenario_class"]
