"""Seeded bot games recorded as golden data: what they must replay to exactly.

    .venv/bin/python -m tests.ai.speed_golden        # rewrite tests/ai/golden/seeded_games.json

Each game is played from scratch by the named bots (seeded dice, seeded bot randomness), so a
change to the engine *or* to the bots' choices shows up. Recorded per game: the outcome, the
number of choices and events, and SHA-256 digests of the choices and of the event log. Speed
work must leave every one of them unchanged; regenerate only for a deliberate rules change and
say so in the commit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game

GOLDEN = Path(__file__).parent / "golden" / "seeded_games.json"

CASES: list[tuple[str, str, str, int]] = [
    # (scenario, ruleset, bots, seed)
    *(("street-race", "refuelled", "heuristic,heuristic", s) for s in range(50)),
    *(("street-race", "refuelled", "heuristic,random", s) for s in range(100, 105)),
    *((sc, "refuelled", "heuristic,heuristic", s)
      for sc in ("arena-of-death", "death-race", "capture-the-flag", "zombie-bash",
                 "monster-truck-smash", "big-game-hunter", "desert-strike",
                 "the-revolution-will-be-televised", "saturday-night-live")
      for s in (0, 1)),
    *(("street-race", "kart", "heuristic,heuristic", s) for s in (0, 1)),
]


def play(scenario: str, ruleset: str, bots: str, seed: int) -> dict[str, Any]:
    g = build_game(GameSetup(scenario=scenario, ruleset=ruleset), seed)
    players = [make_bot(b) for b in bots.split(",")]
    play_out(g, players, bot_rng(seed))
    out = g.outcome()
    return {
        "scenario": scenario, "ruleset": ruleset, "bots": bots, "seed": seed,
        "outcome": None if out is None else dataclasses.asdict(out),
        "choices": len(g.choices),
        "choices_sha256": hashlib.sha256(
            json.dumps(g.choices, sort_keys=True).encode()).hexdigest(),
        "events": len(g.log),
        "log_sha256": hashlib.sha256(g.log.to_jsonl().encode()).hexdigest(),
    }


def main() -> None:
    import time

    rows = []
    for case in CASES:
        t0 = time.process_time()
        rows.append(play(*case))
        print(case, f"{time.process_time() - t0:.2f}s", rows[-1]["choices"])
    GOLDEN.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
