"""The guarded door for every input Carnage reads from outside: team files, scenes, game logs,
snapshots, API bodies and websocket frames.

Everything that arrives as text goes through one of the readers here before any schema sees
it. Each reader is bounded:

* size: a file or body larger than its ``Limits.max_bytes`` is refused before it is read;
  only regular files are read (a FIFO, a device such as ``/dev/zero`` or a directory is
  refused without blocking);
* shape: nesting deeper than ``max_depth``, more than ``max_nodes`` values in all (YAML
  aliases are counted every time they are used, so an alias bomb stops at the limit instead of
  expanding), more than ``max_aliases`` aliases, keys that are not text;
* numbers: integers longer than ``max_int_digits`` digits (including YAML's hex, octal and
  sexagesimal forms, checked before they are converted), floats that are not finite
  (``NaN``, ``Infinity``, ``1e999``);
* time: the YAML loader and the tree check stop after ``max_seconds``.

A refusal is an ``InputRefused``: one line naming the field (``vehicles[0].cans``) and the
limit it broke, and an HTTP status (413 for size, 422 for the rest) for the web.
"""

from __future__ import annotations

import json
import math
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import Node, ScalarNode


class InputRefused(ValueError):
    """Input that breaks a limit or is not well formed; ``str()`` is one line."""

    def __init__(self, where: str, problem: str, status: int = 422, field: str = "") -> None:
        self.where = where
        self.field = field if len(field) <= 80 else field[:77] + "..."
        self.problem = problem
        self.status = status
        parts = [p for p in (where, self.field) if p]
        super().__init__(": ".join([*parts, problem]))


@dataclass(frozen=True)
class Limits:
    """How much one input may hold."""

    max_bytes: int
    max_depth: int = 32
    max_nodes: int = 20_000
    max_int_digits: int = 30
    max_aliases: int = 50
    max_seconds: float = 2.0

    def scaled(self, **changes: Any) -> Limits:
        return replace(self, **changes)


TEAM_FILE = Limits(max_bytes=64 * 1024, max_nodes=5_000)
"""A team file (YAML or JSON) on disk or pasted into the import box. Real ones are a few KB;
64 KB keeps the pure-Python YAML parser well inside its time limit on a slow machine."""
SCENE = Limits(max_bytes=4 * 1024 * 1024, max_nodes=200_000, max_int_digits=30)
"""A ``carnage judge`` scene."""
LOG_LINE = Limits(max_bytes=4 * 1024 * 1024, max_depth=40, max_nodes=1_000_000,
                  max_seconds=10.0)
"""One line of a game log (the header carries the teams and every choice)."""
LOG_FILE_BYTES = 256 * 1024 * 1024
"""A whole game log."""
SNAPSHOT = Limits(max_bytes=32 * 1024 * 1024, max_depth=48, max_nodes=2_000_000,
                  max_seconds=10.0)
"""A saved game snapshot (one JSON document)."""
API_BODY = Limits(max_bytes=1024 * 1024, max_nodes=50_000)
"""A JSON request body on the web API."""
WS_FRAME = Limits(max_bytes=64 * 1024, max_depth=16, max_nodes=2_000)
"""One websocket message from a browser."""

MAX_CHOICES = 1_000_000
"""Choices a game log may hold."""
MAX_PLAYERS = 8
MAX_ROUNDS = 10_000


def human_bytes(n: int) -> str:
    for unit, size in (("MB", 1024 * 1024), ("KB", 1024)):
        if n >= size:
            return f"{round(n / size, 1):g} {unit}"
    return f"{n} bytes"


