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

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

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
            out[ob.id] = obstacle_words(ob.id)
    for ramp in state.ramps.values():
        out[ramp.id] = words(ramp.id)
    for v in state.vehicles.values():
        out[v.id] = v.name
    for p in range(state.players):
        out[f"seat:{p}"] = seat_name(p)  # the team's name is shown beside it, not in it
    out[TABLE_KEY] = f"{state.width:g},{state.height:g}"
    return out


def obstacle_words(oid: str) -> str:
    """An obstacle's id as words: "gun_turret:1" -> "gun turret 1", "flag-p2" -> "Blue's
    flag" (a thing of a seat, numbered from 1)."""
    m = _PLAYER_THING.fullmatch(oid)
    if m and int(m.group(2)) >= 1:
        return f"{seat_name(int(m.group(2)) - 1)}'s {m.group(1)}"
    return words(oid).replace(":", " ")


# -- places and turns in words -------------------------------------------------------------------
TABLE_KEY = "table:size"
"""The ``Names`` key carrying the table's width and height (``"900,1200"``), so a sentence can
say where on the table a point lies."""

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")
"""Headings in words, every 45° anticlockwise from east (0°); north is the table's far edge
(y grows northwards, as the drawing shows it)."""

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")


def ordinal(n: int) -> str:
    """1 -> "first" ... 10 -> "tenth", then "11th"."""
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def compass(heading: Any) -> str:
    """A heading (degrees anticlockwise from east) as the nearest of eight compass points."""
    return COMPASS[round(float(heading) % 360.0 / 45.0) % 8]


def table_size(names: Names) -> tuple[float, float] | None:
    raw = names.get(TABLE_KEY)
    if raw is None:
        return None
    w, _, h = raw.partition(",")
    return float(w), float(h)


def table_area(names: Names, x: Any, y: Any) -> str:
    """Where a point lies on the table, in words: "the north-west of the table", "the middle
    of the table", "off the south edge of the table" (thirds of the table's width and depth)."""
    size = table_size(names)
    if size is None or not all(isinstance(c, int | float) for c in (x, y)):
        return "the table"
    w, h = size
    fx, fy = float(x), float(y)
    off = [edge for edge, out in (("south", fy < 0), ("north", fy > h), ("west", fx < 0),
                                  ("east", fx > w)) if out]
    if off:
        return f"off the {'-'.join(off)} edge of the table"
    ns = "south" if fy < h / 3 else "north" if fy > 2 * h / 3 else ""
    ew = "west" if fx < w / 3 else "east" if fx > 2 * w / 3 else ""
    if not ns and not ew:
        return "the middle of the table"
    return f"the {'-'.join(p for p in (ns, ew) if p)} of the table"


def turn_words(degrees: Any) -> str:
    """An anticlockwise turn in whole degrees and a side: "45° left", "30° right"."""
    d = round(float(degrees))
    if d == 0:
        return "no turn"
    return f"{abs(d)}° {'left' if d > 0 else 'right'}"


def mm(value: float) -> str:
    return f"{round(abs(value))} mm"


def shift_words(dx: float, dy: float, heading: float) -> str:
    """A move of (dx, dy) seen from a vehicle facing ``heading``: "150 mm ahead", "120 mm back
    and 40 mm left" (a sideways part under 5 mm is not said)."""
    h = math.radians(heading)
    ahead = dx * math.cos(h) + dy * math.sin(h)
    left = -dx * math.sin(h) + dy * math.cos(h)
    out = f"{mm(ahead)} {'ahead' if ahead >= 0 else 'back'}" if abs(ahead) >= 0.5 else ""
    if abs(left) >= 5.0:
        side = f"{mm(left)} {'left' if left > 0 else 'right'}"
        out = f"{out} and {side}" if out else side
    return out or "nowhere"


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
    key = key.split("|")[1] if "|" in key else key  # "p1-tank|125mm_cannon": the mount
    return catalogue_name(key.split("#", 1)[0])


RULE_WORDS = {
    "core": "Core rules",
    "shift": "Shift results",
    "scenario": "Scenario",
    "Gaslands: Legacy": "Gaslands: Legacy",
}


@lru_cache(maxsize=4096)
def rule_name(source: str) -> str:
    """An event's or decision's rule (its ``source``) as the rule's name: ``perk:pid:vid`` ->
    the perk's name, a catalogue id -> its name, else the words capitalised."""
    if not source:
        return ""
    eid = EffectId.read(source)
    if eid is not None and eid.kind in ("perk", "weapon", "upgrade", "sponsor", "scenario"):
        return catalogue_name(eid.name) if eid.kind != "scenario" else _scenario_title(eid.name)
    if source in RULE_WORDS:
        return RULE_WORDS[source]
    if source in catalogue_names():
        return catalogue_names()[source]
    # Not an effect id (an empty part): the words before its first colon, if any.
    return _scenario_title(eid.kind if eid is not None else source.partition(":")[0])


