"""Read team files (YAML or JSON) into a :class:`TeamSpec`, with one clear line per problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from carnage import guard
from carnage.team.model import SECTION_INVALID, SECTION_UNKNOWN, TeamSpec
from carnage.team.sections import unknown_key_message


class TeamFileError(ValueError):
    """A team file that cannot be read or does not have the team-file shape.

    ``problems`` holds one human-readable line per problem; ``str()`` joins them.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = [f"{source}: {p}" for p in problems] or [f"{source}: unreadable"]
        super().__init__("\n".join(self.problems))


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = guard.key_text(str(part))
            out += f".{name}" if out else name
    return out or "(top level)"


def _short(value: Any) -> str:
    return guard.short(value)


def _lines(err: Any) -> list[str]:
    """The lines of one pydantic error: a vehicle's unknown keys and a game's section of a
    vehicle (team/sections.py) give one line per key or per problem of the section."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == SECTION_UNKNOWN:
        return [f"{_loc((*err['loc'], k))}: {unknown_key_message(str(k))}"
                for k in ctx["keys"]]
    if kind == SECTION_INVALID:
        return [_describe({**sub, "loc": (*err["loc"], ctx["key"], *sub["loc"])})
                for sub in ctx["errors"]]
    return [_describe(err)]


def _describe(err: Any) -> str:
    """One line for one pydantic error, in terms of the team file."""
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and "[" in p))
    where = _loc(loc)
    kind = err["type"]
    given = err.get("input")
    if kind == "missing":
        return f"{where}: missing (required)"
    if kind == "value_error" and loc == ("templates",):  # the message names the place
        return str(err["ctx"]["error"])
    if kind == "extra_forbidden":
        return f"{where}: unknown key (not part of a team file)"
    if kind in {"model_type", "model_attributes_type", "dict_type"}:
        if len(loc) >= 2 and loc[-2] in {"weapons", "upgrades"}:
            return f"{where}: expected an id or a mapping with id and facing, got {_short(given)}"
        return f"{where}: expected a mapping, got {_short(given)}"
    if kind in {"tuple_type", "list_type"}:
        return f"{where}: expected a list, got {_short(given)}"
    if kind == "string_too_short":
        return f"{where}: must not be empty"
    return f"{where}: {err['msg'][0].lower()}{err['msg'][1:]} (got {_short(given)})"


def parse_team(data: Any, source: str = "team") -> TeamSpec:
    """Validate already-parsed data (a mapping) as a team file."""
    if not isinstance(data, dict):
        kind = "nothing" if data is None else type(data).__name__
        expected = "expected a mapping with name, cans and vehicles"
        raise TeamFileError(source, [f"{expected}, got {kind}"])
    try:
        guard.check_tree(data, guard.TEAM_FILE, "")
    except guard.InputRefused as e:
        raise TeamFileError(source, [str(e)]) from None
    try:
        return TeamSpec.model_validate(data)
    except ValidationError as e:
        seen: list[str] = []
        for err in e.errors():
            for line in _lines(err):
                if line not in seen:
                    seen.append(line)
        raise TeamFileError(source, seen) from None


def load_team(path: str | Path) -> TeamSpec:
    """Read a team file. ``.json`` files are parsed as JSON, anything else as YAML; the file
    goes through the guarded reader (regular files only, size, depth, alias and number
    limits) before the schema sees it."""
    try:
        data = guard.read_team_data(path)
    except guard.InputRefused as e:
        raise TeamFileError(str(path), [str(e).removeprefix(f"{path}: ")]) from None
    return parse_team(data, str(path))