def short(value: Any, limit: int = 40) -> str:
    """A short, safe description of any value (never expands a huge or shared structure)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        digits = len(str(value)) if value.bit_length() < 4000 else None
        if digits is None or digits > limit:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return str(value)
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, dict):
        text = f"a mapping of {len(value)} key{'s' if len(value) != 1 else ''}"
    elif isinstance(value, list | tuple):
        text = f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- the shape of decoded data -------------------------------------------------------------------
def key_text(key: str) -> str:
    """A mapping key as a field name in a message: as written when it is plain, else quoted
    and shortened (a key holding a newline never breaks a one-line message)."""
    if key and len(key) <= 40 and key.isprintable() and not any(c in key for c in " .[]:"):
        return key
    return short(key)


def _join(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    name = key_text(key)
    return f"{where}.{name}" if where else name


def check_tree(data: Any, limits: Limits, where: str = "", field: str = "",
               deadline: float | None = None) -> None:
    """Refuse decoded data (from JSON or YAML) that breaks ``limits``: too deep, too many
    values (a shared value counts every time it is reached), integers too long, floats not
    finite, keys that are not text. Iterative: any depth is refused, never a RecursionError."""
    end = deadline if deadline is not None else time.monotonic() + limits.max_seconds
    bound = 10 ** limits.max_int_digits
    stack: list[tuple[Any, str, int]] = [(data, field, 0)]
    nodes = 0
    while stack:
        value, at, depth = stack.pop()
        spot = at or "(top level)"
        nodes += 1
        if nodes > limits.max_nodes:
            raise InputRefused(where, f"more than {limits.max_nodes:,} values in all (repeated "
                               f"YAML aliases count each time; limit {limits.max_nodes:,})",
                               field=spot)
        if nodes % 4096 == 0 and time.monotonic() > end:
            raise InputRefused(where, f"took longer than {limits.max_seconds:g} s to check "
                               "(time limit)", field=spot)
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if isinstance(value, _TooLong) or (isinstance(value, int) and abs(value) >= bound):
            raise InputRefused(where, f"integer with more than {limits.max_int_digits} digits "
                               f"(limit {limits.max_int_digits})", field=spot)
        if isinstance(value, int):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                raise InputRefused(where, f"{value!r} is not a finite number", field=spot)
            continue
        if isinstance(value, dict | list | tuple):
            if depth >= limits.max_depth:
                raise InputRefused(where, f"nested deeper than {limits.max_depth} levels "
                                   f"(limit {limits.max_depth})", field=spot)
            if isinstance(value, dict):
                for k, v in value.items():
                    if not isinstance(k, str):
                        raise InputRefused(where, f"keys must be text, not {short(k)}",
                                           field=spot)
                    stack.append((v, _join(at, k), depth + 1))
            else:
                for i, v in enumerate(value):
                    stack.append((v, _join(at, i), depth + 1))
            continue
        # other YAML scalars (dates, bytes, sets) are left to the schema, which names them


# -- JSON ----------------------------------------------------------------------------------------
class _TooLong:
    """Stands in for an integer literal too long to convert, so the tree check can name its
    field (the JSON and YAML decoders do not know where they are)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _json_decoder(limits: Limits) -> json.JSONDecoder:
    def parse_int(s: str) -> int | _TooLong:
        digits = len(s.lstrip("-"))
        return _TooLong(digits) if digits > limits.max_int_digits else int(s)

    def parse_constant(s: str) -> float:
        return float(s)  # NaN and Infinity: refused, with their field, by the tree check

    return json.JSONDecoder(parse_int=parse_int, parse_constant=parse_constant)


def _size(n: int, limits: Limits, where: str, what: str) -> None:
    if n > limits.max_bytes:
        raise InputRefused(where, f"{what} is {human_bytes(n)}; the limit is "
                           f"{human_bytes(limits.max_bytes)}", status=413)


def load_json(text: str | bytes, limits: Limits, where: str = "",
              what: str = "the JSON text", field: str = "") -> Any:
    """Decode JSON text within ``limits``; ``InputRefused`` naming the line of a syntax error
    or the field that breaks a limit."""
    _size(len(text), limits, where, what)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputRefused(where, f"{what} is not UTF-8 text") from None
    try:
        data = _json_decoder(limits).decode(text)
    except json.JSONDecodeError as e:
        raise InputRefused(where, f"invalid JSON at line {e.lineno} column {e.colno}: "
                           f"{e.msg}") from None
    except RecursionError:
        raise InputRefused(where, f"nested deeper than {limits.max_depth} levels (limit "
                           f"{limits.max_depth})", field=field or "(top level)") from None
    check_tree(data, limits, where, field)
    return data


