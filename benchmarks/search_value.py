"""How well the search bot's value of a Refuelled-based position (``RefuelledAdapter``, shared by
Refuelled, the Kart variant and Legacy) foretells who wins, read wherever a rollout could cut.

    .venv/bin/python benchmarks/search_value.py [--ruleset refuelled,kart,legacy]
        [--scenario street-race] [--games 300] [--seed 1000] [--moves 0,250]
        [--scales 120,250,550]

Plays ``--games`` heuristic-against-heuristic games (game i seeded SEED + i) and, before every
decision from the first round on, reads seat 1's lead (``RefuelledAdapter.scores``) with each
of ``--moves`` as the worth of a move still to come in the Gear Phase (``MOVE``; 0: not
counted). It prints, per ruleset:

* the progress one activation made (``_progress`` of the vehicle just before its move and once
  it has moved, in that phase): its median, quartiles and mean, by the gear it started in;
* for each ``MOVE``: how often the side of the lead named the winner, over the positions
  within 40 and 80 decisions of the game's end; and the mean log loss of the value
  (``lead_values`` at each of ``--scales``) against the result, over all positions and over
  those in the middle of a Gear Phase (one seat has moved in it, the other has a vehicle yet to
  move). Drawn games are left out. Lower log loss is better; ln 2 = 0.693 is a coin's.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from carnage.ai import bot_rng
from carnage.ai.search import lead_values
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.rulesets import get_ruleset


@dataclass
class Sample:
    left: int
    """Decisions from here to the game's end."""
    mid_phase: bool
    leads: dict[float, float]
    """Seat 1's lead by ``MOVE``."""


@dataclass
class Measured:
    samples: list[tuple[int | None, Sample]] = field(default_factory=list)
    """The game's winner (None: a draw) and each position read."""
    moves: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Progress over one activation, by the gear it started in."""


def _mid_phase(ad: RefuelledAdapter, game: Game) -> bool:
    """One seat has a vehicle that has moved in this phase, the other none, but one to come."""
    st = game.state
    if st.flow.stage != "turns":
        return False
    moved, coming = [False, False], [False, False]
    for v in st.in_play():
        if v.player not in (0, 1):
            continue
        if ad._to_come(game, v):
            coming[v.player] = True
        elif st.gear_phase in v.activated_phases:
            moved[v.player] = True
    return any(moved[p] and coming[1 - p] and not moved[1 - p] for p in (0, 1))


def play(ruleset: str, scenario: str, seed: int, moves: list[float], out: Measured) -> None:
    game = get_ruleset(ruleset).new_game(scenario=scenario, seed=seed)
    if not isinstance(game, Game) or game.players != 2:
        raise SystemExit(f"{ruleset} {scenario}: a two-seat Refuelled-based game is measured")
    bots, rng = [HeuristicBot(), HeuristicBot()], bot_rng(seed)
    ad = RefuelledAdapter(2)
    before: dict[tuple[str, int, int], tuple[float, int]] = {}
    read: list[tuple[int, Sample]] = []
    n = 0
    while (d := game.pending()) is not None:
        n += 1
        st = game.state
        if st.round >= 1:
            leads = {}
            for m in moves:
                ad.MOVE = m
                s = ad.scores(game)
                leads[m] = s[0] - s[1]
            ad.MOVE = RefuelledAdapter.MOVE
            read.append((n, Sample(0, _mid_phase(ad, game), leads)))
            for v in st.in_play():
                key = (v.id, st.round, st.gear_phase)
                if ad._to_come(game, v):
                    before[key] = (ad._progress(game, v), v.gear)
                elif key in before and st.gear_phase in v.activated_phases:
                    p0, g0 = before.pop(key)
                    out.moves[g0].append(ad._progress(game, v) - p0)
        game.apply(bots[d.player % 2].choose(game, d, rng))
    o = game.outcome()
    winner = None if o is None or o.draw else o.winner
    for i, s in read:
        s.left = n - i
        out.samples.append((winner, s))


def report(name: str, m: Measured, moves: list[float], scales: list[float]) -> None:
    every = [x for xs in m.moves.values() for x in xs]
    if every:
        q = statistics.quantiles(every, n=4)
        by_gear = ", ".join(f"gear {g}: {statistics.median(xs):.0f} ({len(xs)})"
                            for g, xs in sorted(m.moves.items()))
        print(f"{name}: one activation's progress, median {q[1]:.0f} [quartiles {q[0]:.0f}, "
              f"{q[2]:.0f}], mean {statistics.mean(every):.0f}; median by gear: {by_gear}")
    decided = [(w, s) for w, s in m.samples if w is not None]
    for mv in moves:
        acc = []
        for last in (40, 80):
            near = [(w, s) for w, s in decided if s.left < last]
            right = sum((s.leads[mv] > 0) == (w == 0) for w, s in near)
            acc.append(f"{right / max(len(near), 1):.3f} of {len(near)} within {last}")
        losses = []
        for subset, label in ((decided, "all"), ([x for x in decided if x[1].mid_phase],
                                                  "mid-phase")):
            row = []
            for sc in scales:
                tot = 0.0
                for w, s in subset:
                    v = lead_values([s.leads[mv], 0.0], sc)[0]
                    tot -= math.log(v if w == 0 else 1.0 - v)
                row.append(f"{sc:.0f}: {tot / max(len(subset), 1):.4f}")
            losses.append(f"{label} ({len(subset)}) " + ", ".join(row))
        print(f"  MOVE {mv:.0f}: lead names the winner {'; '.join(acc)}; log loss by scale, "
              + "; ".join(losses))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="refuelled,kart,legacy")
    ap.add_argument("--scenario", default="street-race")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--moves", default="0,250")
    ap.add_argument("--scales", default="120,250,550")
    a = ap.parse_args()
    moves = [float(x) for x in a.moves.split(",")]
    scales = [float(x) for x in a.scales.split(",")]
    for rs in a.ruleset.split(","):
        m = Measured()
        for i in range(a.games):
            play(rs, a.scenario, a.seed + i, moves, m)
        report(f"{rs} {a.scenario}, {a.games} games from seed {a.seed}", m, moves, scales)


if __name__ == "__main__":
    main()
