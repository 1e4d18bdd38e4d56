"""The log's lines written the quick way say exactly what they said written the slow way.

A game loaded cold writes the last lines of its log for its first view, so the log's sentences
are written in batches: the game's names worked out once for a batch (not once a line),
``plain``'s passes run only when their pattern could match, a repeated line's forms read its
text once, rule names remembered. These tests write the whole log of seeded bot games of every
ruleset, for each seat and for a spectator, both ways: the quick way the table writes it and
the old way (names worked out for each line, every pass of ``plain`` over every sentence, each
repeated form worked out afresh, rule names never remembered), and compare every line. Each
viewer's own lines are compared, so what the quick way writes for a seat is checked against
the old lines for that seat: another seat's secrets stay hidden as they were.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest
from tests.rulesets.test_plain_log import played

from carnage.games.refuelled import table_view, text, words
from carnage.games.refuelled.words import (
    Names,
    catalogue_name,
    catalogue_names,
    compass,
    player_name,
    ruling_text,
)
from carnage.kernel.events import Event
from carnage.kernel.secrets import redact_all
from carnage.web.sessions import tabletop_of

LEGACY_CHAPTER = "chapter_rules=corrosive-pools,snatch,refrigerator,nano-tech,dinosaurs"
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("refuelled", "street-race", ()),
    ("refuelled", "capture-the-flag", ()),  # seats' things ("flag-p2"), a team game
    ("refuelled", "express-delivery", ()),  # secret slips dealt face down
    ("kart", "street-race", ()),
    ("legacy", "death-race", (LEGACY_CHAPTER,)),
    ("devils-run", "devils-run", ()),
]
VIEWERS: tuple[tuple[int, ...], ...] = ((0,), (1,), ())


def plain_every_pass(said: str, names: Names) -> str:
    """``words.plain`` the old way: every pass over every sentence."""
    if not said:
        return said
    pattern = words._ids_pattern(tuple(names))
    if pattern is not None:
        said = pattern.sub(lambda m: names[m.group(0)], said)
    said = re.sub(r"(\w[\w ']*?)>(\w[\w ']*)", r"\1 at \2", said) if ">" in said else said
    said = words._MOUNT.sub(lambda m: catalogue_name(m.group(1)), said)

    def seat(m: re.Match[str]) -> str:
        n = int(m.group(1))
        s = n if m.group(0).lower().startswith("seat") else n - 1
        return player_name(names, s) if s >= 0 else m.group(0)

    said = words._SEAT.sub(seat, said)
    said = words._SIDE.sub(lambda m: "the side of " + " and ".join(
        player_name(names, int(p[1:]) - 1) for p in m.group(1).split("+")), said)
    said = words._P_SEAT.sub(lambda m: player_name(names, int(m.group(1)) - 1)
                             if int(m.group(1)) >= 1 else m.group(0), said)
    said = words._RULING.sub(lambda m: ruling_text(m.group(1)) or m.group(0), said)
    said = words._DEGREES.sub(lambda m: f"{'out to the' if m.group(1) == 'out at' else 'facing'}"
                              f" {compass(float(m.group(2)))}", said)
    said = words._PLAYER_THING.sub(lambda m: f"{player_name(names, int(m.group(2)) - 1)}'s "
                                   f"{m.group(1)}" if int(m.group(2)) >= 1 else m.group(0),
                                   said)
    said = words._VEHICLE_ID.sub(lambda m: words.words(m.group(1)).title(), said)
    said = words._CANCEL.sub(lambda m: f"cancel die {int(m.group(1)) + 1}", said)
    cat = catalogue_names()
    said = words._SNAKE.sub(lambda m: cat.get(m.group(0), words.words(m.group(0))), said)
    return words._NUMBERED.sub(r"\1 \2", said)


def repeated_afresh(said: str, before: str) -> str:
    """``table_view.repeated`` the old way: each form worked out afresh."""
    if before == said:
        return table_view.said_again(said, 2)
    if before[:8] != said[:8] and not (said.startswith("A ") and before.startswith("A")):
        return said
    for n in range(2, table_view.MAX_SAID):
        if before == table_view.said_again(said, n):
            return table_view.said_again(said, n + 1)
    return said


def one_at_a_time(game: Any, e: Event) -> str:
    """A line told alone, the game's names worked out for it (not the batch's)."""
    return text.table_event_text(game, e)


def lines(game: Any, viewers: Sequence[int]) -> list[dict[str, Any]]:
    table = tabletop_of(game.ruleset)
    shown = redact_all(game.log.events, viewers)
    return [ln.model_dump() for ln in table.log_lines(game, shown, {})]


@pytest.mark.parametrize(("ruleset", "scenario", "options"), CASES,
                         ids=[f"{r}:{s}" for r, s, _ in CASES])
def test_every_line_says_what_the_old_way_said(ruleset: str, scenario: str,
                                               options: tuple[str, ...],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = played(ruleset, scenario, options)
    quick = {v: lines(game, v) for v in VIEWERS}
    with monkeypatch.context() as m:
        m.setattr(text, "plain", plain_every_pass)
        m.setattr(table_view, "repeated", repeated_afresh)
        m.setattr(table_view, "rule_name", words.rule_name.__wrapped__)
        m.setattr(table_view, "table_event_text", one_at_a_time)  # no batch: line by line
        old = {v: lines(game, v) for v in VIEWERS}
    assert len(quick[()]) > 30
    for v in VIEWERS:
        assert quick[v] == old[v], v


def test_a_seats_secret_stays_hidden_from_the_others() -> None:
    game = played("refuelled", "express-delivery", ())
    by_seq = {v: {ln["seq"]: ln["text"] for ln in lines(game, v)} for v in VIEWERS}
    dealt = [e for e in game.log.events if e.kind == "secret" and e.data.get("text")]
    assert dealt, "no secret dealt in the game"
    for e in dealt:
        owner = e.data["player"]
        assert isinstance(owner, int)
        told = by_seq[(owner,)][e.seq]  # "Red's delivery slip: Blue's name (p.137)"
        assert "face down" not in told and ": " in told
        said = told.split(": ", 1)[1]
        for v in VIEWERS:
            if v != (owner,):
                assert said not in by_seq[v][e.seq] and "face down" in by_seq[v][e.seq]


def test_a_line_said_many_times_in_a_row_counts_on_the_old_way() -> None:
    for first in ("Blue chose discard one Shift (p.22)", "A zombie is placed (p.142)",
                  "Red passes", "Red passes."):
        quick = old = first
        for _ in range(14):
            quick, old = table_view.repeated(first, quick), repeated_afresh(first, old)
            assert quick == old
        assert "15th time" in quick or "A 15th zombie" in quick


SENTENCES = (
    "seat 0 fires machine_gun#0 at p2-big-rig", "Player 2 drops drop:mine_dropper#1",
    "Side P1+P2 wins", "P1 scores 2 VP", "P0 stays", "as ruling CP-20 says", "see CP-20",
    "out at 90 degrees", "facing -45.5 degrees", "flag-p2 is taken", "flag-p0 stays",
    "Blue chose cancel:1", "gun_turret:1 fires", "crate-1 breaks", "Sentry Gun:2 turns",
    "a>b", "nitro_boost and p1-buggy", "wreck of p1-war-rig", "", "Red passes.",
)


def test_plain_says_what_every_pass_said() -> None:
    game = played("refuelled", "street-race", ())
    names = words.state_names(game.state)
    for said in SENTENCES:
        assert words.plain(said, names) == plain_every_pass(said, names), said


def test_lines_alike_but_not_repeated_are_told_as_the_old_way_told_them() -> None:
    pairs = [("Blue chose discard one Shift (p.22)", "Blue chose gear up (p.22)"),
             ("Blue chose gear up (p.22)", "Blue chose gear up again (p.23)"),
             ("Blue chose gear up", "Blue chose gear up a third time."),
             ("A zombie is placed (p.142)", "Another crate is placed (p.142)"),
             ("A zombie is placed (p.142)", "An eighth zombie is placed (p.142)"),
             ("A zombie", "Another zombie"), ("A b", "Ab")]
    for said, before in pairs:
        assert table_view.repeated(said, before) == repeated_afresh(said, before), (said, before)
