"""The Devil's Run table's plain words: every question, option and log event met in seeded
bot games of both missions reads as words, with no internal ids or codes."""

from __future__ import annotations

import random
import re

import pytest

from carnage.games.devilsrun import text as drtext
from carnage.games.devilsrun.bots import bot
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.kernel.events import Event

CODE = re.compile(r"\b(law|ha)-(bike|buggy|car|trike)\b|_|\b\d+,\d+\b|\b(FL|FR|sl|sr|dl|dr)\b")


def _events(game: DevilsRunGame) -> list[Event]:
    return [e for e in game.log.events if e.kind not in drtext.QUIET]


@pytest.mark.parametrize("mission", ["devils-run", "hell-on-wheels"])
def test_every_question_option_and_event_reads_as_words(mission: str) -> None:
    kinds: set[str] = set()
    decisions: set[str] = set()
    for seed in range(6):
        g = DEVILS_RUN.new_game(mission, seed=seed)
        bots = [bot("heuristic"), bot("random")]
        rng = random.Random(seed)
        while (d := g.pending()) is not None:
            decisions.add(d.kind)
            words = [drtext.question(g, d, prompt=d.prompt), *(drtext.option_label(g, d, o.value)
                                           for o in d.options)]
            for w in words:
                assert w and not CODE.search(w), f"{d.kind}: {w!r}"
            g.apply(bots[d.player](g, d, rng))
        for e in _events(g):
            text = drtext.event_text(g, e)
            kinds.add(e.kind)
            assert text != f"{e.kind.replace('_', ' ')}.", f"no sentence for {e.kind}"
            assert not CODE.search(text), f"{e.kind}: {text!r}"
    assert {"action", "step", "activate", "deploy"} <= decisions
    assert {"roll", "damage", "turn", "game_over", "activation", "moved"} <= kinds


def test_names_and_squares() -> None:
    g = DEVILS_RUN.new_game("hell-on-wheels", seed=1)
    names = sorted(drtext.vehicle_name(g, vid) for vid in g.state.vehicles)
    assert names == ["Haul's Angels Bike", "Haul's Angels Car", "Haul's Angels Trike",
                     "Law Bike", "Law Buggy", "Law Car"]
    assert drtext.square_words(0, 7) == "the first lane from the left, 8 squares up the road"
    assert drtext.gang_name(g, 1) == "The Haul's Angels"
