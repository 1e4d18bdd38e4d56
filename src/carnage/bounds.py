"""The bounds on every number a player may write: team files, table layouts, scenario
options, campaigns and the loops a command or request may size.

Each bound is here once, with the page or ruling it rests on. The schemas (the team file,
the table layout, the web API's OpenAPI), the scenario-option and campaign checks and the
command line all read them from here, so a value the rules allow is never refused and a
value no game could reach is refused before it is used (a Handling of 10^29 would ask for
that many skid-dice choices; a season of a million events would be written a million
times).

Where the book sets the number it is cited; where it is silent the bound is a ruling of ours
(docs/rulings.md, ``IN-``), chosen far above anything a game or campaign reaches.
"""

from __future__ import annotations

from typing import Any

# -- the dashboard --------------------------------------------------------------------------------
MAX_GEAR = 6
"""No vehicle's max Gear exceeds 6: a round has six Gear Phases (Refuelled p.10) and the
Nuclear Engine raises max Gear "up to a maximum of 6" (p.83; ruling TB-4)."""

LEGACY_MUTATIONS = 100
"""IN-1 (ours): the most mutations one Legacy vehicle may record. Chapters 1-5 give each
vehicle one mutation a game (Legacy "gain one mutation"), and Team Handicaps a few more
before each chapter (GL-050, GL-051): well under 20 in a whole campaign. ``carnage legacy
mutate`` and the web generator go this far too."""
LEGACY_GAIN_PER_MUTATION = {"hull": 3, "handling": 1, "crew": 1, "max_gear": 1}
"""The most one mutation adds to each stat (``legacy/data/mutations.yaml``; a ``heavier``
trait on a Heavyweight gives +1 Hull, ruling GL-R9). Checked against the table by the tests."""
LEGACY_GENERATOR_MAX = {"hull": 3, "handling": 1, "crew": 1, "max_gear": 1}
"""The most the Legacy generator's bonus rolls add (``legacy/data/generator.yaml``)."""


def _legacy_gain(stat: str) -> int:
    return LEGACY_GENERATOR_MAX[stat] + LEGACY_MUTATIONS * LEGACY_GAIN_PER_MUTATION[stat]


LEGACY_MAX_HULL = _legacy_gain("hull")
"""Hull a Legacy vehicle may have gained over its type's (IN-1: generator + mutations)."""
LEGACY_MAX_HANDLING = _legacy_gain("handling")
"""Handling gained (IN-1); Handling is the skid dice a vehicle may roll (Refuelled p.12)."""
LEGACY_MAX_CREW = _legacy_gain("crew")
"""Crew gained (IN-1); Legacy Crew is never capped (GL-047) but only mutations add it."""
LEGACY_MAX_GEAR_GAIN = MAX_GEAR
"""Max Gear gained: never more than the cap of 6 (p.83; the generator stops at 6)."""
LEGACY_MAX_BOXES = 26 + LEGACY_MAX_HULL
"""Hull boxes a Legacy vehicle may mark (corroded, filled in): the largest type's Hull
(War Rig 26, Refuelled p.68) plus the most it may have gained."""
MAX_RATING = 10_000
"""IN-2 (ours): the largest Vehicle Rating or team budget in cans. A Legacy rating is the
vehicle's price plus its mutations (Legacy "Calculate Team Rating"), a few hundred at
most; a team's cans is agreed by the players (p.64 suggests 50)."""

MAX_CAREER = 100
"""IN-3 (ours): dents, wear and losses one vehicle's career may carry (pp.162-167): at most
a few a game, over a season of at most ``MAX_SEASON_GAMES`` games."""
MAX_LIST = 128
"""IN-4 (ours): items in one list of a team file (weapons, upgrades, perks, notes of one
vehicle; vehicles of a team). Build slots (p.64) keep a Refuelled vehicle to a handful; a
Legacy vehicle has at most 4 weapons, 2 upgrades and 3 perks from the generator and one item
per mutation (``LEGACY_MUTATIONS``)."""

# -- table layouts --------------------------------------------------------------------------------
MAX_TABLE_SIZE = 5000.0
"""IN-5 (ours): the largest table side in mm a layout may ask for (the book's scenarios
play on tables of 900 to 1800 mm)."""
MAX_TABLE_ITEMS = 300
"""IN-5 (ours): obstacles, surfaces or ramps one layout may hold (each)."""

# -- scenario options -----------------------------------------------------------------------------
OPTION_INTS: dict[str, tuple[int, int]] = {
    "laps": (1, 20),
    "kills_to_win": (1, 50),
    "riggers": (0, 7),
}
"""IN-6 (ours): every whole-number scenario option's range. ``laps``: a Death Race (p.124)
is a lap or a few; ``kills_to_win``: Tank Commander wins at 3 (p.150); ``riggers``: a seat
(at most 8 players, ``guard.MAX_PLAYERS``)."""
OPTION_ITEMS = 64
"""IN-6 (ours): items in a list-valued scenario option (Death Race gates, Savage Highways
upgrades: p.124's tracks have a handful of gates; a War Rig has a few upgrades)."""
OPTION_TEXT = 2000
"""IN-6 (ours): characters in a text scenario option."""


def scenario_option(name: str, value: Any) -> str | None:
    """What is wrong with a scenario option's value, or None (``OPTION_INTS`` for whole
    numbers, ``OPTION_ITEMS`` / ``OPTION_TEXT`` for lists and text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = OPTION_INTS.get(name, (0, 1000))
        if not low <= value <= high:
            return f"{value} is outside {low}..{high}"
    if isinstance(value, list | tuple) and len(value) > OPTION_ITEMS:
        return f"more than {OPTION_ITEMS} items ({len(value)})"
    if isinstance(value, str) and len(value) > OPTION_TEXT:
        return f"longer than {OPTION_TEXT} characters"
    return None


# -- numbers on the wire --------------------------------------------------------------------------
MAX_SEED = 2**53 - 1
"""The largest dice seed (and other whole number) the web API takes: the largest integer every
JSON reader keeps exact (RFC 8259 section 6; JavaScript's ``Number.MAX_SAFE_INTEGER``), so a
seed a browser shows is the seed the server used, and a schema's bound means what it says."""

# -- campaigns and loops --------------------------------------------------------------------------
MAX_SEASON_GAMES = 100
"""IN-7 (ours): the longest season: Televised Events in a Televised Season (p.156: "a fixed
number", agreed), games in an Escalating or Championship Season (pp.154-155), events one
``campaign auto`` plays. A weekly season for two years stays under it."""
MAX_SEASON_TEAMS = 8
"""Teams in one campaign (``guard.MAX_PLAYERS``: the most players a game seats)."""
MAX_BULK_GAMES = 1_000_000
"""IN-8 (ours): games one ``carnage tourney`` or ``carnage simulate`` may play (a
proportion's 95% interval is then under 0.1% wide; more tells nothing new)."""
MAX_WORKERS = 256
"""IN-8 (ours): processes one tourney may start at once."""
