"""Hostile BattleScribe rosters: every one is refused with one clear line, well within 10 s,
on the library, the command line (`carnage team import`, exit 2, nothing written) and the
web API (422, nothing saved); never a traceback, a 500 or a hang."""

from __future__ import annotations

import io
import os
import struct
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from tests.cli.test_hostile_cli import clean_exit_2
from tests.team.test_battlescribe import bsdata_team, roster, selection
from tests.web.test_api_support import new_client

from carnage.team.battlescribe import NS, RosterError, load_roster, read_roster

BOUND = 10.0
"""Seconds any roster may take to be read or refused."""


def nested(depth: int) -> bytes:
    """A car whose machine gun holds ``depth`` selections, each inside the last (written as
    text: ElementTree itself recurses when it writes, and its prefixes depend on what other
    code registered)."""
    open_ = '<selections><selection id="o" name="Options" number="1" type="upgrade">'
    close = "</selection></selections>"
    return (f'<roster xmlns="{NS}" id="r" name="Deep" gameSystemName="Gaslands"><forces>'
            '<force id="f" name="Team"><selections>'
            '<selection id="c" name="Car" number="1" type="model"><selections>'
            '<selection id="g" name="Machine Gun" number="1" type="upgrade">'
            f"{open_ * depth}{close * depth}"
            "</selection></selections></selection></selections></force></forces></roster>"
            ).encode()


def weapon_number(number: str) -> bytes:
    """A car with one machine gun standing for ``number`` copies."""
    gun = selection("Machine Gun", selection("Front"))
    gun.set("number", number)
    return roster(selection("Car", gun, type_="model"))


def zipped(xml: bytes, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("team.ros", xml)
    return buf.getvalue()


def patched(data: bytes, *, method: int | None = None, flags: int | None = None) -> bytes:
    """A zip with its one entry's compression method or flag bits rewritten in both the
    local and the central header (what an encrypting or Deflate64 tool writes)."""
    out = bytearray(data)
    for sig, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = out.find(sig)
        if flags is not None:
            struct.pack_into("<H", out, at + flag_at, flags)
        if method is not None:
            struct.pack_into("<H", out, at + method_at, method)
    return bytes(out)


def corrupt_deflate() -> bytes:
    data = zipped(bsdata_team() * 3)
    out = bytearray(data)
    start = 30 + len("team.ros")
    for i in range(start + 10, start + 60):
        out[i] ^= 0x5A
    return bytes(out)


HOSTILE: list[tuple[str, Callable[[], bytes], str]] = [
    ("number-inf", lambda: weapon_number("inf"), "number='inf' is not a whole number"),
    ("number-nan", lambda: weapon_number("nan"), "is not a whole number"),
    ("number-1e9", lambda: weapon_number("1e9"), "number='1e9' is not a whole number 0..128"),
    ("number-half", lambda: weapon_number("1.5"), "is not a whole number"),
    ("cans-inf", lambda: roster(limit=float("inf")), "a Cans costLimit of inf"),
    ("cans-huge", lambda: roster(limit=1e300), "at most 10,000 cans"),
    ("nested", lambda: nested(3000), "nested deeper than 64 levels"),
    ("encrypted", lambda: patched(zipped(bsdata_team()), flags=0x1), "encrypted"),
    ("deflate64", lambda: patched(zipped(bsdata_team()), method=9), "method 9"),
    ("bzip2", lambda: zipped(bsdata_team(), zipfile.ZIP_BZIP2), "method 12"),
    ("corrupt", corrupt_deflate, "broken zip"),
    ("encoding", lambda: b'<?xml version="1.0" encoding="x-no-such-codec"?>\n<roster/>',
     "x-no-such-codec"),
]


@pytest.mark.parametrize("make, needle", [(m, n) for _, m, n in HOSTILE],
                         ids=[i for i, _, _ in HOSTILE])
def test_hostile_rosters_are_one_clear_error(make: Callable[[], bytes], needle: str) -> None:
    data = make()
    t0 = time.monotonic()
    with pytest.raises(RosterError) as e:
        read_roster(data, "x.rosz")
    assert time.monotonic() - t0 < BOUND
    text = str(e.value)
    assert "\n" not in text and needle in text and len(text) < 400, text


@pytest.mark.parametrize("make, needle", [(m, n) for _, m, n in HOSTILE],
                         ids=[i for i, _, _ in HOSTILE])
def test_hostile_rosters_on_the_command_line(tmp_path: Path, make: Callable[[], bytes],
                                             needle: str) -> None:
    src = tmp_path / "team.rosz"
    src.write_bytes(make())
    out = tmp_path / "team.yaml"
    clean_exit_2(["team", "import", str(src), "--out", str(out)], needle)
    assert not out.exists()


@pytest.mark.parametrize("make, needle", [(m, n) for _, m, n in HOSTILE],
                         ids=[i for i, _, _ in HOSTILE])
def test_hostile_rosters_on_the_api(tmp_path: Path, make: Callable[[], bytes],
                                    needle: str) -> None:
    client = new_client(tmp_path)
    t0 = time.monotonic()
    r = client.post("/api/teams/import/battlescribe", content=make(),
                    headers={"content-type": "application/octet-stream"})
    assert time.monotonic() - t0 < BOUND
    assert r.status_code == 422, r.text
    assert needle in r.json()["detail"] and "\n" not in r.json()["detail"]
    assert client.get("/api/teams").json() == []


def test_a_fifo_and_a_device_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "team.rosz"
    os.mkfifo(fifo)
    with pytest.raises(RosterError, match="FIFO"):
        load_roster(fifo)
    with pytest.raises(RosterError, match="device"):
        load_roster("/dev/zero")
    clean_exit_2(["team", "import", str(fifo)], "FIFO")
    clean_exit_2(["team", "import", "/dev/zero"], "/dev/zero", "device")


def test_a_huge_roster_file_is_refused_by_its_size(tmp_path: Path) -> None:
    p = tmp_path / "big.ros"
    p.write_bytes(b" " * 3_000_000)
    clean_exit_2(["team", "import", str(p)], "at most 1.9 MB")


def test_many_copies_within_the_bound_still_read() -> None:
    data = weapon_number("2.0")
    got = read_roster(data, "x.ros")
    assert [w["id"] for w in got.team["vehicles"][0]["weapons"]] == ["machine_gun"] * 2
    root = ET.fromstring(nested(20))
    assert root.tag == f"{{{NS}}}roster"
    assert read_roster(nested(20)).team["vehicles"][0]["weapons"][0]["id"] == "machine_gun"
