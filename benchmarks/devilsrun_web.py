"""Devil's Run on the web table: the per-seat view's cost, and whole decision round trips
through the API (validation, the engine, the bot's answers, the saved snapshot, the view)."""

from __future__ import annotations

import tempfile
import time
import warnings
from pathlib import Path

from carnage.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        client = TestClient(create_app(f"sqlite:///{Path(tmp) / 'bench.db'}"))
        for mission in ("devils-run", "hell-on-wheels"):
            g = client.post("/api/games", json={
                "ruleset": "devils-run", "scenario": mission, "seed": 3,
                "seats": [{"controller": "human"}, {"controller": "heuristic"}]}).json()
            gid, tok = g["id"], g["seats"][0]["token"]
            session = client.app.state.games.get(gid)
            t = time.perf_counter()
            for _ in range(200):
                session.table.view(session.game, session.context(session.game, [0]))
            per_view = (time.perf_counter() - t) / 200
            v = client.get(f"/api/games/{gid}", params={"token": tok}).json()
            n = 0
            t = time.perf_counter()
            while v["pending"] is not None:
                v = client.post(f"/api/games/{gid}/decisions", json={
                    "token": tok, "version": v["version"],
                    "choice": v["pending"]["options"][0]["value"]}).json()
                n += 1
            dt = time.perf_counter() - t
            t = time.perf_counter()
            for _ in range(50):
                session.table.view(session.game, session.context(session.game, [0]))
            at_end = (time.perf_counter() - t) / 50
            print(f"{mission:15s} view {per_view * 1000:5.2f} ms at the start, "
                  f"{at_end * 1000:5.2f} ms at the end ({len(session.game.log)} events); "
                  f"{n} human decisions "
                  f"{n / dt:6.1f} round trips/s ({dt / n * 1000:.1f} ms each, bot and save "
                  f"included)")


if __name__ == "__main__":
    main()
