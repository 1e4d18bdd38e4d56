"""The check every random-simulation test makes at random decisions: a clone and a snapshot
restored from JSON continue exactly as the game itself does."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import carnage
from carnage.kernel import jsontext
from carnage.kernel.codec import encode

STEPS = 12
"""Choices played on after the copy, on the game and on both copies alike."""


def _view(g: Any) -> tuple[Any, ...]:
    d = g.pending()
    head = None if d is None else (d.player, d.kind, d.options, d.domain, d.vehicle)
    return head, [e.to_json() for e in g.log.events], json.loads(json.dumps(encode(g.state)))


def _where(a: Any, b: Any, path: str = "state") -> str:
    """The first place two encoded states differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _where(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:120]} != {str(b)[:120]}"


def copies_diverge(game: Any, bots: Sequence[Any], rng: random.Random,
                   steps: int = STEPS, invariants: Any = None) -> str | None:
    """Clone ``game`` and restore it from a round trip of its snapshot through JSON text (as
    the web server's database writes and reads it: ``kernel/jsontext.py``); play ``steps``
    choices (the bots', from ``rng``) on all three; None if they stayed identical, else what
    differed. The game itself goes on from there."""
    clone = game.clone()
    doc = jsontext.loads(jsontext.dumps(game.snapshot()))
    restored = carnage.restore(doc)
    for i in range(steps + 1):
        want = _view(game)
        for name, other in (("clone", clone), ("restored", restored)):
            got = _view(other)
            if got != want:
                what = ("pending decision" if got[0] != want[0] else
                        "log" if got[1] != want[1] else _where(want[2], got[2]))
                return f"{name} differs from the game after {i} choices: {what}"
        d = game.pending()
        if d is None or i == steps:
            return None
        choice = bots[d.player % len(bots)].choose(game, d, rng)
        for g in (game, clone, restored):
            g.apply(choice)
        found = [] if invariants is None else invariants(game)
        if found:
            return f"after choice {len(game.choices)} ({d.kind}): {found[0]}"
    return None


class SpotCheck:
    """Checks copies at random decisions of one game (about one in ``every``), at most
    ``most`` times; ``checked`` counts them. Call it after each applied choice. Give it the
    bots and the random stream the game is played with: the choices it plays on are then the
    very ones the game would have had, so a seed plays the same game with or without it."""

    def __init__(self, seed: int, bots: Sequence[Any], rng: random.Random, every: int = 30,
                 most: int = 2, invariants: Any = None) -> None:
        self.pick = random.Random(f"copies:{seed}")
        self.rng = rng
        self.bots, self.every, self.most = bots, every, most
        self.invariants = invariants
        """Checked after each choice played on (the game's own checks)."""
        self.checked = 0

    def __call__(self, game: Any, problems: list[str]) -> None:
        if self.checked >= self.most or game.pending() is None or problems:
            return
        if self.pick.randrange(self.every) != 0:
            return
        self.checked += 1
        found = copies_diverge(game, self.bots, self.rng, invariants=self.invariants)
        if found:
            problems.append(f"after choice {len(game.choices)}: {found}")
