"""Guarded-door benchmark: what the input limits cost on good input and how fast hostile input
is refused, on this machine.

    .venv/bin/python benchmarks/guard.py [--repeat 200]

Times (best and median of ``--repeat`` runs, in milliseconds): reading each example team file
with PyYAML's plain safe loader and through ``carnage.guard`` (the difference is the price of
the limits); a 1 MB JSON body and an 18,001-value document through the JSON guard; and the
refusals of the hostile inputs named in ``tests/guard/test_guard.py`` (alias bomb, 5,000-digit
and hex integers, 5,000-deep nesting). Deep YAML flow nesting costs a fixed ~0.2 s whatever
its depth: PyYAML's scanner looks up to 1,024 characters ahead for a possible key before the
composer sees the first level too many.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from carnage import guard  # noqa: E402

BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{c}: &{c} [{','.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdef", "bcdefg", strict=True))


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.suppress(guard.InputRefused):
            fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return min(runs), statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    n = ap.parse_args().repeat
    rows: list[tuple[str, tuple[float, float]]] = []
    for p in sorted((ROOT / "examples" / "teams").glob("*.yaml")):
        text = p.read_text()
        rows.append((f"{p.name}: yaml.safe_load", timed(lambda t=text: yaml.safe_load(t), n)))
        rows.append((f"{p.name}: guard.load_yaml",
                     timed(lambda t=text: guard.load_yaml(t, guard.TEAM_FILE), n)))
    body = json.dumps({"text": "x" * (1024 * 1024 - 100), "format": "yaml"})
    rows.append(("1 MB JSON body: json.loads", timed(lambda: json.loads(body), n)))
    rows.append(("1 MB JSON body: guard.api_body", timed(lambda: guard.api_body(body.encode()),
                                                          n)))
    doc = json.dumps([{"id": i, "x": i * 0.5} for i in range(6000)])
    rows.append(("18,001-value document: guard.load_json",
                 timed(lambda: guard.load_json(doc, guard.SNAPSHOT), n)))
    hostile = {
        "alias bomb (437 bytes)": lambda: guard.load_yaml(BOMB, guard.TEAM_FILE),
        "5,000-digit integer (YAML)": lambda: guard.load_yaml("a: " + "9" * 5000,
                                                              guard.TEAM_FILE),
        "4,000-digit hex integer (YAML)": lambda: guard.load_yaml("a: 0x" + "f" * 4000,
                                                                  guard.TEAM_FILE),
        "5,000-deep nesting (YAML)": lambda: guard.load_yaml("[" * 5000 + "]" * 5000,
                                                             guard.TEAM_FILE),
        "30,000-deep nesting (JSON)": lambda: guard.load_json("[" * 30_000 + "]" * 30_000,
                                                               guard.TEAM_FILE),
        "5,000-digit integer (JSON)": lambda: guard.load_json("[" + "9" * 5000 + "]",
                                                              guard.TEAM_FILE),
    }
    for name, fn in hostile.items():
        rows.append((f"refuse {name}", timed(fn, n)))
    width = max(len(r[0]) for r in rows)
    print(f"{'input':<{width}}  {'best ms':>9}  {'median ms':>9}")
    for name, (best, med) in rows:
        print(f"{name:<{width}}  {best:>9.3f}  {med:>9.3f}")


if __name__ == "__main__":
    main()
