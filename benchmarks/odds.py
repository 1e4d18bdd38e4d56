"""Odds benchmark: how long one exact-odds query takes (``carnage.games.refuelled.odds``, and the Kart
and Devil's Run odds built on it), on one core.

    .venv/bin/python benchmarks/odds.py [--quick]

For each kind of query, over a spread of sizes, prints the median and the worst time per query
in microseconds, measured cold: every cache of the module (the per-pool dice tables) is cleared
before each call, so a figure is the whole computation from nothing (skid odds have no
cache: each die ends independently, so every count is a binomial). The "warm" column is the
same query with the caches kept, as a long-running server or page sees it. The target is under
1 ms (1000 us) for every query, cold.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from carnage.catalog import Weight
from carnage.games.devilsrun.odds import d10_odds, offensive_odds, repair_odds, shoot_odds
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
from carnage.games.refuelled import odds
from carnage.games.refuelled.odds import (
    Side,
    attack_odds,
    explode_odds,
    flip_odds,
    skid_odds,
    smash_odds,
)


def clear() -> None:
    odds.hits_dist.cache_clear()
    odds.saves_dist.cache_clear()


def timed(fn: Callable[[], object], repeats: int, cold: bool,
          clock: Callable[[], float] = time.perf_counter) -> list[float]:
    out = []
    fn()  # imports and first-call set-up outside the figures
    for _ in range(repeats):
        if cold:
            clear()
        t = clock()
        fn()
        out.append((clock() - t) * 1e6)
    return out


QUERIES: list[tuple[str, Callable[[], object]]] = [
    ("attack 2 dice vs gear 2", lambda: attack_odds(2, evade_gear=2)),
    ("attack 6 dice vs gear 4, cover", lambda: attack_odds(6, evade_gear=4, cover=True)),
    ("attack 12 dice vs gear 6, headshot", lambda: attack_odds(12, evade_gear=6, crit_hits=3)),
    ("attack 20 dice vs gear 6 + JSON", lambda: attack_odds(20, evade_gear=6).to_json()),
    ("skid 3 dice", lambda: skid_odds(3, hazards=2)),
    ("skid 4 dice, push it, hazardous", lambda: skid_odds(4, push_it=True, hazardous=True,
                                                         hazards=3)),
    ("skid 6 dice, push it + JSON", lambda: skid_odds(6, push_it=True).to_json()),
    ("flip gear 4", lambda: flip_odds(4)),
    ("explode 3 ammo, heavy blast vs gear 3", lambda: explode_odds(
        3, weight=Weight.HEAVYWEIGHT, evade_gear=3)),
    ("smash head-on gear 6 vs 6, heavy vs light", lambda: smash_odds(
        "head_on", Side(6, 3), Side(6, 1))),
    ("smash t-bone gear 5 vs 2 evading", lambda: smash_odds(
        "t_bone", Side(5, 2), Side(2, 1, "evade"))),
    ("kart attack 6 dice vs gear 4, 3 hazards + JSON", lambda: kart_attack_odds(
        6, evade_gear=4, hazards=3).to_json()),
    ("kart smash head-on gear 6 vs 6 + JSON", lambda: kart_smash_odds(
        "head_on", Side(6, 3), Side(6, 1)).to_json()),
    ("devil's run D10 test", lambda: d10_odds(6)),
    ("devil's run shot RoF 3, BS 6, A 2 + JSON", lambda: shoot_odds(3, 6, 2, cp=6).to_json()),
    ("devil's run shot RoF 10, BS 8, A 3", lambda: shoot_odds(10, 8, 3)),
    ("devil's run ram + JSON", lambda: offensive_odds("ram", 5, 2).to_json()),
    ("devil's run repair roll", lambda: repair_odds()),
]


def main() -> None:
    repeats = 20 if "--quick" in sys.argv else 200
    print(f"exact odds, {repeats} queries each (us per query; cold = caches cleared first)")
    print("(wall: perf_counter, includes the machine's scheduling noise; cpu: this thread's "
          "CPU time)")
    print(f"{'query':48} {'cold median':>12} {'cold p99':>9} {'cold cpu max':>13} "
          f"{'warm median':>12}")
    worst = 0.0
    for name, fn in QUERIES:
        cold = timed(fn, repeats, cold=True)
        cpu = timed(fn, repeats, cold=True, clock=time.thread_time)
        warm = timed(fn, repeats, cold=False)
        worst = max(worst, max(cpu))
        p99 = statistics.quantiles(cold, n=100)[98]
        print(f"{name:48} {statistics.median(cold):12.1f} {p99:9.1f} {max(cpu):13.1f} "
              f"{statistics.median(warm):12.1f}")
    print(f"slowest cold query, CPU time: {worst:.1f} us "
          f"({'under' if worst < 1000 else 'OVER'} the 1 ms target)")


if __name__ == "__main__":
    main()
