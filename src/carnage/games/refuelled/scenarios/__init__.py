"""Playable scenarios, found by id (Refuelled pp.62, 122-153)."""

from carnage.games.refuelled.scenarios.ambush import Ambush
from carnage.games.refuelled.scenarios.arena_of_death import ArenaOfDeath
from carnage.games.refuelled.scenarios.automated_salvage import AutomatedSalvage
from carnage.games.refuelled.scenarios.base import Line, TableScenario, crosses
from carnage.games.refuelled.scenarios.big_game_hunter import BigGameHunter
from carnage.games.refuelled.scenarios.capture_the_flag import CaptureTheFlag
from carnage.games.refuelled.scenarios.death_race import DeathRace
from carnage.games.refuelled.scenarios.desert_strike import DesertStrike
from carnage.games.refuelled.scenarios.escape_the_city import EscapeTheCity
from carnage.games.refuelled.scenarios.express_delivery import ExpressDelivery
from carnage.games.refuelled.scenarios.flag_tag import FlagTag
from carnage.games.refuelled.scenarios.long_road_home import LongRoadHome
from carnage.games.refuelled.scenarios.monster_truck_smash import MonsterTruckSmash
from carnage.games.refuelled.scenarios.rescue import Rescue
from carnage.games.refuelled.scenarios.revolution_televised import RevolutionWillBeTelevised
from carnage.games.refuelled.scenarios.saturday_night_live import SaturdayNightLive
from carnage.games.refuelled.scenarios.scavenger_party import ScavengerParty
from carnage.games.refuelled.scenarios.street_race import StreetRace
from carnage.games.refuelled.scenarios.tank_commander import TankCommander
from carnage.games.refuelled.scenarios.truckasaurus import Truckasaurus
from carnage.games.refuelled.scenarios.zombie_bash import ZombieBash

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
