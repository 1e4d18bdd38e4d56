"""Plain words for what the table shows of a Refuelled game (and the Kart and Legacy games on
its engine): names for players, vehicles, weapons, templates, rules
and choices, never the engine's ids.

Everything here works from ids the engine hands over (vehicle ids, weapon mount keys, option
values, event sources) and the game state and catalogue that name them; nothing parses the
meaning out of prompt text. ``Names`` maps ids to display names and carries the players' names
under ``seat:N`` keys, so one mapping serves the log, the prompts and the errors. ``plain``
is the last pass over any sentence: it replaces ids still left in it (vehicle ids, mount keys
such as ``machine_gun#0``, ``seat 0``/``Player 1``, snake_case words) with names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from carnage.catalog import load_catalog
from carnage.games.refuelled.engine.state import GameState
from carnage.kernel.effect_ids import EffectId
from carnage.render.svg import SEAT_COLOURS as SEAT_COLOURS  # re-exported
from carnage.render.svg import seat_name as seat_name  # re-exported

Names = Mapping[str, str]
"""Id -> display name (vehicles, obstacles, ramps) and ``seat:N`` -> the player's name."""

def player_name(names: Names, seat: Any) -> str:
    if isinstance(seat, bool) or not isinstance(seat, int):
        return "nobody"
    return names.get(f"seat:{seat}", seat_name(seat))


def state_names(state: GameState) -> dict[str, str]:
    """Display names of everything an event or a prompt may mention, and of the players."""
    out: dict[str, str] = {}
    for ob in state.obstacles.values():
        if ob.wreck_of is not None and ob.wreck_of in state.vehicles:
            out[ob.id] = f"the wreck of {state.vehicles[ob.wreck_of].name}"
        else:
            out[ob.id] = words(ob.id)
    for ramp in state.ramps.values():
        out[ramp.id] = words(ramp.id)
    for v in state.vehicles.values():
        out[v.id] = v.name
    for p in range(state.players):
        out[f"seat:{p}"] = seat_name(p)  # the team's name is shown beside it, not in it
    return out


# -- catalogue names -----------------------------------------------------------------------------
@lru_cache(maxsize=1)
def catalogue_names() -> dict[str, str]:
    """Every catalogue id (weapons, upgrades, perks, sponsors, vehicle types, templates) ->
    its printed name; weapons first where ids coincide."""
    cat = load_catalog()
    out: dict[str, str] = {}
    for section in (cat.templates, cat.vehicles, cat.sponsors, cat.perk_classes, cat.perks,
                    cat.upgrades, cat.weapons):
        for rid, rec in section.records.items():
            out[rid] = str(rec.name)
    return out


def words(ident: str) -> str:
    """``snake_case`` or ``kebab-case`` as words."""
    return ident.replace("_", " ").replace("-", " ").strip()


def catalogue_name(ident: str) -> str:
    """The printed name of a catalogue id, else the id as words."""
    return catalogue_names().get(ident, words(ident))


def mount_name(key: str) -> str:
    """A weapon or upgrade mount key (``machine_gun#0``, ``handgun``, ``drop:mine_dropper#1``)
    as the weapon's name."""
    key = key.split(":", 1)[1] if key.startswith("drop:") else key
    return catalogue_name(key.split("#", 1)[0])


RULE_WORDS = {
    "core": "Core rules",
    "shift": "Shift results",
    "scenario": "Scenario",
}


def rule_name(source: str) -> str:
    """An event's or decision's rule (its ``source``) as the rule's name: ``perk:pid:vid`` ->
    the perk's name, a catalogue id -> its name, else the words capitalised."""
    if not source:
        return ""
    eid = EffectId.read(source)
    if eid is not None and eid.kind in ("perk", "weapon", "upgrade", "sponsor", "scenario"):
        return catalogue_name(eid.name) if eid.kind != "scenario" else _title(eid.name)
    if source in RULE_WORDS:
        return RULE_WORDS[source]
    if source in catalogue_names():
        return catalogue_names()[source]
    # Not an effect id (an empty part): the words before its first colon, if any.
    return _title(eid.kind if eid is not None else source.partition(":")[0])


def _title(ident: str) -> str:
    w = words(ident)
    return w[:1].upper() + w[1:]


# -- templates and choices -----------------------------------------------------------------------
def template_name(value: str) -> str:
    """A template option value (``hard/left/reverse``) as words: "Hard (left) in reverse"."""
    tid, *flags = value.split("/")
    out = catalogue_name(tid)
    if "left" in flags:
        out += " (left)"
    if "reverse" in flags:
        out += " in reverse"
    return out


