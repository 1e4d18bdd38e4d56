"""Property-based fuzzing of the BattleScribe door (``.ros`` XML and ``.rosz`` zips): rosters
built to the roster schema with hostile numbers, names, nesting and encodings, zipped with
any method, flagged as encrypted or corrupted byte by byte. The property: a team (whose spec
then parses or names its problems) or one ``RosterError`` line, within the time bound; the
web API answers 200 or 422, never a 500. ``CARNAGE_FUZZ_EXAMPLES`` runs a longer hunt."""

from __future__ import annotations

import io
import struct
import time
import zipfile
from typing import Any
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.guard.test_fuzz import BOUND, FUZZ
from tests.web.test_api_support import TestClient, new_client

from carnage.team import TeamFileError
from carnage.team.battlescribe import NS, RosterError, read_roster

NAMES = st.sampled_from(["Car", "Buggy", "Performance Car", "War Rig", "Machine Gun",
                         "Heavy Machine Gun (Front)", "Front", "Turret", "Rear", "Trailer",
                         "Armour Plating", "Ram", "Sponsor", "Idris", "Slime", "Options",
                         "Driver Perks", "Weapons", "Crew", "Handgun", "Nothing We Know",
                         "", "Nitro Booster", "Turret Mounting"]) | st.text(max_size=20)
NUMBERS = st.sampled_from(["1", "2", "1.0", "0", "-1", "1.5", "inf", "-inf", "nan", "1e9",
                           "1e308", "", "0x10", "9" * 400, "128", "129", " 3 "])
CANS = st.sampled_from(["50", "50.0", "0", "-5", "inf", "nan", "1e300", "10000", "10001",
                        "abc", "", "9" * 400])
ENCODINGS = st.sampled_from(["utf-8", "UTF-8", "utf-16", "latin-1", "ascii", "x-no-such-codec",
                             "utf-32", ""])


@st.composite
def selection(draw: st.DrawFn, depth: int = 0) -> str:
    name = quoteattr(draw(NAMES))
    attrs = f'id="s" name={name} number={quoteattr(draw(NUMBERS))} type="upgrade"'
    if draw(st.booleans()):
        attrs += f" customName={quoteattr(draw(st.text(max_size=12)))}"
    kids = draw(st.lists(selection(depth + 1), max_size=3)) if depth < 4 else []
    chain = draw(st.sampled_from([0, 0, 0, 2, 30, 70]))  # a deep chain of wrappers
    inner = "".join(kids)
    for _ in range(chain):
        inner = f'<selections><selection id="w" name="Options" number="1">{inner}' \
                "</selection></selections>"
    body = f"<selections>{inner}</selections>" if inner else ""
    return f"<selection {attrs}>{body}</selection>"


@st.composite
def roster_xml(draw: st.DrawFn) -> bytes:
    sels = "".join(draw(st.lists(selection(), max_size=4)))
    limit = (f'<costLimits><costLimit name="Cans" typeId="c" value={quoteattr(draw(CANS))}/>'
             "</costLimits>") if draw(st.booleans()) else ""
    system = draw(st.sampled_from(["Gaslands", "gaslands", "Warhammer", ""]))
    text = (f'<roster xmlns="{NS}" id="r" name={quoteattr(draw(st.text(max_size=15)))} '
            f'gameSystemName="{system}">{limit}<forces><force id="f" name="Team">'
            f"<selections>{sels}</selections></force></forces></roster>")
    enc = draw(ENCODINGS)
    decl = f'<?xml version="1.0" encoding="{enc}"?>' if enc else ""
    codec = enc if enc and enc.lower() not in ("x-no-such-codec",) else "utf-8"
    return (decl + text).encode(codec, "replace")


def _patch(data: bytes, flags: int | None, method: int | None) -> bytes:
    out = bytearray(data)
    for sig, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = out.find(sig)
        if at < 0:
            continue
        if flags is not None:
            struct.pack_into("<H", out, at + flag_at, flags)
        if method is not None:
            struct.pack_into("<H", out, at + method_at, method)
    return bytes(out)


@st.composite
def rosz(draw: st.DrawFn) -> bytes:
    xml = draw(roster_xml())
    buf = io.BytesIO()
    method = draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2,
                                   zipfile.ZIP_LZMA]))
    with zipfile.ZipFile(buf, "w", method) as z:
        for name in draw(st.sampled_from([["team.ros"], ["a.ros", "b.ros"], ["team.txt"]])):
            z.writestr(name, xml)
    data = _patch(buf.getvalue(), draw(st.sampled_from([None, 0x1, 0x41])),
                  draw(st.sampled_from([None, 9, 99])))
    flips = draw(st.lists(st.tuples(st.integers(0, max(0, len(data) - 1)),
                                    st.integers(1, 255)), max_size=4))
    out = bytearray(data)
    for at, x in flips:
        out[at] ^= x
    return bytes(out)


ROSTERS = roster_xml() | rosz()


def clean_or_team(data: bytes) -> None:
    t0 = time.monotonic()
    try:
        got = read_roster(data, "fuzz.rosz")
    except RosterError as e:
        assert "\n" not in str(e) and str(e) and len(str(e)) < 600, str(e)
        assert time.monotonic() - t0 < BOUND
        return
    try:
        got.spec("fuzz.rosz")
    except TeamFileError as e:
        assert e.problems and all("\n" not in p for p in e.problems)
    assert time.monotonic() - t0 < BOUND


@FUZZ
@given(data=ROSTERS)
def test_rosters_are_a_team_or_one_clean_error(data: bytes) -> None:
    clean_or_team(data)


@FUZZ
@given(data=st.binary(max_size=400) | st.builds(lambda b: b"PK\x03\x04" + b,
                                                 st.binary(max_size=400)))
def test_arbitrary_bytes_are_a_team_or_one_clean_error(data: bytes) -> None:
    clean_or_team(data)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return new_client(tmp_path_factory.mktemp("rosters"))


@FUZZ
@given(data=ROSTERS)
def test_the_import_api_answers_200_or_422(client: TestClient, data: bytes) -> None:
    t0 = time.monotonic()
    r = client.post("/api/teams/import/battlescribe", content=data,
                    headers={"content-type": "application/octet-stream"})
    assert time.monotonic() - t0 < BOUND
    assert r.status_code in (200, 422), r.text
    body: Any = r.json()
    if r.status_code == 422:
        assert "\n" not in body["detail"]
    assert client.get("/api/teams").json() == []
