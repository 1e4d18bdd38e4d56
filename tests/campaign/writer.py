"""A worker writing post-game sequences as fast as it can (run as a script by the durability
test): each sequence is a game record and its points and allowance records, appended in one
transaction; after each commit it prints the game number (an acknowledgement)."""

from __future__ import annotations

import sys

from carnage.campaign.store import CampaignStore, Record


def main(url: str, cid: str) -> None:
    store = CampaignStore(url)
    while True:
        c = store.get(cid)
        n = sum(1 for r in c.records if r.kind == "game") + 1
        gid = f"g{n}"
        store.append(cid, c.version, [
            Record("game", {"n": n, "places": [[0], [1]]}, gid),
            Record("points", {"n": n, "seat": 0, "cp": 5}, gid),
            Record("points", {"n": n, "seat": 1, "cp": 3}, gid),
            Record("allowance", {"n": n, "seat": 0, "cans": 10, "pad": "x" * 2000}, gid),
        ])
        print(n, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
