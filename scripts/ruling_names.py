"""Write ``src/carnage/games/refuelled/data/ruling_names.yaml`` from ``docs/rulings.md``: each
ruling id -> the name of its topic (the table's second column, without its page and inventory
references), so a log line citing a ruling names it in words. Devil's Run's DRR rulings have
their own data (games/devilsrun/data/rulings.yaml). Run after adding a ruling:

    python scripts/ruling_names.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rulings.md"
OUT = ROOT / "src" / "carnage" / "games" / "refuelled" / "data" / "ruling_names.yaml"
ROW = re.compile(r"^\|\s*([A-Z]{1,5}(?:-[A-Z])?-\d+)\s*\|\s*([^|]+?)\s*\|")


def topic_name(topic: str) -> str:
    """A ruling's topic without its references: "Ties (G-20)" -> "Ties"."""
    return re.sub(r"\s*\([^)]*\)", "", topic).strip()


def ruling_names(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m and m.group(1) not in out and not m.group(1).startswith("DRR-"):
            out[m.group(1)] = topic_name(m.group(2))
    return out


def render(names: dict[str, str]) -> str:
    head = ("# Ruling id -> the name of its topic, written by scripts/ruling_names.py from\n"
            "# docs/rulings.md (our own words). A log line citing a ruling says its name.\n")
    return head + "".join(f"{k}: {json.dumps(v)}\n" for k, v in names.items())


def main() -> int:
    OUT.write_text(render(ruling_names(DOCS.read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
