"""BattleScribe rosters: read ``.ros`` (XML) and ``.rosz`` (a zip holding one ``.ros``) team
lists made with the community BSData Gaslands catalogue, and write them.

A roster (namespace ``http://www.battlescribe.net/schema/rosterSchema``) holds ``forces``, each
with nested ``selections``. In the Gaslands catalogue a vehicle is a selection named after its
type ("Car", the player's own name in ``customName``); its weapons, upgrades and driver perks are
selections inside it, a weapon's facing a selection inside the weapon ("Front", "Turret") or a
"(Front)" at the end of its name; the sponsor is a selection (often inside one called
"Sponsor") named after the sponsor; the team's size is the roster's "Cans" cost limit.

Entries are matched to our catalogue by their printed names (case, spaces and punctuation
ignored, plus a few spellings the BSData catalogue uses); whatever cannot be matched is
reported, never guessed. Rosters this module writes carry our ids in ``entryId``
(``carnage:weapon:machine_gun``), so they read back exactly.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from carnage import bounds, guard
from carnage.catalog import load_catalog
from carnage.guard import short
from carnage.team.io import TeamFileError, parse_team
from carnage.team.model import TeamSpec

NS = "http://www.battlescribe.net/schema/rosterSchema"
MAX_BYTES = 2_000_000
"""The largest roster read (the XML, after unzipping); a Gaslands team is a few kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of elements read: a roster nests force, selections, vehicle, weapon,
facing (about a dozen levels)."""
MAX_NUMBER = bounds.MAX_LIST
"""The most copies one ``<selection number=...>`` may stand for (a vehicle holds at most
``bounds.MAX_LIST`` weapons or upgrades, ruling IN-4)."""
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
"""How a ``.rosz`` entry may be compressed (BattleScribe writes deflate)."""
DEFAULT_CANS = 50
"""The team size assumed when the roster sets no "Cans" limit (a common size, p.64)."""
FACINGS = {"front": "front", "rear": "rear", "side": "side", "left": "side", "right": "side",
           "turret": "turret", "turret mounted": "turret", "turret mounting": "turret"}
STRUCTURAL = {"sponsor", "sponsors", "options", "upgrades", "weapons", "driver perks", "perks",
              "team", "vehicles", "vehicle", "crew", "handgun", "handguns"}
"""Selection names that only group others (their children are read, they map to nothing)."""
ALIASES = {
    "improvedsludgethrower": ("upgrade", "improvised_sludge_thrower"),
    "turretmounting": ("facing", "turret"),
}
"""BSData spellings that differ from the printed names, normalised -> (kind, our id)."""
SYSTEM_NAME = "Gaslands"


class RosterError(ValueError):
    """A file that is not a readable BattleScribe roster (the message says why)."""


@dataclass(frozen=True)
class RosterImport:
    team: dict[str, Any]
    """The team file (JSON shape), ready for ``parse_team``."""
    unmapped: tuple[str, ...] = ()
    """Entries with no counterpart in our catalogue, each "name (where)"."""
    notes: tuple[str, ...] = ()
    """Assumptions made (a default team size, a facing not given ...)."""

    def spec(self, source: str = "roster") -> TeamSpec:
        return parse_team(self.team, source)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def _index() -> dict[str, tuple[str, str]]:
    cat = load_catalog()
    out: dict[str, tuple[str, str]] = {}
    for kind, section in (("perk", cat.perks), ("upgrade", cat.upgrades),
                          ("weapon", cat.weapons), ("sponsor", cat.sponsors),
                          ("vehicle", cat.vehicles)):
        for rid, rec in section.records.items():
            out[_norm(str(rec.name))] = (kind, rid)
            out.setdefault(_norm(rid), (kind, rid))
    out.update(ALIASES)
    return out


def _tag(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _children(el: ET.Element, name: str) -> Iterator[ET.Element]:
    for c in el:
        if _tag(c) == name:
            yield c


def _selections(el: ET.Element) -> Iterator[ET.Element]:
    for group in _children(el, "selections"):
        yield from _children(group, "selection")


def _unzip(data: bytes, source: str) -> bytes:
    """The one ``.ros`` inside a ``.rosz``: read only if stored or deflated, unencrypted and
    at most ``MAX_BYTES`` (whatever its header claims)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            inner = [i for i in z.infolist() if i.filename.lower().endswith(".ros")]
            if len(inner) != 1:
                raise RosterError(f"{source}: a .rosz holds one .ros roster, this one has "
                                  f"{len(inner)}")
            info = inner[0]
            if info.flag_bits & 0x1:
                raise RosterError(f"{source}: the roster inside the .rosz is encrypted")
            if info.compress_type not in ZIP_METHODS:
                raise RosterError(f"{source}: the roster inside the .rosz is compressed with "
                                  f"method {info.compress_type} (only "
                                  f"{' or '.join(ZIP_METHODS.values())} is read)")
            if info.file_size > MAX_BYTES:
                raise RosterError(f"{source}: the roster inside is larger than "
                                  f"{MAX_BYTES // 1000} kB")
            with z.open(info) as f:
                return f.read(MAX_BYTES + 1)
    except RosterError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
            ValueError, OSError) as e:
        why = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
        raise RosterError(f"{source}: not a readable .rosz (a broken zip file: {why})") from None


