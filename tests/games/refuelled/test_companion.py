"""Companion mode ("Carnage at the real table", engine/table_facts.py): the two sources of the
table's facts agree, and each kind of table question drives the rules as the book says.

The agreement test plays seeded games on the exact table while a ``RecordingTable`` notes every
fact the geometry gave the rules, then plays the same game again in companion mode, the same
choices made and each table question answered from the record. Less the questions, their
answers and the coordinates (a real table's positions are not the engine's to know, ruling
CP-1), the two logs and outcomes are identical.
"""

from __future__ import annotations

from typing import Any

import pytest

from carnage.ai import bot_rng, make_bot
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.table_facts import (
    FactReplayer,
    RecordingTable,
    is_table_question,
)
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game

COORDINATES = frozenset({"x", "y", "heading", "turned", "pivot"})
"""Fields that say where things stand: a real table's, not the engine's (ruling CP-1)."""


def recorded_game(scenario: str, ruleset: str, seed: int, bots: str
                  ) -> tuple[Game, RecordingTable]:
    """A seeded bot game on the exact table, every fact its geometry gave noted."""
    g = build_game(GameSetup(scenario=scenario, ruleset=ruleset), seed)
    assert isinstance(g, Game)
    table = RecordingTable()
    g.facts = table
    players = [make_bot(b) for b in bots.split(",")]
    rng = bot_rng(seed)
    n = 0
    while (d := g.pending()) is not None:
        n += 1
        assert n < 5000, "the game does not end"
        g.apply(players[d.player % len(players)].choose(g, d, rng))
    return g, table


def companion_replay(scenario: str, ruleset: str, seed: int, choices: list[Any],
                     facts: RecordingTable) -> tuple[Game, FactReplayer]:
    """The same game in companion mode: the same choices, the table's facts from the record."""
    g = build_game(GameSetup(scenario=scenario, ruleset=ruleset, physical=True), seed)
    assert isinstance(g, Game) and g.facts.people
    answers = FactReplayer(facts.facts)
    made = iter(choices)
    while (d := g.pending()) is not None:
        g.apply(answers.choose(d) if is_table_question(d) else next(made))
    assert next(made, None) is None, "the companion game ended before its choices did"
    return g, answers


def plain_log(g: Game) -> list[dict[str, Any]]:
    """The log less the table's questions, their answers and the coordinates."""
    out = []
    for e in g.log:
        j = e.to_json()
        data = dict(j.get("data") or {})
        if e.kind == "table_fact" or (e.kind in ("decision", "forced_choice")
                                      and str(data.get("decision", "")).startswith("table:")):
            continue
        data = {k: v for k, v in data.items() if k not in COORDINATES}
        if e.kind == "pivot":  # a real table names only what the turn newly met (CP-1)
            data.pop("touched", None)
            data.pop("requested", None)  # a turn to a facing is an angle from the pose
        j.pop("seq")  # the questions take places in the log
        out.append({**j, "data": data})
    return out


CASES = [
    *(("street-race", "refuelled", s, "random,random") for s in range(8)),
    *(("street-race", "refuelled", s, "heuristic,random") for s in range(100, 104)),
    *(("arena-of-death", "refuelled", s, "random,random") for s in range(3)),
    *(("death-race", "refuelled", s, "random,random") for s in range(2)),
    *(("street-race", "kart", s, "random,random") for s in range(3)),
]


@pytest.mark.parametrize(("scenario", "ruleset", "seed", "bots"), CASES,
                         ids=[f"{c[1]}-{c[0]}-{c[2]}" for c in CASES])
def test_the_two_tables_agree(scenario: str, ruleset: str, seed: int, bots: str) -> None:
    exact, record = recorded_game(scenario, ruleset, seed, bots)
    assert record.facts, "the game measured nothing"
    companion, answers = companion_replay(scenario, ruleset, seed, list(exact.choices),
                                          record)
    assert answers.used == len(record.facts)
    assert companion.outcome() == exact.outcome()
    got, want = plain_log(companion), plain_log(exact)
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        assert a == b, f"event {i} differs"
    assert len(got) == len(want)