# -- YAML ----------------------------------------------------------------------------------------
_INT_TAG = "tag:yaml.org,2002:int"


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, bounded: depth, aliases and time while composing, integer
    length before converting (hex, octal, binary and sexagesimal forms too)."""

    limits: Limits = TEAM_FILE
    where: str = ""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0
        self._nodes = 0
        self._deadline = time.monotonic() + self.limits.max_seconds

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        lim = self.limits
        self._nodes += 1
        if self._nodes > lim.max_nodes:
            raise InputRefused(self.where, f"more than {lim.max_nodes:,} values in all "
                               f"(limit {lim.max_nodes:,})")
        if self._nodes % 512 == 0 and time.monotonic() > self._deadline:
            raise InputRefused(self.where, f"took longer than {lim.max_seconds:g} s to read "
                               "(time limit)")
        if self.check_event(AliasEvent):
            self._aliases += 1
            if self._aliases > lim.max_aliases:
                raise InputRefused(self.where, f"more than {lim.max_aliases} YAML aliases "
                                   f"(limit {lim.max_aliases})")
        self._depth += 1
        try:
            if self._depth > lim.max_depth:
                peek: Callable[[], Any] = self.peek_event
                line = peek().start_mark.line + 1
                raise InputRefused(self.where, f"nested deeper than {lim.max_depth} levels "
                                   f"at line {line} (limit {lim.max_depth})")
            node: Node | None = super().compose_node(parent, index)
            return node
        finally:
            self._depth -= 1

    def bounded_int(self, node: ScalarNode) -> int | _TooLong:
        raw = str(node.value).replace("_", "")
        digits = raw.lstrip("+-")
        d = self.limits.max_int_digits
        if ":" in digits:  # base 60: every part multiplies the size
            parts = digits.split(":")
            if len(parts) > 6 or any(len(p) > d for p in parts):
                return _TooLong(len(digits))
        elif len(digits) > d + 2:  # "0x", "0o", "0b" prefixes
            return _TooLong(len(digits))
        value: int = SafeConstructor.construct_yaml_int(self, node)
        return _TooLong(d + 1) if abs(value) >= 10**d else value


_BoundedLoader.add_constructor(_INT_TAG, _BoundedLoader.bounded_int)


def load_yaml(text: str, limits: Limits, where: str = "",
              what: str = "the YAML text", field: str = "") -> Any:
    """Decode YAML text (safe tags only) within ``limits``; see ``load_json``."""
    n = len(text) if len(text) * 4 <= limits.max_bytes else len(text.encode("utf-8", "replace"))
    _size(n, limits, where, what)
    loader_class = type("Loader", (_BoundedLoader,), {"limits": limits, "where": where})
    loader: _BoundedLoader | None = None
    try:
        loader = loader_class(text)
        data = loader.get_single_data()
    except InputRefused:
        raise
    except yaml.reader.ReaderError as e:  # a control character, found before any parsing
        raise InputRefused(where, f"invalid YAML: character {e.character!r} at position "
                           f"{e.position} is not allowed") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "malformed"
        raise InputRefused(where, f"invalid YAML{at}: {problem}") from None
    except RecursionError:
        raise InputRefused(where, f"nested deeper than {limits.max_depth} levels (limit "
                           f"{limits.max_depth})", field=field or "(top level)") from None
    except (ValueError, TypeError, OverflowError) as e:  # e.g. a timestamp out of range
        first = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
        raise InputRefused(where, f"invalid YAML value ({first})") from None
    finally:
        if loader is not None:
            loader.dispose()
    check_tree(data, limits, where, field)
    return data


# -- files ---------------------------------------------------------------------------------------
def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_file(path: str | Path, max_bytes: int, what: str = "file") -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``. A FIFO, device, socket or
    directory is refused without blocking; ``InputRefused`` (where = the path) otherwise."""
    raw = read_bytes(path, max_bytes, what)
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark some editors write is dropped
    except UnicodeDecodeError:
        raise InputRefused(str(path), "not a UTF-8 text file") from None