def die_list(indices: Sequence[int]) -> str:
    """Die positions (from 0 in the engine) as the player counts them, from 1."""
    nums = [str(i + 1) for i in indices]
    if len(nums) == 1:
        return f"die {nums[0]}"
    return "dice " + ", ".join(nums[:-1]) + f" and {nums[-1]}"


SHIFT_WORDS = {
    "gear_up": "gear up",
    "gear_down": "gear down",
    "discard_hazard": "discard a Hazard token",
    "discard": "discard one Shift",
    "done": "discard the remaining Shifts",
}


def choice_text(kind: str, value: Any, names: Names, faces: Sequence[str] = ()) -> str:
    """What a choice of a decision of ``kind`` means, in words ("the Hard template to the
    left", "2 skid dice", "reroll dice 1 and 3", "fire Machine Gun at Red Car")."""
    if isinstance(value, float):
        return f"{value:+g}°" if kind in ("spin", "lose_control") else f"{value:g}"
    if isinstance(value, int) and not isinstance(value, bool):
        if kind == "skid_dice":
            return f"{value} skid {'die' if value == 1 else 'dice'}"
        return str(value)
    v = str(value)
    if kind == "template":
        return template_name(v)
    if kind == "grid":
        return f"{v} mm from the grid centre"
    if kind == "push_it":
        if v == "no":
            return "keep the dice"
        idx = _indices(v)
        return f"Push It: reroll {die_list(idx)}" if idx is not None else plain(v, names)
    if kind == "spend_shift":
        act, _, arg = v.partition(":")
        if act == "cancel" and arg.isdigit():
            i = int(arg)
            face = f"the {faces[i].capitalize()} on " if i < len(faces) else ""
            return f"cancel {face}die {i + 1}"
        if act in SHIFT_WORDS:
            return SHIFT_WORDS[act]
    if kind in ("attack", "attack_weapon") or ">" in v:
        if v == "stop":
            return "make no more attacks"
        key, sep, target = v.partition(">")
        if sep:
            return f"fire {mount_name(key)} at {_target(target, names)}"
    return plain(v, names)


def _target(tid: str, names: Names) -> str:
    tid = tid.lstrip("@")
    return names.get(tid, plain(tid, names))


def _indices(v: str) -> list[int] | None:
    parts = v.split(",")
    if all(p.strip().isdigit() for p in parts):
        return [int(p) for p in parts]
    return None


# -- the last pass over any sentence -----------------------------------------------------------
_MOUNT = re.compile(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*)#\d+\b")
_SEAT = re.compile(r"\b(?:seat|Seat|player|Player) (\d+)\b")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_VEHICLE_ID = re.compile(r"(?<![\w-])p\d+-([a-z0-9]+(?:-[a-z0-9]+)*)(?![\w-])")
_CANCEL = re.compile(r"\bcancel:(\d+)\b")


def plain(text: str, names: Names) -> str:
    """``text`` with the ids left in it replaced by names: vehicle and obstacle ids, mount keys
    (``machine_gun#0`` -> Machine Gun), ``a>b`` choice values, ``seat N`` (from 0) and
    ``Player N`` (from 1) -> the player's name, catalogue ids and other snake_case -> words."""
    if not text:
        return text
    ids = sorted((k for k in names if not k.startswith("seat:")), key=len, reverse=True)
    if ids:
        pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(i) for i in ids)
                             + r")(?![\w-])")
        text = pattern.sub(lambda m: names[m.group(0)], text)
    text = re.sub(r"(\w[\w ']*?)>(\w[\w ']*)", r"\1 at \2", text) if ">" in text else text
    text = _MOUNT.sub(lambda m: catalogue_name(m.group(1)), text)

    def seat(m: re.Match[str]) -> str:
        n = int(m.group(1))
        s = n if m.group(0).lower().startswith("seat") else n - 1
        return player_name(names, s) if s >= 0 else m.group(0)

    text = _SEAT.sub(seat, text)
    text = _VEHICLE_ID.sub(lambda m: words(m.group(1)).title(), text)
    text = _CANCEL.sub(lambda m: f"cancel die {int(m.group(1)) + 1}", text)
    cat = catalogue_names()
    return _SNAKE.sub(lambda m: cat.get(m.group(0), words(m.group(0))), text)
