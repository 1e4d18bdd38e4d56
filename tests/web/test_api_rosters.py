"""BattleScribe rosters over the API: upload a .ros/.rosz to read it into a team (nothing
saved, unmapped entries listed); download a saved team as a roster that reads back."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tests.web.test_api_support import new_client, racer_team

from carnage.team.battlescribe import MAX_BYTES, read_roster

NS = "http://www.battlescribe.net/schema/rosterSchema"
OCTETS = {"content-type": "application/octet-stream"}
ROSTER = (
    f'<roster xmlns="{NS}" name="Hogs" gameSystemName="Gaslands">'
    '<costLimits><costLimit name="Cans" typeId="c" value="30"/></costLimits>'
    '<forces><force name="Team"><selections>'
    '<selection name="Car" type="model" customName="Big Mama"><selections>'
    '<selection name="Machine Gun" type="upgrade"><selections>'
    '<selection name="Front" type="upgrade"/></selections></selection>'
    '<selection name="Laser Unicorn" type="upgrade"/>'
    '</selections></selection></selections></force></forces></roster>'
).encode()


def test_upload_a_roster_reads_it_and_lists_what_is_unmapped(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    r = client.post("/api/teams/import/battlescribe", content=ROSTER, headers=OCTETS)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["team"]["name"] == "Hogs" and body["team"]["cans"] == 30
    assert body["team"]["vehicles"][0]["weapons"] == [{"id": "machine_gun", "facing": "front"}]
    assert body["unmapped"] == ["Laser Unicorn (on Big Mama)"]
    assert body["report"]["valid"] is True
    assert client.get("/api/teams").json() == []  # nothing saved
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hogs.ros", ROSTER)
    zipped = client.post("/api/teams/import/battlescribe", content=buf.getvalue(),
                         headers=OCTETS)
    assert zipped.status_code == 200 and zipped.json()["team"] == body["team"]


def test_bad_uploads_are_one_sentence(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    r = client.post("/api/teams/import/battlescribe", content=b"<army/>", headers=OCTETS)
    assert r.status_code == 422 and "not <roster>" in r.json()["detail"]
    r = client.post("/api/teams/import/battlescribe", content=b"", headers=OCTETS)
    assert r.status_code == 422 and "empty" in r.json()["detail"]
    r = client.post("/api/teams/import/battlescribe", content=b"x" * (MAX_BYTES + 10),
                    headers=OCTETS)
    assert r.status_code == 413


def test_a_saved_team_downloads_as_a_roster(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    saved = client.post("/api/teams", json={"team": racer_team("Road Hogs")}).json()
    r = client.get(f"/api/teams/{saved['id']}/battlescribe")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="road-hogs.rosz"'
    back = read_roster(r.content)
    assert back.team["name"] == "Road Hogs" and back.unmapped == ()
    plain = client.get(f"/api/teams/{saved['id']}/battlescribe", params={"zipped": "false"})
    assert plain.text.startswith("<?xml") and read_roster(plain.content).team == back.team
    assert client.get("/api/teams/nope/battlescribe").status_code == 404