def read_bytes(path: str | Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (see ``read_file``)."""
    src = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputRefused(src, "no such file") from None
    except OSError as e:
        raise InputRefused(src, f"cannot be read ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputRefused(src, f"is {_kind(st.st_mode)}, not a {what}")
    if st.st_size > max_bytes:
        raise InputRefused(src, f"is {human_bytes(st.st_size)}; a {what} may be at most "
                           f"{human_bytes(max_bytes)}", status=413)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputRefused(src, f"cannot be read ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)  # the file may have been swapped since the stat above
        if not stat.S_ISREG(st.st_mode):
            raise InputRefused(src, f"is {_kind(st.st_mode)}, not a {what}")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise InputRefused(src, f"cannot be read ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        raise InputRefused(src, f"is larger than {human_bytes(max_bytes)}, the limit for a "
                           f"{what}", status=413)
    return raw


def read_team_data(path: str | Path) -> Any:
    """A team file decoded: ``.json`` as JSON, anything else as YAML."""
    text = read_file(path, TEAM_FILE.max_bytes, "team file")
    if Path(path).suffix.lower() == ".json":
        return load_json(text, TEAM_FILE, str(path), "the team file")
    return load_yaml(text, TEAM_FILE, str(path), "the team file")


def team_text(text: str, fmt: str, where: str = "") -> Any:
    """Pasted team-file text (``fmt`` "json" or "yaml") decoded."""
    if fmt == "json":
        return load_json(text, TEAM_FILE, where, "the team file")
    return load_yaml(text, TEAM_FILE, where, "the team file")


def read_scene_data(path: str | Path) -> Any:
    text = read_file(path, SCENE.max_bytes, "scene file")
    return load_json(text, SCENE, str(path), "the scene file")


def read_snapshot(path: str | Path) -> Any:
    text = read_file(path, SNAPSHOT.max_bytes, "snapshot")
    return load_json(text, SNAPSHOT, str(path), "the snapshot")


def snapshot_text(text: str | bytes, where: str = "snapshot") -> Any:
    return load_json(text, SNAPSHOT, where, "the snapshot")


# -- game logs -----------------------------------------------------------------------------------
def read_log_text(path: str | Path) -> str:
    return read_file(path, LOG_FILE_BYTES, "game log")


def log_lines(text: str, source: str) -> list[tuple[int, Any]]:
    """The non-blank lines of a game log decoded, with their line numbers."""
    out: list[tuple[int, Any]] = []
    for n, ln in enumerate(text.splitlines(), 1):
        if not ln.strip():
            continue
        try:
            out.append((n, load_json(ln, LOG_LINE, f"{source}:{n}", "the line")))
        except InputRefused as e:
            if not e.problem.startswith("invalid JSON"):
                raise
            msg = e.problem.split(": ", 1)[-1]
            raise InputRefused(e.where, f"not JSON ({msg})") from None
    return out


def _strict_int(raw: Any, where: str, low: int, high: int) -> None:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InputRefused(where, f"must be a whole number, not {short(raw)}")
    if not low <= raw <= high:
        raise InputRefused(where, f"{raw} is outside {low}..{high:,}")


def check_log_header(head: dict[str, Any], where: str) -> None:
    """The header fields of a game log within bounds (strict types: a boolean is no number)."""
    seed = head.get("seed")
    if isinstance(seed, str) and len(seed) > 200:
        raise InputRefused(f"{where}.seed", "a text seed may be at most 200 characters")
    choices = head.get("choices")
    if isinstance(choices, list):
        if len(choices) > MAX_CHOICES:
            raise InputRefused(f"{where}.choices", f"more than {MAX_CHOICES:,} choices "
                               f"(limit {MAX_CHOICES:,})")
        for i, c in enumerate(choices):
            if isinstance(c, str | int | float) or c is None:
                if isinstance(c, str) and len(c) > 200:
                    raise InputRefused(f"{where}.choices[{i}]", "longer than 200 characters")
                continue
            raise InputRefused(f"{where}.choices[{i}]",
                               f"a choice is text or a number, not {short(c)}")
    setup = head.get("setup")
    if isinstance(setup, dict):
        if "players" in setup:
            _strict_int(setup["players"], f"{where}.setup.players", 2, MAX_PLAYERS)
        if "max_rounds" in setup:
            _strict_int(setup["max_rounds"], f"{where}.setup.max_rounds", 1, MAX_ROUNDS)
        if "touch_it_use_it" in setup and not isinstance(setup["touch_it_use_it"], bool):
            raise InputRefused(f"{where}.setup.touch_it_use_it", "must be true or false")
        if "scenario" in setup and not isinstance(setup["scenario"], str):
            raise InputRefused(f"{where}.setup.scenario", "must be text")
        teams = setup.get("teams", [])
        if not isinstance(teams, list) or len(teams) > MAX_PLAYERS:
            raise InputRefused(f"{where}.setup.teams",
                               f"must be a list of at most {MAX_PLAYERS} teams")


# -- web -----------------------------------------------------------------------------------------
def api_body(raw: bytes) -> Any:
    """A JSON request body decoded within ``API_BODY`` (the size is checked by the caller
    while it streams)."""
    return load_json(raw, API_BODY, "", "the request body", "body")


def ws_frame(text: str) -> Any:
    """One websocket text message decoded within ``WS_FRAME``."""
    return load_json(text, WS_FRAME, "", "the message", "message")
