"""The guarded door (carnage.guard): every hostile input is refused quickly with one line
naming the field and the limit; nothing raises anything but ``InputRefused``."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from carnage import guard
from carnage.guard import InputRefused
from carnage.kernel.decisions import Decision, IllegalChoice, Interval, Option

# A YAML "billion laughs": 437 bytes that expand to 9**7 strings if walked naively.
ALIAS_BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
)
# Few aliases, each reused at every level: under the alias count, over the value count.
SMALL_BOMB = "a: &a [1,2,3,4,5,6,7,8,9,10]\n" + "".join(
    f"l{i}: &l{i} [{', '.join([f'*{prev}'] * 10)}]\n"
    for i, prev in enumerate(["a", "l0", "l1", "l2", "l3"]))


def refused(fn: object, *args: object, needles: tuple[str, ...] = (),
            status: int = 422) -> InputRefused:
    t0 = time.monotonic()
    with pytest.raises(InputRefused) as e:
        fn(*args)
    assert time.monotonic() - t0 < 2.0, "refusing must be fast"
    msg = str(e.value)
    assert "\n" not in msg and msg
    for n in needles:
        assert n in msg, msg
    assert e.value.status == status
    return e.value


# -- YAML ---------------------------------------------------------------------------------------
def test_alias_bomb_is_refused_fast() -> None:
    assert len(ALIAS_BOMB) < 450
    refused(guard.load_yaml, ALIAS_BOMB, guard.TEAM_FILE, "t.yaml",
            needles=("t.yaml", "YAML aliases", "limit 50"))


def test_reused_aliases_count_every_time() -> None:
    refused(guard.load_yaml, SMALL_BOMB, guard.TEAM_FILE, "t.yaml",
            needles=("values in all", "limit 5,000"))


def test_a_few_aliases_are_fine() -> None:
    data = guard.load_yaml("gun: &g {id: handgun}\nw: [*g, *g]\n", guard.TEAM_FILE)
    assert data["w"] == [{"id": "handgun"}, {"id": "handgun"}]


def test_self_referencing_alias_is_refused() -> None:
    refused(guard.load_yaml, "a: &a [*a]\n", guard.TEAM_FILE, "t", needles=("nested deeper",))


@pytest.mark.parametrize("text, field", [
    ("cans: " + "9" * 5000, "cans"),
    ("cans: 0x" + "f" * 4000, "cans"),               # hex: no digit limit in int(s, 16)
    ("cans: 0" + "7" * 4000, "cans"),              # YAML 1.1 octal
    ("cans: 0b" + "1" * 20000, "cans"),
    ("cans: " + ":".join(["59"] * 3000), "cans"),     # YAML 1.1 sexagesimal
    ("v: [1, " + "1_" * 3000 + "1]", "v[1]"),
])
def test_long_yaml_integers_are_refused_naming_the_field(text: str, field: str) -> None:
    e = refused(guard.load_yaml, text, guard.TEAM_FILE, "t.yaml",
                needles=("more than 30 digits", "limit 30"))
    assert e.field == field


def test_short_yaml_integer_forms_still_load() -> None:
    assert guard.load_yaml("a: 0x1f\nb: 1:30\nc: 1_000\n", guard.TEAM_FILE) == {
        "a": 31, "b": 90, "c": 1000}


@pytest.mark.parametrize("depth", [40, 600, 5000])
def test_deep_yaml_is_refused(depth: int) -> None:
    refused(guard.load_yaml, "[" * depth + "]" * depth, guard.TEAM_FILE, "t",
            needles=("nested deeper than 32 levels",))
    block = min(depth, 200)  # block style: indentation makes the text grow quadratically
    refused(guard.load_yaml, "".join("  " * i + "a:\n" for i in range(block)) + "  " * block
            + "1\n", guard.TEAM_FILE, "t", needles=("nested deeper",))


@pytest.mark.parametrize("text, needle", [
    ("a: .inf", "not a finite number"), ("a: .nan", "not a finite number"),
    ("{1: 2}", "keys must be text"), ("? [1]\n: 2", "invalid YAML"),
    ("a: 2001-13-45", "invalid YAML value"), ("a: !!python/object:os.system x", "invalid YAML"),
    ("a: [unclosed", "invalid YAML at line 1"),
])
def test_odd_yaml_is_one_clean_line(text: str, needle: str) -> None:
    refused(guard.load_yaml, text, guard.TEAM_FILE, "t", needles=(needle,))


# -- JSON ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, needle, field", [
    ('{"cans": ' + "9" * 5000 + "}", "more than 30 digits", "cans"),
    ('{"a": [1, -' + "9" * 400 + "]}", "more than 30 digits", "a[1]"),
    ('{"a": 1e999}', "not a finite number", "a"),
    ('{"a": NaN}', "not a finite number", "a"),
    ('{"a": -Infinity}', "not a finite number", "a"),
    ("[" * 1000 + "]" * 1000, "nested deeper than 32", "(top level)"),
    ("[" * 30_000 + "]" * 30_000, "nested deeper than 32", "(top level)"),
])
def test_hostile_json_is_refused_naming_the_field(text: str, needle: str, field: str) -> None:
    e = refused(guard.load_json, text, guard.TEAM_FILE, "t.json", needles=(needle,))
    assert e.field == field


def test_json_syntax_error_names_line_and_column() -> None:
    refused(guard.load_json, '{"a":\n 1,,}', guard.TEAM_FILE, "t.json",
            needles=("invalid JSON at line 2 column 4",))


def test_oversize_text_is_413() -> None:
    refused(guard.load_json, " " * (guard.TEAM_FILE.max_bytes + 1), guard.TEAM_FILE, "t",
            needles=("64 KB",), status=413)


def test_valid_json_is_returned_unchanged() -> None:
    assert guard.load_json('{"a": [1, 2.5, "x", null, true]}', guard.TEAM_FILE) == {
        "a": [1, 2.5, "x", None, True]}


# -- files --------------------------------------------------------------------------------------
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "team.yaml"
    os.mkfifo(fifo)
    done: list[str] = []

    def read() -> None:
        try:
            guard.read_team_data(fifo)
        except InputRefused as e:
            done.append(str(e))

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(2.0)
    assert done and "FIFO" in done[0] and "not a team file" in done[0]


def test_devices_and_directories_are_refused(tmp_path: Path) -> None:
    refused(guard.read_team_data, "/dev/zero", needles=("/dev/zero", "a device"))
    refused(guard.read_team_data, tmp_path, needles=("a directory",))
    refused(guard.read_team_data, tmp_path / "nope.yaml", needles=("no such file",))


def test_oversize_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(70 * 1024 * 1024)  # sparse: 70 MB that were never written
    refused(guard.read_team_data, big, needles=("70 MB", "at most 64 KB"), status=413)


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    p = tmp_path / "t.json"
    p.write_bytes(b'\xef\xbb\xbf{"name": "X"}')
    assert guard.read_team_data(p) == {"name": "X"}


def test_binary_file_is_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "t.yaml"
    p.write_bytes(b"\xff\xfe\x00")
    refused(guard.read_team_data, p, needles=("not a UTF-8 text file",))


# -- logs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("header, needle", [
    ({"setup": {"players": 10**9}}, "setup.players: 1000000000 is outside 2..8"),
    ({"setup": {"players": True}}, "setup.players: must be a whole number, not True"),
    ({"setup": {"max_rounds": 0}}, "setup.max_rounds"),
    ({"setup": {"teams": [{}] * 9}}, "at most 8 teams"),
    ({"setup": {"touch_it_use_it": "yes"}}, "true or false"),
    ({"choices": [[1, 2]]}, "choices[0]: a choice is text or a number"),
    ({"seed": "x" * 201}, "seed: a text seed may be at most 200"),
])
def test_log_headers_are_bounded(header: dict[str, object], needle: str) -> None:
    refused(guard.check_log_header, header, "g.jsonl:1", needles=(needle,))


# -- the engine's own door --------------------------------------------------------------------
def test_decision_refuses_huge_integers_and_booleans_cleanly() -> None:
    spin = Decision(0, "spin", "p", domain=Interval(-45.0, 45.0))
    pick = Decision(0, "target", "p", options=(Option(1), Option(0)))
    for d, bad, needle in [
        (spin, 10**400, "integer of about 401 digits is outside"),
        (spin, -(10**5000), "integer of about 5001 digits"),
        (spin, True, "expected a number, got True"),
        (pick, True, "a boolean is never an option index"),
        (pick, False, "a boolean is never an option index"),
        (pick, 10**5000, "integer of about 5001 digits is not a legal choice"),
        (pick, "x" * 10**6, "is not a legal choice"),
    ]:
        with pytest.raises(IllegalChoice) as e:
            d.validate(bad)
        assert needle in str(e.value) and len(str(e.value)) < 200
    assert pick.validate(1) == 1 and spin.validate(10) == 10.0


def test_snapshots_pass_the_same_guard(tmp_path: Path) -> None:
    assert guard.snapshot_text('{"version": 1, "state": {"round": 2}}') == {
        "version": 1, "state": {"round": 2}}
    refused(guard.snapshot_text, '{"state": ' + "[" * 100 + "]" * 100 + "}",
            needles=("snapshot", "nested deeper than 48"))
    refused(guard.snapshot_text, '{"seed": ' + "9" * 400 + "}", needles=("seed", "30 digits"))
    p = tmp_path / "snap.json"
    p.write_text('{"a": Infinity}')
    refused(guard.read_snapshot, p, needles=("a", "not a finite number"))
    refused(guard.read_snapshot, "/dev/zero", needles=("a device",))