def _xml_bytes(data: bytes, source: str) -> bytes:
    if data[:4] == b"PK\x03\x04":
        data = _unzip(data, source)
    if len(data) > MAX_BYTES:
        raise RosterError(f"{source}: larger than {MAX_BYTES // 1000} kB, not a team roster")
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data:
        raise RosterError(f"{source}: rosters have no DOCTYPE or entities")
    return data


def _depth(root: ET.Element, source: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` (the reader recurses along it)."""
    stack = [(root, 1)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RosterError(f"{source}: elements nested deeper than {MAX_DEPTH} levels "
                              f"(limit {MAX_DEPTH}; a roster needs about a dozen)")
        stack.extend((c, depth + 1) for c in el)


def _parse(data: bytes, source: str) -> ET.Element:
    xml = _xml_bytes(data, source)
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as e:
        raise RosterError(f"{source}: not a BattleScribe roster (invalid XML: {e})") from None
    except (LookupError, ValueError) as e:  # an encoding Python does not know
        why = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
        raise RosterError(f"{source}: not a BattleScribe roster (unreadable XML: {why})"
                          ) from None
    except RecursionError:
        raise RosterError(f"{source}: elements nested too deeply (limit {MAX_DEPTH})") from None
    _depth(root, source)
    if _tag(root) != "roster":
        raise RosterError(f"{source}: not a BattleScribe roster (the top element is "
                          f"<{_tag(root)}>, not <roster>)")
    system = root.get("gameSystemName")
    if system and _norm(system) != _norm(SYSTEM_NAME):
        raise RosterError(f"{source}: a roster for {system!r}, not Gaslands")
    return root


def _cans(root: ET.Element, source: str) -> tuple[int | None, int | None]:
    """(the roster's Cans limit, its Cans total), each None when absent."""
    def value(group: str, item: str) -> int | None:
        for g in _children(root, group):
            for c in _children(g, item):
                if _norm(c.get("name", "")) == "cans":
                    try:
                        v = float(c.get("value", ""))
                    except ValueError:
                        return None
                    if not math.isfinite(v) or v > bounds.MAX_RATING:
                        raise RosterError(f"{source}: a Cans {item} of {short(v)}; a team is "
                                          f"at most {bounds.MAX_RATING:,} cans (ruling IN-2)")
                    return math.ceil(v) if v >= 0 else None
        return None
    return value("costLimits", "costLimit"), value("costs", "cost")


def _our_id(sel: ET.Element, index: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    entry = sel.get("entryId", "")
    if entry.startswith("carnage:"):
        parts = entry.split(":")
        if len(parts) == 3:
            return parts[1], parts[2]
    name = sel.get("name", "")
    found = index.get(_norm(name))
    if found is None:
        m = re.match(r"^(.*?)\s*\((front|rear|side|turret|left|right)\)\s*$", name, re.I)
        if m:
            found = index.get(_norm(m.group(1)))
    return found


def _facing_of(sel: ET.Element, index: dict[str, tuple[str, str]]) -> str | None:
    m = re.search(r"\((front|rear|side|turret|left|right)\)\s*$", sel.get("name", ""), re.I)
    if m:
        return FACINGS[m.group(1).lower()]
    for c in _selections(sel):
        name = c.get("name", "").strip().lower()
        if name in FACINGS:
            return FACINGS[name]
        if index.get(_norm(name), ("", ""))[0] == "facing":
            return index[_norm(name)][1]
    return None


def _mount_of(sel: ET.Element) -> str | None:
    """Cab or trailer, for a weapon of an articulated vehicle (a "Trailer" or "Cab" inside)."""
    for c in _selections(sel):
        name = c.get("name", "").strip().lower()
        if name in ("cab", "trailer", "on the trailer", "on the cab"):
            return name.rsplit(" ", 1)[-1]
    return None


def _number(sel: ET.Element, what: str, source: str) -> int:
    """How many copies a selection stands for: a whole number 1..``MAX_NUMBER`` (BattleScribe
    writes ``1`` or ``2``, sometimes ``1.0``); anything else is refused."""
    raw = sel.get("number", "1").strip()
    try:
        v = float(raw[:40])
    except ValueError:
        v = math.nan
    if not math.isfinite(v) or v != int(v) or not 0 <= v <= MAX_NUMBER:
        raise RosterError(f"{source}: {what}: number={short(raw)} is not a whole number "
                          f"0..{MAX_NUMBER} (ruling IN-4)")
    return max(1, int(v))


@dataclass
class _Reader:
    index: dict[str, tuple[str, str]]
    source: str = "roster"
    unmapped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sponsor: str | None = None
    vehicles: list[dict[str, Any]] = field(default_factory=list)

    def force(self, force: ET.Element) -> None:
        for sel in _selections(force):
            self.top(sel, where=force.get("name") or "the team")

    def top(self, sel: ET.Element, where: str) -> None:
        found = _our_id(sel, self.index)
        name = sel.get("name", "").strip()
        if found is not None and found[0] == "vehicle":
            self.vehicle(sel, found[1])
        elif found is not None and found[0] == "sponsor":
            self.sponsor = found[1]
        elif _norm(name) in {_norm(s) for s in STRUCTURAL} or not name:
            for c in _selections(sel):
                self.top(c, where)
        else:
            self.unmapped.append(f"{name or '(unnamed)'} ({where})")

    def vehicle(self, sel: ET.Element, vtype: str) -> None:
        cat = load_catalog()
        type_name = str(cat.vehicles.get(vtype).name)
        number = sum(1 for v in self.vehicles if v["type"] == vtype) + 1
        name = (sel.get("customName") or "").strip() or f"{type_name} {number}"
        v: dict[str, Any] = {"name": name, "type": vtype, "weapons": [], "upgrades": [],
                             "perks": []}
        for c in _selections(sel):
            self.fitting(c, v)
        self.vehicles.append(v)

    def fitting(self, sel: ET.Element, v: dict[str, Any]) -> None:
        name = sel.get("name", "").strip()
        found = _our_id(sel, self.index)
        count = _number(sel, f"{name or '(unnamed)'} on {v['name']}", self.source)
        if found is None:
            if _norm(name) in {_norm(s) for s in STRUCTURAL} or name.lower() in FACINGS \
                    or name.lower() in ("cab", "trailer"):
                for c in _selections(sel):
                    self.fitting(c, v)
            else:
                self.unmapped.append(f"{name or '(unnamed)'} (on {v['name']})")
            return
        kind, rid = found
        if kind in ("facing", "mount"):
            return
        cat = load_catalog()
        if kind == "weapon":
            facing = _facing_of(sel, self.index)
            allowed = [str(f) for f in cat.weapons.get(rid).allowed_facings]
            assumed = None
            if facing is None and allowed:
                assumed = "front" if "front" in allowed else allowed[0]
            mount = _mount_of(sel)
            for _ in range(count):
                entry: dict[str, Any] = {"id": rid}
                if facing is not None or assumed is not None:
                    entry["facing"] = facing or assumed
                if mount is not None:
                    entry["mount"] = mount
                v["weapons"].append(entry)
            if assumed is not None:
                self.notes.append(f"{cat.weapons.get(rid).name} on {v['name']}: no facing "
                                  f"in the roster, {assumed} assumed")
        elif kind == "upgrade":
            facing = _facing_of(sel, self.index)
            for _ in range(count):
                v["upgrades"].append({"id": rid, **({"facing": facing} if facing else {})})
        elif kind == "perk":
            v["perks"].append(rid)
        else:
            self.unmapped.append(f"{name} (on {v['name']}: a {kind}, not something a vehicle "
                                 "carries)")


def read_roster(data: bytes, source: str = "roster") -> RosterImport:
    """The team in a ``.ros`` or ``.rosz`` file's bytes; ``RosterError`` if it is not one."""
    root = _parse(data, source)
    reader = _Reader(_index(), source)
    forces = [f for g in _children(root, "forces") for f in _children(g, "force")]
    if not forces:
        raise RosterError(f"{source}: the roster has no force (no team in it)")
    for f in forces:
        reader.force(f)
    limit, total = _cans(root, source)
    cans = limit if limit else total
    if not cans:
        cans = DEFAULT_CANS
        reader.notes.append(f"no Cans limit in the roster: {DEFAULT_CANS} cans assumed")
    name = (root.get("name") or forces[0].get("name") or "Imported team").strip()
    team: dict[str, Any] = {"name": name, "cans": int(cans), "vehicles": reader.vehicles}
    if reader.sponsor:
        team["sponsor"] = reader.sponsor
    return RosterImport(team, tuple(reader.unmapped), tuple(reader.notes))


def load_roster(path: str | Path) -> RosterImport:
    """The team in a roster file: a regular file of at most ``MAX_BYTES`` (a FIFO or a
    device such as ``/dev/zero`` is refused without blocking, ``guard.read_bytes``)."""
    try:
        data = guard.read_bytes(path, MAX_BYTES, "roster")
    except guard.InputRefused as e:
        raise RosterError(f"{e.where}: cannot read ({e.problem})") from None
    return read_roster(data, str(path))


# -- writing ---------------------------------------------------------------------------------------
def _id(*parts: str) -> str:
    h = hashlib.sha1(":".join(parts).encode()).hexdigest()
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


def _sel(parent: ET.Element, key: str, name: str, entry: str, type_: str = "upgrade",
         custom: str | None = None) -> ET.Element:
    group = next(_children(parent, "selections"), None)
    if group is None:
        group = ET.SubElement(parent, "selections")
    el = ET.SubElement(group, "selection", {"id": _id(key), "name": name, "entryId": entry,
                                            "number": "1", "type": type_})
    if custom:
        el.set("customName", custom)
    return el


def _costs(el: ET.Element, cans: int) -> None:
    """The selection's cost (after its selections, as the roster schema orders them)."""
    costs = ET.SubElement(el, "costs")
    ET.SubElement(costs, "cost", {"name": "Cans", "typeId": "cans", "value": f"{cans:.1f}"})


def write_roster(spec: TeamSpec) -> str:
    """The team as a BattleScribe ``.ros`` roster (XML text)."""
    from carnage.team.check import check_team

    cat = load_catalog()
    report = check_team(spec)
    ET.register_namespace("", NS)
    root = ET.Element(f"{{{NS}}}roster", {
        "id": _id("roster", spec.name), "name": spec.name, "battleScribeVersion": "2.03",
        "gameSystemName": SYSTEM_NAME})
    costs = ET.SubElement(root, "costs")
    ET.SubElement(costs, "cost", {"name": "Cans", "typeId": "cans",
                                  "value": f"{report.total_cans:.1f}"})
    limits = ET.SubElement(root, "costLimits")
    ET.SubElement(limits, "costLimit", {"name": "Cans", "typeId": "cans",
                                        "value": f"{spec.cans:.1f}"})
    forces = ET.SubElement(root, "forces")
    force = ET.SubElement(forces, "force", {"id": _id("force", spec.name), "name": "Team",
                                            "entryId": "carnage:force:team",
                                            "catalogueName": SYSTEM_NAME})
    if spec.sponsor:
        holder = _sel(force, "sponsor", "Sponsor", "carnage:group:sponsor")
        _sel(holder, f"sponsor:{spec.sponsor}", str(cat.sponsors.get(spec.sponsor).name),
             f"carnage:sponsor:{spec.sponsor}")
    for i, (v, vr) in enumerate(zip(spec.vehicles, report.vehicles, strict=False)):
        vkey = f"vehicle:{i}"
        ve = _sel(force, vkey, str(cat.vehicles.get(v.type).name), f"carnage:vehicle:{v.type}",
                  "model", v.name)
        for j, w in enumerate(v.weapons):
            we = _sel(ve, f"{vkey}:w{j}", str(cat.weapons.get(w.id).name),
                      f"carnage:weapon:{w.id}")
            if w.facing is not None:
                _sel(we, f"{vkey}:w{j}:f", str(w.facing).capitalize(),
                     f"carnage:facing:{w.facing}")
            if w.mount is not None:
                _sel(we, f"{vkey}:w{j}:m", str(w.mount).capitalize(), f"carnage:mount:{w.mount}")
        for j, u in enumerate(v.upgrades):
            ue = _sel(ve, f"{vkey}:u{j}", str(cat.upgrades.get(u.id).name),
                      f"carnage:upgrade:{u.id}")
            if u.facing is not None:
                _sel(ue, f"{vkey}:u{j}:f", str(u.facing).capitalize(),
                     f"carnage:facing:{u.facing}")
        for j, p in enumerate(v.perks):
            _sel(ve, f"{vkey}:p{j}", str(cat.perks.get(p).name), f"carnage:perk:{p}")
        _costs(ve, vr.cans)
    ET.indent(root)
    body: str = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body + "\n"


def write_rosz(spec: TeamSpec) -> bytes:
    """The team as a ``.rosz`` (the ``.ros`` zipped, as BattleScribe saves it)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{_safe(spec.name)}.ros", write_roster(spec))
    return buf.getvalue()


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_") or "team"


__all__ = ["RosterError", "RosterImport", "TeamFileError", "load_roster", "read_roster",
           "write_roster", "write_rosz"]