def _scenario_title(ident: str) -> str:
    """A scenario's own name as the book prints it ("Death Race"); other words capitalised."""
    from carnage.games.refuelled.scenarios import SCENARIOS

    found = SCENARIOS.get(ident.replace("_", "-"))
    name = getattr(found, "name", None)
    return str(name) if name else _title(ident)


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
    if isinstance(value, float | int) and not isinstance(value, bool) and kind in TURNS:
        return f"a turn of {turn_words(value)}" if round(value) else "no turn"
    if isinstance(value, float):
        return f"{round(value)}"
    if isinstance(value, int) and not isinstance(value, bool):
        if kind == "skid_dice":
            return f"{value} skid {'die' if value == 1 else 'dice'}"
        return _said_choice(kind, str(value), names) or str(value)
    v = str(value)
    if kind in ("spin", "lose_control") and v == "done":  # turned by hand at a real table
        # (ruling CP-25)
        return "a turn made on the real table"
    if kind == "template":
        return template_name(v)
    if kind == "grid":
        return grid_place(v)
    if kind == "spawn_pose":
        return spawn_pose_words(v)
    if kind == "token_drop":
        act, _, arg = v.partition(":")
        bearing, _, dist = arg.partition(":")
        if act == "down" and _OFFSET.fullmatch(bearing) and _OFFSET.fullmatch(dist):
            return f"set it down {mm(float(dist))} to the {compass(float(bearing))}"
        if act == "down" and not arg:
            return "set it down within Short"
        if act == "give" and arg:
            return f"hand it to {names.get(arg, plain(arg, names))}"
        if act == "keep":
            return "keep it"
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
    said = _said_choice(kind, v, names)
    if said is not None:
        return said
    head, colon, rest = v.partition(":")
    if colon and head == "grid" and _POINT.fullmatch(rest):
        v = rest
    if _CENTRE_OFFSET.fullmatch(v):  # an offset from the table's centre ("+0,+240")
        dx, dy = (float(c) for c in v.split(","))
        if round(math.hypot(dx, dy)) == 0:
            return "the centre of the table"
        towards = math.degrees(math.atan2(dy, dx))
        return f"{mm(math.hypot(dx, dy))} {compass(towards)} of the table's centre"
    if colon and head == "centre" and rest in EDGES:
        return f"the centre of the table, facing the {rest} edge"
    point = _POSED_POINT.fullmatch(v)
    if point:  # a point on the table (a spawn point, a pool), perhaps with a facing
        x, y, h = point.group(1), point.group(2), point.group(3) or point.group(4)
        facing = f", facing {compass(float(h))}" if h is not None else ""
        return f"a place in {table_area(names, float(x), float(y))}{facing}"
    if colon and head in EDGES and _OFFSET.fullmatch(rest):
        return f"the {head} edge of the table, {mm(float(rest))} along it"
    if colon and head == "pole" and rest.isdigit():
        return f"pole position for {player_name(names, int(rest))}"
    oid, sep, how = v.partition(":")
    if sep and oid in names and how and ":" not in how:  # an object and a way ("p1-car:up")
        return f"{names[oid]} ({SIDE_WORDS.get(how, words(how))})"
    return plain(v, names)


CHOICE_WORDS: dict[str, dict[str, str]] = {
    "airwolf": {"no": "no Airwolf pivot", "pivot": "to gain 2 Hazards and pivot (Airwolf)"},
    "collision_reaction": {"evade": "to evade", "smash": "a Smash Attack"},
    "commercial_break": {"respawn": "to respawn now", "no": "not to respawn yet",
                         "stay": "to leave it out for now"},
    "loot_nitro": {"yes": "to fire the loot Nitro Booster",
                   "no": "to keep the loot Nitro Booster for later"},
    "roar": {"roar": "to Roar, turning to face its foe", "no": "not to Roar"},
    "roll_cage": {"ignore": "to use the Roll Cage and ignore the Flip's hits",
                  "yes": "to use the Roll Cage and ignore the Flip's hits",
                  "take": "to take the Flip's hits", "no": "to take the Flip's hits"},
    "selvaggio": {"yes": "Selvaggio: a Hull Point lost to discard every Hazard",
                  "no": "not to use Selvaggio yet"},
    "slide": {"left": "to slide round to face left", "right": "to slide round to face right"},
    "snl_prize": {"claim": "to claim the prize", "decline": "to decline the prize"},
    "spend_votes": {"done": "to spend no more Audience Votes"},
    "tanker_anchor": {"move": "to move as usual",
                      "anchor": "to drop the Tanker Anchor (a Hazard, no Movement Step)"},
    "tanker_anchor_gear": {"stay": "to stay in gear", "up": "to change up a gear"},
    "up_and_over": {"over": "to drive up and over it", "no": "to stay where it stopped"},
}
"""Choices of a kind whose value is a bare word, as the log says them ("Blue chose to evade"):
the same meaning as the option's label on the table, said after "chose"."""

