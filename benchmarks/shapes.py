"""Shape-query benchmark: the separating-axis test and polygon distance on the shapes games ask.

    .venv/bin/python benchmarks/shapes.py [--games N] [--seed S]

Plays ``N`` seeded heuristic Street Races, recording every ``penetration`` and ``distance``
call (their outlines), then times each function over the recorded calls: microseconds of CPU
time per call, best of five passes, next to the plain loops they replaced (``_axes`` and
``_project``, ``_seg_point_dist``), and checks that both give the same floats.
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry import shapes
from carnage.geometry.reference import plain_distance, plain_penetration
from carnage.geometry.shapes import Point

Pair = tuple[Sequence[Point], Sequence[Point]]


def record(games: int, seed: int) -> dict[str, list[Pair]]:
    """The outlines of every call made while playing the games."""
    calls: dict[str, list[Pair]] = {"penetration": [], "distance": []}
    real: dict[str, Any] = {name: getattr(shapes, name) for name in calls}
    patched: list[tuple[ModuleType, str, Any]] = []

    def recorder(name: str) -> Callable[[Sequence[Point], Sequence[Point]], float]:
        fn = real[name]

        def rec(a: Sequence[Point], b: Sequence[Point]) -> float:
            calls[name].append((list(a), list(b)))
            return float(fn(a, b))
        return rec

    for mod in list(sys.modules.values()):
        if mod is None or not getattr(mod, "__name__", "").startswith("carnage"):
            continue
        for name, fn in real.items():
            if getattr(mod, name, None) is fn:
                patched.append((mod, name, fn))
                setattr(mod, name, recorder(name))
    try:
        for s in range(seed, seed + games):
            g = build_game(GameSetup(), s)
            players = [HeuristicBot(), HeuristicBot()]
            rng = bot_rng(s)
            while (d := g.pending()) is not None:
                g.apply(players[d.player].choose(g, d, rng))
    finally:
        for owner, name, fn in patched:
            setattr(owner, name, fn)
    return calls


def per_call(fn: Callable[[Sequence[Point], Sequence[Point]], float], pairs: list[Pair]
             ) -> float:
    best = math.inf
    for _ in range(5):
        t0 = time.process_time()
        for a, b in pairs:
            fn(a, b)
        best = min(best, time.process_time() - t0)
    return 1e6 * best / max(1, len(pairs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    calls = record(args.games, args.seed)
    pack = struct.Struct("<d").pack
    print(f"shape queries of {args.games} heuristic Street Races (CPU µs a call, best of 5):")
    for name, plain in (("penetration", plain_penetration), ("distance", plain_distance)):
        pairs = calls[name]
        fast = getattr(shapes, name)
        same = all(pack(fast(a, b)) == pack(plain(a, b)) for a, b in pairs)
        print(f"  {name:11s} {len(pairs):6d} calls: {per_call(fast, pairs):6.2f} µs "
              f"(plain loops {per_call(plain, pairs):6.2f} µs); same floats: {same}")


if __name__ == "__main__":
    main()
