"""Choosing a scenario by rolling on one of the book's three tables (G-03, p.122).

``random:televised``, ``random:skirmish`` and ``random:special`` in place of a scenario id
roll a D6 on the Televised Event, Wasteland Skirmish or Special Event table. The die comes
from dice seeded with the game's seed (``SeededDice(seed)``: the first die the game's seed
gives), so a replay of the log, whose header keeps ``random:<table>`` and the seed, rolls the
same; the result is the game's first event (``scenario_roll``).
"""

from __future__ import annotations

from carnage.games.refuelled.scenarios.base import SKIRMISH, SPECIAL, TELEVISED
from carnage.kernel.dice import SeededDice
from carnage.kernel.ruleset import RandomTable

PAGE = 122
RANDOM_PREFIX = "random:"
TABLE_NAMES = {"televised": TELEVISED, "skirmish": SKIRMISH, "special": SPECIAL}
ROLLS: dict[str, dict[int, str]] = {
    TELEVISED: {1: "death-race", 2: "death-race", 3: "arena-of-death", 4: "capture-the-flag",
                5: "flag-tag", 6: "saturday-night-live"},
    SKIRMISH: {1: "automated-salvage", 2: "express-delivery", 3: "scavenger-party",
               4: "scavenger-party", 5: "the-revolution-will-be-televised", 6: "zombie-bash"},
    SPECIAL: {1: "big-game-hunter", 2: "desert-strike", 3: "monster-truck-smash",
              4: "monster-truck-smash", 5: "tank-commander", 6: "truckasaurus"},
}
"""The three D6 tables of p.122 (G-03): table -> roll -> scenario id."""

RANDOM_TABLES = tuple(RandomTable(RANDOM_PREFIX + name, table, PAGE)
                      for name, table in TABLE_NAMES.items())
"""What a new game may name in place of a scenario to roll on a table (``TableOffer``)."""


def roll_scenario(spec: str, seed: int | str, known: set[str] | None = None) -> tuple[str, str,
                                                                                      int]:
    """(scenario id, table, die) for ``random:<table>`` and the game's seed. ``ValueError``
    naming the tables for an unknown one, or naming the scenario if ``known`` lacks it."""
    name = spec[len(RANDOM_PREFIX):].strip().lower()
    if name not in TABLE_NAMES:
        raise ValueError(f"unknown scenario table {name!r} in {spec!r} "
                         f"(known: {', '.join('random:' + n for n in TABLE_NAMES)})")
    table = TABLE_NAMES[name]
    die = SeededDice(seed).roll(1)[0]
    sid = ROLLS[table][die]
    if known is not None and sid not in known:
        raise ValueError(f"rolled {die} on the {table} table: {sid}, which this build does not "
                         "play yet")
    return sid, table, die
