"""Plain words in every ruleset's log: seeded bot games of every ruleset of the registry, a
spread of scenarios, every log line as the table shows it (``tabletop_of(ruleset).log_lines``,
what ``GET /api/games/{id}/log`` serves: its sentence and the rule it cites). No line shows
a coordinate, a raw decision value, a rule or inventory id in place of the rule, a seat number
in place of the seat's colour or team, or float noise, and no line says the same as the line
before it (a choice made twice in a row is told as made "again")."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from carnage.ai import bot_rng, bots_for, play_out
from carnage.kernel.session import GameRequest, SetupRefused
from carnage.render.table_schemas import LogLine
from carnage.rulesets import RULESETS
from carnage.web.sessions import tabletop_of

LEGACY_CHAPTER = "chapter_rules=corrosive-pools,snatch,refrigerator,nano-tech,dinosaurs"
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("refuelled", "street-race", ()),
    ("refuelled", "death-race", ()),
    ("refuelled", "capture-the-flag", ()),  # a team game with spawn points and tokens
    ("refuelled", "express-delivery", ()),  # secret slips and exits
    ("refuelled", "arena-of-death", ()),
    ("refuelled", "big-game-hunter", ()),
    ("refuelled", "zombie-bash", ()),
    ("refuelled", "flag-tag", ()),
    ("refuelled", "ambush", ()),  # a War Rig scenario
    ("kart", "street-race", ()),
    ("kart", "death-race", ()),
    ("legacy", "death-race", (LEGACY_CHAPTER,)),  # a chapter: its rules on the grid start
    ("devils-run", "devils-run", ()),
    ("devils-run", "hell-on-wheels", ()),
]
SEEDS = (1, 2)
ROUNDS = 3

CODES = {
    "coordinates": re.compile(r"\(\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\)"
                              r"|\b[xy] -?\d|\bcolumn \d+, row \d+"),
    "raw decision value": re.compile(r"\b\d+:\d+(?::\d+)*\b|\br\d+c\d+\b|\d,[-+]?\d"
                                     r"|:(?:up|down)\b|\b[a-z]+:[a-z]+\b"),
    "rule or inventory id": re.compile(r"\b[A-Z]{1,4}-\d{1,4}\b|rulebook lines"),
    "seat number": re.compile(r"\b(?:[Pp]layer|[Ss]eat|owner|side|held by) -?\d|\b[Pp]\d\b"
                              r"|\b[a-z]+-p\d"),
    "float noise": re.compile(r"\d\.\d*°|\b\d+\.0\b|\d\.\d{2,}"),
    "raw data": re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|\?:"),
    "object id": re.compile(r"\b[a-z]+-\d+\b|\b[a-z ]+:\d+\b|\b[a-z]+-[a-z]+-[a-z]+\b"),
}


def codes(text: str) -> list[str]:
    return [what for what, pat in CODES.items() if pat.search(text)]


def log_of(ruleset: str, scenario: str, options: tuple[str, ...], seed: int) -> list[str]:
    return [t for ln in lines_of(ruleset, scenario, options, seed) for t in (ln.text, ln.rule)
            if t]


def played(ruleset: str, scenario: str, options: tuple[str, ...], seed: int = 1) -> Any:
    """A seeded game of ``ruleset``'s ``scenario`` played out by a heuristic and a random bot
    (``ROUNDS`` rounds where the scenario takes a limit)."""
    rs = RULESETS[ruleset]
    assert rs.games is not None
    try:
        maker = rs.games(GameRequest(scenario=scenario, max_rounds=ROUNDS, only_apply=True,
                                     options=options))
    except SetupRefused:  # a Devil's Run mission keeps its own turn limit
        maker = rs.games(GameRequest(scenario=scenario, only_apply=True, options=options))
    game = maker.new_game(seed)
    seats = ["heuristic", "random"] * maker.players
    play_out(game, bots_for(rs, seats[:maker.players]), bot_rng(seed))
    return game


def lines_of(ruleset: str, scenario: str, options: tuple[str, ...], seed: int) -> list[LogLine]:
    game = played(ruleset, scenario, options, seed)
    return list(tabletop_of(RULESETS[ruleset]).log_lines(game, game.log.events, {}))


def repeats(lines: list[LogLine]) -> list[str]:
    """The lines that say exactly what the line before them said."""
    return [b.text for a, b in itertools.pairwise(lines) if a.text == b.text]


def test_the_patterns_catch_what_they_are_for() -> None:
    for bad in ("Blue Car moves to (495.0, 300.0) facing 90.0°", "Red chose r1c1 mm",
                "Spawn point (Red, x 460.0, y 10.0)", "Red chose 45:40:0", "P1 VP",
                "Kart variant MK-15: items", "DR-085 (rulebook lines 184): a rule",
                "player 0 scores", "pivots 53.131°", "heading 310.0", "Red chose 200,200",
                "The stash: placed at column 4, row 20.", "target Blue Car:up",
                "Token placed (token flag-2)", "Gun turret:1 fires", "Blue chose +0,+240",
                "Flag placed (obstacle flag-p2)", "wreck p1 big rig", "centre:east",
                "Pole held (held by 1)"):
        assert codes(bad), bad
    for good in ("Blue Car moves 150 mm ahead and turns 45° right",
                 "Red rolled 2 dice for pole roll-off: 3, 4 (p.62)",
                 "Kart variant: item attacks (our ruling)", "Red wins: 3 Victory Points",
                 "Haul's Angels Trike goes for a T-bone on Law Bike."):
        assert not codes(good), good


@pytest.mark.parametrize(("ruleset", "scenario", "options"), CASES,
                         ids=[f"{r}:{s}" for r, s, _ in CASES])
def test_bot_game_logs_speak_plain_words(ruleset: str, scenario: str,
                                         options: tuple[str, ...]) -> None:
    bad: dict[str, str] = {}
    for seed in SEEDS:
        for text in log_of(ruleset, scenario, options, seed):
            found = codes(text)
            if found:
                bad.setdefault(", ".join(found), text)
    assert bad == {}


@pytest.mark.parametrize(("ruleset", "scenario", "options"), CASES,
                         ids=[f"{r}:{s}" for r, s, _ in CASES])
def test_bot_game_logs_never_say_the_same_line_twice_in_a_row(
        ruleset: str, scenario: str, options: tuple[str, ...]) -> None:
    twice = {seed: repeats(lines_of(ruleset, scenario, options, seed)) for seed in SEEDS}
    assert twice == {seed: [] for seed in SEEDS}


def test_a_choice_made_again_is_told_as_such() -> None:
    from carnage.games.refuelled.table_view import repeated

    said = "Blue chose discard one Shift (p.22)"
    again = repeated(said, said)
    third = repeated(said, again)
    assert (again, third) == ("Blue chose discard one Shift again (p.22)",
                              "Blue chose discard one Shift a third time (p.22)")
    assert repeated(said, third) == "Blue chose discard one Shift a fourth time (p.22)"
    placed = "A zombie is placed in the middle of the table (p.142)"
    assert repeated(placed, placed).startswith("Another zombie is placed")
    assert repeated("Red moves 150 mm ahead", said) == "Red moves 150 mm ahead"
