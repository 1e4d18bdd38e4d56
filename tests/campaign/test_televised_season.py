"""A whole Televised Season played by bots from the command line, on SQLite and PostgreSQL,
and the campaign commands' Televised options and errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from carnage.campaign.store import CampaignStore
from carnage.cli.main import app
from carnage.games.refuelled.campaign import televised as tv

TEAMS = Path(__file__).resolve().parents[2] / "examples" / "teams"
INTRO = str(TEAMS / "intro.yaml")
runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def _json(*args: str) -> Any:
    code, out, err = _run(*args)
    assert code == 0, err
    return json.loads(out)


def test_a_televised_season_plays_start_to_finish_with_bots(db_url: str) -> None:
    cid = _json("campaign", "new", "--mode", "televised", "--team", INTRO, "--team", INTRO,
                "--team", INTRO, "--events", "3", "--schedule", "death-race,roll,flag-tag",
                "--start-cans", "30", "--seed", "3", "--db", db_url, "--json")["id"]
    first = _json("campaign", "next", cid, "--db", db_url, "--json")
    assert (first["game"], first["kind"], first["scenario"]) == (1, "event", "death-race")
    out = _json("campaign", "auto", cid, "--bots", "heuristic", "--events", "1",
                "--skirmish", "zombie-bash", "--seed", "7", "--max-rounds", "3",
                "--db", db_url, "--json")
    assert [p["kind"] for p in out["played"]] == ["skirmish"] and not out["finished"]
    out = _json("campaign", "auto", cid, "--bots", "heuristic", "--events", "9", "--seed", "8",
                "--max-rounds", "4", "--db", db_url, "--json")
    assert [p["kind"] for p in out["played"]] == ["event"] * 3  # stops at the season's end
    assert out["finished"] and out["titles"]["champion"]
    shown = _json("campaign", "show", cid, "--db", db_url, "--json")
    assert shown["finished"] and shown["next"] is None and shown["games"] == 4
    assert [e["played"] for e in shown["schedule"]] == [True, True, True]
    assert len({t["team"] for t in shown["teams"]}) == 3  # told apart
    cp = {r["seat"]: r["cp"] for r in shown["standings"]}
    spoils_cp: dict[int, int] = {}
    for s in shown["spoils"]:
        if s["kind"] == "cp":
            spoils_cp[s["seat"]] = spoils_cp.get(s["seat"], 0) + s["amount"]
    assert cp == {seat: spoils_cp.get(seat, 0) for seat in cp}
    assert max(cp.values()) >= 10  # three Televised Events: someone won one
    for t in shown["teams"]:
        assert 1 <= len(t["vehicles"]) <= tv.MAX_VEHICLES
        for v in t["vehicles"]:
            assert "career" in v
    # every record kind the season wrote is in the history, each game in one transaction
    history = _json("campaign", "export", cid, "--db", db_url)
    kinds = [r["kind"] for r in history["records"]]
    assert kinds.count("game") == 4 and kinds.count("pregame") == 4
    assert "wreck" in kinds and "stash" in kinds and "cp" in kinds
    seqs = [r["seq"] for r in history["records"]]
    assert seqs == list(range(len(seqs)))
    # replaying the records gives the same standings the summary shows
    store = CampaignStore(db_url)
    s = tv.season(store.get(cid))
    assert {t.seat: t.cp for t in s.teams.values()} == cp
    store.close()
    code, text, _ = _run("campaign", "show", cid, "--db", db_url)
    assert code == 0 and "Televised Season" in text and "champion:" in text
    assert "schedule: 1. death-race (played)" in text


def test_secrets_stay_with_their_seat(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    cid = _json("campaign", "new", "--mode", "televised", "--team", INTRO, "--team", INTRO,
                "--team", INTRO, "--events", "2", "--schedule", "flag-tag,flag-tag",
                "--seed", "1", "--db", db, "--json")["id"]
    _json("campaign", "auto", cid, "--events", "1", "--seed", "2", "--max-rounds", "3",
          "--db", db, "--json")
    store = CampaignStore(db)
    c = store.get(cid)
    store.close()
    holders = {r.data["seat"] for r in c.records if r.kind == "rp"}
    assert holders, "a team that did not place contacted the Resistance (bots do)"
    seat = min(holders)
    other = next(s for s in range(3) if s != seat)
    mine = _json("campaign", "show", cid, "--seat", str(seat), "--db", db, "--json")
    theirs = _json("campaign", "show", cid, "--seat", str(other), "--db", db, "--json")
    spectator = _json("campaign", "show", cid, "--db", db, "--json")
    rp = tv.season(c).teams[seat].rp
    assert next(t for t in mine["teams"] if t["seat"] == seat)["rp"] == rp
    for view in (theirs, spectator):
        assert next(t for t in view["teams"] if t["seat"] == seat)["rp"] is None
        assert all(s["kind"] != "rp" or s["seat"] != seat for s in view["spoils"])
        assert not [x for x in view["secrets"] if x["data"].get("seat") == seat]
    hidden = _json("campaign", "export", cid, "--spectator", "--db", db)
    assert not [r for r in hidden["records"] if r["kind"] in ("rp", "sabotage")]
    full = _json("campaign", "export", cid, "--db", db)
    assert [r for r in full["records"] if r["kind"] == "rp"]


def test_meetings_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    cid = _json("campaign", "new", "--mode", "televised", "--team", INTRO, "--team", INTRO,
                "--team", INTRO, "--team", INTRO, "--events", "1", "--schedule", "flag-tag",
                "--seed", "4", "--db", db, "--json")["id"]
    ev = _json("campaign", "next", cid, "--present", "0,1,3", "--db", db, "--json")
    assert (ev["kind"], ev["seats"]) == ("event", [0, 1, 3])
    ev = _json("campaign", "next", cid, "--present", "1,2", "--db", db, "--json")
    assert ev["kind"] == "skirmish" and ev["roll"] in range(1, 7)
    code, out, _ = _run("campaign", "next", cid, "--skirmish", "zombie-bash", "--db", db)
    assert code == 0 and "Wasteland Skirmish: zombie-bash" in out
    code, _, err = _run("campaign", "next", cid, "--present", "one", "--db", db)
    assert code == 2 and "--present: 'one' is not a list of seats" in err
    code, _, err = _run("campaign", "next", cid, "--skirmish", "truckasaurus", "--db", db)
    assert code == 2 and "not on the Wasteland Skirmish table" in err


def test_televised_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    cases = [
        (["--start-cans", "60"], "start Cans: 60 is outside 20..50"),
        (["--events", "2", "--schedule", "death-race"], "schedule names 1 events"),
        (["--schedule", "tank-commander"], "not on the Televised Event table"),
        (["--bonus", "5"], "unknown option 'bonus'"),
    ]
    for extra, message in cases:
        code, _, err = _run("campaign", "new", "--mode", "televised", "--team", INTRO,
                            "--team", INTRO, *extra, "--db", db)
        assert code == 2 and message in err, (extra, err)
    _, out, _ = _run("campaign", "new", "--mode", "televised", "--team", INTRO, "--team", INTRO,
                     "--events", "1", "--schedule", "flag-tag", "--db", db)
    cid = out.strip()
    big = tmp_path / "big.yaml"
    big.write_text(Path(INTRO).read_text() + (
        "  - name: Blue Car\n    type: car\n    weapons:\n"
        "      - {id: machine_gun, facing: front}\n"))
    code, _, err = _run("campaign", "team", cid, "--seat", "0", "--team", str(big), "--db", db)
    assert code == 2 and "seat 0 workshop:" in err and "stash" in err  # 14 > 8
    code, _, err = _run("campaign", "team", cid, "--seat", "9", "--team", INTRO, "--db", db)
    assert code == 2 and "no team in seat 9" in err
    _json("campaign", "auto", cid, "--events", "1", "--seed", "1", "--max-rounds", "2",
          "--db", db, "--json")
    code, out, _ = _run("campaign", "next", cid, "--db", db)
    assert code == 0 and "the campaign is over" in out
    out2 = _json("campaign", "auto", cid, "--events", "1", "--db", db, "--json")
    assert out2["played"] == [] and out2["finished"]


def test_a_workshop_change_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    _, out, _ = _run("campaign", "new", "--mode", "televised", "--team", INTRO, "--team", INTRO,
                     "--events", "1", "--schedule", "flag-tag", "--db", db)
    cid = out.strip()
    armed = tmp_path / "armed.yaml"
    armed.write_text(Path(INTRO).read_text().replace(
        "      - {id: machine_gun, facing: front}\n  - name: Red Buggy",
        "      - {id: machine_gun, facing: front}\n      - {id: machine_gun, facing: rear}\n"
        "  - name: Red Buggy"))
    code, out, err = _run("campaign", "team", cid, "--seat", "1", "--team", str(armed),
                          "--db", db)
    assert code == 0, err
    assert "24 Cans; stash 6" in out
    shown = _json("campaign", "show", cid, "--db", db, "--json")
    row = next(t for t in shown["teams"] if t["seat"] == 1)
    assert row["stash"] == 6 and row["vehicles"][0]["weapons"] == ["machine_gun"] * 2