COMPASS_LETTERS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east",
                   "S": "south", "SW": "south-west", "W": "west", "NW": "north-west"}


def _said_choice(kind: str, v: str, names: Names) -> str | None:
    """A choice of a decision told by its kind (``CHOICE_WORDS`` and a few patterns), or None
    to let ``choice_text`` read the value itself."""
    said = CHOICE_WORDS.get(kind, {}).get(v)
    if said is not None:
        return said
    if kind == "entry_edge" and v in EDGES:
        return f"the {v} edge as the entry edge"
    if kind == "rig_facing" and v in EDGES:
        return f"to face the War Rig towards the {v} edge"
    if kind == "new_flag" and v in COMPASS_LETTERS:
        return f"the {COMPASS_LETTERS[v]} point for a new flag"
    if kind == "truckasaurus_facing" and _OFFSET.fullmatch(v):
        return f"to face Truckasaurus {compass(float(v))}"
    if kind == "war_rig_upgrade" and re.fullmatch(r"[a-z_]+", v):
        return f"the {words(v).title()} upgrade"
    if kind == "cancel_hit":
        return f"to cancel a {words(v)} hit"
    if kind == "splash":
        under = [names.get(i, plain(i, names)) for i in v.split(",") if i and i != "-"]
        return ("the template over the target alone" if not under
                else f"the template over the target and {' and '.join(under)}")
    return None


SIDE_WORDS = {"up": "gear up", "down": "gear down"}
"""The second half of a ``vehicle:way`` choice value, in words."""


_NUM = r"-?\d+(?:\.\d+)?"
_POINT = re.compile(f"{_NUM},{_NUM}")
_CENTRE_OFFSET = re.compile(r"[+-]\d+(?:\.\d+)?,[+-]\d+(?:\.\d+)?")
_POSED_POINT = re.compile(f"({_NUM}),({_NUM})(?:@({_NUM})|,({_NUM}))?")
EDGES = ("north", "south", "east", "west")
TURNS = frozenset({"spin", "lose_control", "pivot", "airwolf_pivot", "jackknife_swing",
                   "jackknife_pivot", "sandstorm"})
"""Decisions whose value is a turn in degrees, anticlockwise (positive: to the left)."""
_OFFSET = re.compile(r"[+-]?\d+(?:\.\d+)?")
_RANK = re.compile(r"r(\d+)c(\d+)")


def grid_place(value: str) -> str:
    """A starting-grid place in words: an offset along the line ("+30" -> "the place 30 mm
    right of the grid's centre", right as the vehicles face) or a rank and column ("r2c1" ->
    "the second row of the grid, first place")."""
    if _OFFSET.fullmatch(value):
        off = float(value)
        if round(off) == 0:
            return "the centre of the starting grid"
        return f"the place {mm(off)} {'right' if off > 0 else 'left'} of the grid's centre"
    m = _RANK.fullmatch(value)
    if m:
        return (f"the {ordinal(int(m.group(1)))} row of the grid, "
                f"{ordinal(int(m.group(2)))} place")
    return words(value)


def slot_words(value: str, names: Names) -> str:
    """Where a deployed vehicle was put, from its ``slot``: a starting-grid place, a place by a
    spawn point, a point or an edge of the table."""
    if _OFFSET.fullmatch(value) or _RANK.fullmatch(value):
        return grid_place(value)
    if value.count(":") == 2:
        return spawn_pose_words(value)
    return choice_text("place", value, names)


