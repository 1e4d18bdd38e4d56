"""Playable scenarios, found by id (Refuelled pp.62, 122-153)."""

from carnage.rules.scenarios.ambush import Ambush
from carnage.rules.scenarios.arena_of_death import ArenaOfDeath
from carnage.rules.scenarios.automated_salvage import AutomatedSalvage
from carnage.rules.scenarios.base import Line, TableScenario, crosses
from carnage.rules.scenarios.big_game_hunter import BigGameHunter
from carnage.rules.scenarios.capture_the_flag import CaptureTheFlag
from carnage.rules.scenarios.death_race import DeathRace
from carnage.rules.scenarios.desert_strike import DesertStrike
from carnage.rules.scenarios.escape_the_city import EscapeTheCity
from carnage.rules.scenarios.express_delivery import ExpressDelivery
from carnage.rules.scenarios.flag_tag import FlagTag
from carnage.rules.scenarios.long_road_home import LongRoadHome
from carnage.rules.scenarios.monster_truck_smash import MonsterTruckSmash
from carnage.rules.scenarios.rescue import Rescue
from carnage.rules.scenarios.revolution_televised import RevolutionWillBeTelevised
from carnage.rules.scenarios.saturday_night_live import SaturdayNightLive
from carnage.rules.scenarios.scavenger_party import ScavengerParty
from carnage.rules.scenarios.street_race import StreetRace
from carnage.rules.scenarios.tank_commander import TankCommander
from carnage.rules.scenarios.truckasaurus import Truckasaurus
from carnage.rules.scenarios.zombie_bash import ZombieBash

SCENARIOS: dict[str, type[TableScenario]] = {
    "ambush": Ambush,
    "arena-of-death": ArenaOfDeath,
    "automated-salvage": AutomatedSalvage,
    "big-game-hunter": BigGameHunter,
    "capture-the-flag": CaptureTheFlag,
    "death-race": DeathRace,
    "desert-strike": DesertStrike,
    "escape-the-city": EscapeTheCity,
    "express-delivery": ExpressDelivery,
    "flag-tag": FlagTag,
    "long-road-home": LongRoadHome,
    "monster-truck-smash": MonsterTruckSmash,
    "rescue": Rescue,
    "saturday-night-live": SaturdayNightLive,
    "scavenger-party": ScavengerParty,
    "street-race": StreetRace,
    "tank-commander": TankCommander,
    "the-revolution-will-be-televised": RevolutionWillBeTelevised,
    "truckasaurus": Truckasaurus,
    "zombie-bash": ZombieBash,
}
"""Scenario id -> class; a game gets a fresh instance (its progress lives in the game state)."""


def scenario_class(scenario_id: str) -> type[TableScenario]:
    """The scenario registered as ``scenario_id``; ``ValueError`` naming the known ids if not."""
    try:
        return SCENARIOS[scenario_id]
    except KeyError:
        known = ", ".join(sorted(SCENARIOS))
        raise ValueError(f"unknown scenario {scenario_id!r} (known: {known})") from None


__all__ = ["SCENARIOS", "Line", "StreetRace", "TableScenario", "crosses", "scenario_class"]
