"""The lobby's search bot: a seat can be given to it, and the view explains its choices."""

from __future__ import annotations

from pathlib import Path

from tests.web.test_api_support import first_choice, new_client


def test_search_bot_seat_plays_and_its_reasons_are_in_the_view(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    r = client.post("/api/games", json={"scenario": "street-race", "seed": 3, "seats": [
        {"controller": "human"}, {"controller": "search:easy"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["seats"][1] == {"seat": 1, "controller": "search:easy", "token": None, "url": None}
    token = g["seats"][0]["token"]
    v = client.get(f"/api/games/{g['id']}", params={"token": token}).json()
    for _ in range(60):
        if v["bot_notes"] or v["pending"] is None:
            break
        r = client.post(f"/api/games/{g['id']}/decisions", json={
            "token": token, "version": v["version"], "choice": first_choice(v["pending"])})
        assert r.status_code == 200, r.text
        v = r.json()
    notes = v["bot_notes"]
    assert notes, "the search bot decided something and explained it"
    n = notes[0]
    assert n["seat"] == 1 and n["lines"][0].startswith("search (easy) weighed")
    assert n["candidates"] and all(0.0 <= c["value"] <= 1.0 for c in n["candidates"])
    assert any(str(c["choice"]) == n["chosen"] for c in n["candidates"])
    assert [x["decision"] for x in notes] == sorted((x["decision"] for x in notes), reverse=True)
    # the short reason of the seat's last decision: its playouts against the next best's
    chosen = next(c for c in n["candidates"] if str(c["choice"]) == n["chosen"])
    if chosen["visits"]:
        others = [c for c in n["candidates"] if c is not chosen and c["visits"]]
        said = (f"won {chosen['won']} of {chosen['visits']} playouts"
                if chosen["ended"] == chosen["visits"]
                else f"scored {chosen['value'] * 100:.0f}% over {chosen['visits']} playouts")
        assert n["reason"].startswith(said), n["reason"]
        assert ("next best" in n["reason"]) == bool(others)
    else:
        assert n["reason"] == "answered at once: nothing worth weighing"


def test_unknown_controller_is_refused(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    r = client.post("/api/games", json={"scenario": "street-race", "seats": [
        {"controller": "human"}, {"controller": "search:brutal"}]})
    assert r.status_code == 422


def test_devils_run_seat_can_be_the_search_bot(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    r = client.post("/api/games", json={"ruleset": "devils-run", "scenario": "devils-run",
                                        "seed": 2, "seats": [
        {"controller": "search:easy"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["seats"][0]["controller"] == "search:easy"
    v = client.get(f"/api/games/{g['id']}").json()
    assert v["status"] == "finished"  # two bots play the whole mission at once