def spawn_pose_words(value: str) -> str:
    """A place by a spawn point (``bearing:distance:heading``) in words: "40 mm north-east of
    the spawn point, facing east"."""
    parts = value.split(":")
    try:
        bearing, dist, heading = (float(p) for p in parts)
    except ValueError:
        return words(value)
    where = "on the spawn point" if round(dist) == 0 else \
        f"{mm(dist)} {compass(bearing)} of the spawn point"
    return f"{where}, facing {compass(heading)}"


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
_DEGREES = re.compile(r"\b(out at|facing) (-?\d+(?:\.\d+)?) degrees\b")
_PLAYER_THING = re.compile(r"\b([a-z]+)-p(\d+)\b")
_NUMBERED = re.compile(r"\b([A-Za-z]*[a-z][A-Za-z]*)[-:](\d+)\b(?![-:.]\d)")
_P_SEAT = re.compile(r"\bP(\d+)\b")
_SIDE = re.compile(r"\bSide ((?:P\d+\+)+P\d+)\b")
_RULING = re.compile(r"\b(?:ruling )?([A-Z]{1,5}(?:-[A-Z])?-\d+)\b")
RULING_NAMES = Path(__file__).resolve().parent / "data" / "ruling_names.yaml"


@lru_cache(maxsize=1)
def ruling_names() -> dict[str, str]:
    """Ruling id -> its topic's name (data/ruling_names.yaml, from docs/rulings.md)."""
    raw = yaml.safe_load(RULING_NAMES.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in raw.items()}


def ruling_text(rid: str) -> str | None:
    """A ruling of ours cited in words ("our ruling on ties"); None for an id not ours."""
    name = ruling_names().get(rid)
    return None if name is None else f"our ruling on {name[:1].lower() + name[1:]}"


@lru_cache(maxsize=256)
def _ids_pattern(keys: tuple[str, ...]) -> re.Pattern[str] | None:
    """The pattern finding the ids among ``keys`` (a ``Names``' keys, in its order) in a
    text, longest first; None: no id. Built once per set of ids (a game's names change only
    when a vehicle, an obstacle or a wreck comes or goes), not for every sentence; what an
    id is replaced by is read from the names at each use."""
    ids = sorted((k for k in keys if not k.startswith(("seat:", "table:"))), key=len,
                 reverse=True)
    if not ids:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")


def plain(text: str, names: Names) -> str:
    """``text`` with the ids left in it replaced by names: vehicle and obstacle ids, mount keys
    (``machine_gun#0`` -> Machine Gun), ``a>b`` choice values, ``seat N`` (from 0) and
    ``Player N`` (from 1) -> the player's name, catalogue ids and other snake_case -> words."""
    if not text:
        return text
    pattern = _ids_pattern(tuple(names))
    if pattern is not None:
        text = pattern.sub(lambda m: names[m.group(0)], text)
    # Each pass below runs only when its pattern could match (a character every match holds
    # is in the text): the same words, without a dozen searches of every sentence.
    text = re.sub(r"(\w[\w ']*?)>(\w[\w ']*)", r"\1 at \2", text) if ">" in text else text
    if "#" in text:
        text = _MOUNT.sub(lambda m: catalogue_name(m.group(1)), text)

    def seat(m: re.Match[str]) -> str:
        n = int(m.group(1))
        s = n if m.group(0).lower().startswith("seat") else n - 1
        return player_name(names, s) if s >= 0 else m.group(0)

    if "eat " in text or "layer " in text:
        text = _SEAT.sub(seat, text)
    if "Side " in text:
        text = _SIDE.sub(lambda m: "the side of " + " and ".join(
            player_name(names, int(p[1:]) - 1) for p in m.group(1).split("+")), text)
    if "P" in text:
        text = _P_SEAT.sub(lambda m: player_name(names, int(m.group(1)) - 1)
                           if int(m.group(1)) >= 1 else m.group(0), text)
    if "-" in text:  # a ruling's id: capitals, a dash and a number ("CP-20")
        text = _RULING.sub(lambda m: ruling_text(m.group(1)) or m.group(0), text)
    if " degrees" in text:
        text = _DEGREES.sub(lambda m: f"{'out to the' if m.group(1) == 'out at' else 'facing'} "
                            f"{compass(float(m.group(2)))}", text)
    if "-" in text:
        text = _PLAYER_THING.sub(lambda m: f"{player_name(names, int(m.group(2)) - 1)}'s "
                                 f"{m.group(1)}" if int(m.group(2)) >= 1 else m.group(0), text)
        text = _VEHICLE_ID.sub(lambda m: words(m.group(1)).title(), text)
    if "cancel:" in text:
        text = _CANCEL.sub(lambda m: f"cancel die {int(m.group(1)) + 1}", text)
    if "_" in text:
        cat = catalogue_names()
        text = _SNAKE.sub(lambda m: cat.get(m.group(0), words(m.group(0))), text)
    if "-" in text or ":" in text:
        text = _NUMBERED.sub(r"\1 \2", text)  # "crate-1", "Sentry Gun:1" -> "crate 1"
    return text
