"""Legacy benchmark: our vehicle generator, mutations, the Legacy team check and the handicap
loop (carnage/games/legacy/), on one core.

    .venv/bin/python benchmarks/legacy.py [--quick]

Prints the median and worst time per call in microseconds and the calls per second for:
generating a vehicle from a type and a name, gaining one mutation (the 1st and the 10th),
checking a Legacy team of two, and a Team Handicap loop of four teams with a 21+ gap.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.mutations import gain_mutations, next_mutation
from carnage.games.legacy.ratings import team_handicaps
from carnage.team import check_team

TYPES = ("buggy", "car", "performance_car", "truck")


def timed(fn: Callable[[int], object], repeats: int) -> list[float]:
    fn(0)  # imports and first-call set-up outside the figures
    out = []
    for i in range(repeats):
        t = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - t) * 1e6)
    return out


def row(label: str, us: list[float]) -> None:
    med = statistics.median(us)
    print(f"{label:<42} median {med:9.1f} us   worst {max(us):9.1f} us   "
          f"{1e6 / med:9.0f}/s")


def main() -> None:
    n = 50 if "--quick" in sys.argv else 500
    row("generate a vehicle", timed(lambda i: generate_vehicle(TYPES[i % 4], f"Bench {i}"), n))
    fresh = [generate_vehicle(TYPES[i % 4], f"Bench {i}") for i in range(n)]
    row("gain the 1st mutation", timed(lambda i: next_mutation(fresh[i]), n))
    ninth = [gain_mutations(v, 9)[0] for v in fresh[: max(10, n // 10)]]
    row("gain the 10th mutation", timed(lambda i: next_mutation(ninth[i % len(ninth)]), n))
    teams = [legacy_team(f"T{i}", [fresh[i], fresh[(i + 1) % n]]) for i in range(n)]
    row("check a Legacy team of two", timed(lambda i: check_team(teams[i]), n))
    top = legacy_team("Top", [gain_mutations(fresh[0], 12)[0], gain_mutations(fresh[1], 12)[0]])
    row("handicap loop, 4 teams, one 21+ below",
        timed(lambda i: team_handicaps([top, teams[(i + 2) % n], teams[(i + 3) % n], top]),
              max(10, n // 10)))


if __name__ == "__main__":
    main()
