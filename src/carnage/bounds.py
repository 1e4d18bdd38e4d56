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
per mutation (``games/legacy/bounds.py``)."""

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
