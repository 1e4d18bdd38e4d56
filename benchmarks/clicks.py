"""Actions per activation at the web table: a person's clicks, counted.

    .venv/bin/python benchmarks/clicks.py [--seeds 3] [--first-seed 1]

Plays Street Races (a human seat against the heuristic bot) through the web API in-process,
the human's choices being what the heuristic bot would choose for it (tests/web/clicks_player.py),
and counts each POST the human makes as one action; answers the server takes by itself are not
counted. Prints actions per activation of the human's vehicles (median, p90, max, mean) for:

* before: every question asked, one POST per decision, no shortcuts, no automatic answers
  (the table as it was);
* after: the server answers what cannot matter and what the seat's preferences say, and the
  person uses the table's shortcuts (template with its dice, keep-and-spend, fire everything).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.clicks_player import Player, new_street_race  # noqa: E402

from carnage.web.app import create_app  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def run(mode: str, seed: int, db: Path) -> Player:
    client = TestClient(create_app(f"sqlite:///{db}"))
    if mode == "before":
        client.app.state.games.assisted = False
    gid, token = new_street_race(client, seed)
    p = Player(client, gid, token, "plain" if mode == "before" else "shortcuts", seed)
    p.play()
    return p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("before", "after"):
            acts: list[int] = []
            off = picks = 0
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                p = run(mode, seed, Path(tmp) / f"{mode}-{seed}.db")
                acts += p.counts.per_activation
                off += p.counts.off_turn
                picks += p.counts.picks
                s = p.counts.summary()
                print(f"{mode:6} seed {seed}: {s['activations']} activations, median "
                      f"{s['median']}, p90 {s['p90']}, max {s['max']}, mean {s['mean']}, "
                      f"off-turn actions {s['off_turn']}, finished {p.counts.finished}")
            acts.sort()
            p90 = acts[min(len(acts) - 1, round(0.9 * (len(acts) - 1)))]
            print(f"{mode:6} all: {len(acts)} activations, actions per activation median "
                  f"{statistics.median(acts)}, p90 {p90}, max {acts[-1]}, mean "
                  f"{statistics.fmean(acts):.2f}; off-turn actions {off}; clicks that send "
                  f"nothing (a vehicle's templates shown, other skid dice) {picks}")


if __name__ == "__main__":
    main()
