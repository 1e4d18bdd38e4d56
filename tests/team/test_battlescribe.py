"""BattleScribe rosters: a roster made the way the BSData Gaslands catalogue makes them (built
here to the roster schema: roster > costs, costLimits, forces > force > selections) reads into
our team file, reporting what it cannot map; our teams write out and read back exactly."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from carnage.team import check_team, load_team
from carnage.team.battlescribe import (
    NS,
    RosterError,
    load_roster,
    read_roster,
    write_roster,
    write_rosz,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"


def selection(name: str, *children: ET.Element, type_: str = "upgrade",
              custom: str | None = None, number: int = 1) -> ET.Element:
    el = ET.Element(f"{{{NS}}}selection", {"id": f"id-{name}", "name": name,
                                            "entryId": f"bsdata-{abs(hash(name)) % 9999:04d}",
                                            "number": str(number), "type": type_})
    if custom:
        el.set("customName", custom)
    if children:
        group = ET.SubElement(el, f"{{{NS}}}selections")
        group.extend(children)
    return el


def roster(*selections: ET.Element, name: str = "Road Hogs", limit: float | None = 50.0,
           system: str = "Gaslands") -> bytes:
    root = ET.Element(f"{{{NS}}}roster", {"id": "r-1", "name": name, "battleScribeVersion": "2.03",
                                          "gameSystemId": "55c7-45e5-b4ec-d17c",
                                          "gameSystemName": system, "gameSystemRevision": "15"})
    costs = ET.SubElement(root, f"{{{NS}}}costs")
    ET.SubElement(costs, f"{{{NS}}}cost", {"name": "Cans", "typeId": "91a9", "value": "44.0"})
    if limit is not None:
        limits = ET.SubElement(root, f"{{{NS}}}costLimits")
        ET.SubElement(limits, f"{{{NS}}}costLimit", {"name": "Cans", "typeId": "91a9",
                                                     "value": str(limit)})
    forces = ET.SubElement(root, f"{{{NS}}}forces")
    force = ET.SubElement(forces, f"{{{NS}}}force", {"id": "f-1", "name": "Team",
                                                     "entryId": "60bf", "catalogueId": "c-1",
                                                     "catalogueRevision": "1",
                                                     "catalogueName": "Gaslands"})
    group = ET.SubElement(force, f"{{{NS}}}selections")
    group.extend(selections)
    return ET.tostring(root, xml_declaration=True, encoding="utf-8")


def bsdata_team() -> bytes:
    return roster(
        selection("Sponsor", selection("Rutherford", type_="upgrade")),
        selection("Car", selection("Heavy Machine Gun", selection("Front")),
                  selection("Armour Plating"), selection("Dead-Eye"),
                  type_="model", custom="Big Mama"),
        selection("Buggy", selection("Machine Gun (Rear)"), selection("Improved Sludge Thrower"),
                  selection("Jet Pack 3000"), type_="model"),
        selection("Grudge Cards"),
    )


def test_a_bsdata_roster_maps_to_our_ids_and_reports_the_rest() -> None:
    got = read_roster(bsdata_team(), "hogs.ros")
    assert got.team == {
        "name": "Road Hogs", "cans": 50, "sponsor": "rutherford",
        "vehicles": [
            {"name": "Big Mama", "type": "car",
             "weapons": [{"id": "heavy_machine_gun", "facing": "front"}],
             "upgrades": [{"id": "armour_plating"}], "perks": ["dead_eye"]},
            {"name": "Buggy 1", "type": "buggy",
             "weapons": [{"id": "machine_gun", "facing": "rear"}],
             "upgrades": [{"id": "improvised_sludge_thrower"}], "perks": []},
        ],
    }
    assert got.unmapped == ("Jet Pack 3000 (on Buggy 1)", "Grudge Cards (Team)")
    spec = got.spec()
    assert [v.name for v in spec.vehicles] == ["Big Mama", "Buggy 1"]


def test_a_rosz_is_the_same_roster_zipped() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("Road Hogs.ros", bsdata_team())
    assert read_roster(buf.getvalue(), "hogs.rosz").team == read_roster(bsdata_team()).team


def test_missing_limit_and_facing_are_assumed_and_said() -> None:
    got = read_roster(roster(selection("Car", selection("Machine Gun"), type_="model"),
                             limit=None))
    assert got.team["cans"] == 44  # the roster's total when it sets no limit
    assert got.team["vehicles"][0]["weapons"] == [{"id": "machine_gun", "facing": "front"}]
    assert got.notes == ("Machine Gun on Car 1: no facing in the roster, front assumed",)


def test_counts_and_turret_mounting_are_read() -> None:
    got = read_roster(roster(selection(
        "Truck", selection("Machine Gun", selection("Turret Mounting"), number=2),
        type_="model")))
    assert got.team["vehicles"][0]["weapons"] == [
        {"id": "machine_gun", "facing": "turret"}, {"id": "machine_gun", "facing": "turret"}]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.*")), ids=lambda p: p.name)
def test_our_teams_write_out_and_read_back_exactly(path: Path) -> None:
    spec = load_team(path)
    text = write_roster(spec)
    root = ET.fromstring(text)
    assert root.tag == f"{{{NS}}}roster"
    assert [c.tag.split("}")[1] for c in root] == ["costs", "costLimits", "forces"]
    back = read_roster(text.encode(), path.name)
    assert back.unmapped == () and back.spec() == spec
    assert read_roster(write_rosz(spec)).spec() == spec
    total = root.find(f"{{{NS}}}costs/{{{NS}}}cost")
    assert total is not None and float(total.get("value", "0")) == check_team(spec).total_cans


@pytest.mark.parametrize("data, needle", [
    (b"not xml at all", "invalid XML"),
    (b"<team/>", "not <roster>"),
    (b"<!DOCTYPE x [<!ENTITY a 'b'>]><roster/>", "no DOCTYPE"),
    (b"PK\x03\x04broken", "broken zip"),
])
def test_unreadable_files_are_one_clear_error(data: bytes, needle: str) -> None:
    with pytest.raises(RosterError, match=needle):
        read_roster(data, "x.ros")


def test_other_games_and_empty_rosters_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RosterError, match="'Warhammer 40,000', not Gaslands"):
        read_roster(roster(system="Warhammer 40,000"))
    empty = ET.tostring(ET.Element(f"{{{NS}}}roster", {"name": "x"}))
    with pytest.raises(RosterError, match="no force"):
        read_roster(empty)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.ros", bsdata_team())
        z.writestr("b.ros", bsdata_team())
    with pytest.raises(RosterError, match="has 2"):
        read_roster(buf.getvalue(), "two.rosz")
    with pytest.raises(RosterError, match="cannot read"):
        load_roster(tmp_path / "missing.ros")
