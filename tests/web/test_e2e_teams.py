"""The team builder and the printable dashboards in a real browser:
live totals and exactly the team check's messages, appearing and disappearing as the team
changes; save, reload, export, import; one 88 x 63 mm card per vehicle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.test_e2e_support import (
    adopt,
    api,
    new_context,
    open_page,
    shot,
)

from carnage.catalog import load_catalog
from carnage.team import check_team
from carnage.team.io import parse_team

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"
MM = 96 / 25.4
"""CSS pixels per millimetre."""




def team_in_page(page: Page) -> dict[str, Any]:
    """The team file the builder would send, read back from its inputs."""
    return page.evaluate("""() => {
      const v = [...document.querySelectorAll('section.vehicle')].map((card) => ({
        name: card.querySelector('input.vname').value,
        type: card.querySelector('select.vtype').value,
        weapons: [...card.querySelectorAll('.item-row[data-kind=weapons]')].map((r) => {
          const f = r.querySelector('select.facing');
          const o = {id: r.querySelector('select.item-id').value};
          if (f && f.value) o.facing = f.value;
          return o;
        }),
        upgrades: [], perks: [],
      }));
      const sponsor = document.getElementById('team-sponsor').value;
      const t = {name: document.getElementById('team-name').value,
                 cans: Number(document.getElementById('team-cans').value), vehicles: v};
      if (sponsor) t.sponsor = sponsor;
      return t;
    }""")


def expected_messages(team: dict[str, Any]) -> tuple[int, list[str]]:
    report = check_team(parse_team(team))
    return report.total_cans, [v.message for v in report.errors]


def shown_messages(page: Page) -> list[str]:
    return page.eval_on_selector_all("#team-errors li, .vehicle-errors li, .item-errors li",
                                     "els => els.map(e => e.textContent)")


def settle(page: Page) -> None:
    """Wait for the debounced check to go out and come back."""
    page.wait_for_timeout(300)
    page.wait_for_function("!document.body.dataset.validating")


def assert_matches_team_check(page: Page) -> list[str]:
    settle(page)
    total, messages = expected_messages(team_in_page(page))
    expect(page.locator("#total-cans")).to_have_text(str(total))
    assert sorted(shown_messages(page)) == sorted(messages)
    return messages


def test_build_a_team_live_totals_and_messages_then_save_reload_and_export(
        base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams")
    page = tab.page
    expect(page.locator("#validity")).to_have_text("legal team")
    assert assert_matches_team_check(page) == []

    page.fill("#team-name", "Wasteland Wailers")
    page.fill("section.vehicle[data-index='0'] input.vname", "Rattler")
    page.select_option("#new-vehicle-type", "buggy")
    page.click("#add-vehicle")
    buggy = page.locator("section.vehicle[data-index='1']")
    expect(buggy.locator("input.vname")).to_have_value("Buggy 2")
    buggy.locator("select[aria-label='add weapon']").select_option("rockets")
    assert assert_matches_team_check(page) == []
    expect(page.locator("#total-cans")).to_have_text("25")  # 12 + 2 + 6 + 5

    # Over the buggy's two build slots: the check's own line appears next to the buggy...
    buggy.locator("select[aria-label='add weapon']").select_option("machine_gun")
    messages = assert_matches_team_check(page)
    slot_line = "Buggy 2: weapons and upgrades need 3 build slots but the vehicle has 2 (p.65)"
    assert slot_line in messages
    expect(buggy.locator(".vehicle-errors li")).to_have_text([slot_line])
    expect(buggy.locator(".vcost .slots")).to_have_text("3/2 slots")
    # ... and over budget, the team-level line shows at the top.
    page.fill("#team-cans", "25")
    messages = assert_matches_team_check(page)
    budget_line = "Team: the team costs 27 cans, over its budget of 25 by 2 (p.64)"
    assert budget_line in messages
    expect(page.locator("#team-errors li")).to_have_text([budget_line])
    expect(page.locator("#validity")).to_have_text("2 problems")
    shot(page, "teams-errors")

    # Take the extra gun off again: both lines disappear.
    buggy.locator(".item-row[data-kind='weapons'][data-index='1'] button.remove").click()
    assert assert_matches_team_check(page) == []
    expect(page.locator("#validity")).to_have_text("legal team")
    expect(page.locator(".errors li")).to_have_count(0)

    # Turret mounting costs three times the weapon (p.85): the live total follows.
    facing = "section.vehicle[data-index='0'] .item-row[data-index='0'] select.facing"
    page.select_option(facing, "turret")
    messages = assert_matches_team_check(page)
    expect(page.locator("#total-cans")).to_have_text("29")
    assert messages == ["Team: the team costs 29 cans, over its budget of 25 by 4 (p.64)"]
    page.select_option(facing, "front")
    assert assert_matches_team_check(page) == []

    page.click("#save-team")
    expect(page.locator("#saved-teams li")).to_have_count(1)
    expect(page.locator("#saved-teams li .badge")).to_have_text("legal")
    team_id = page.evaluate("new URLSearchParams(location.search).get('id')")
    status, record = api(base, "GET", f"/api/teams/{team_id}")
    assert status == 200
    assert record["team"]["name"] == "Wasteland Wailers"
    assert [v["name"] for v in record["team"]["vehicles"]] == ["Rattler", "Buggy 2"]
    assert record["report"]["valid"] is True

    # A fresh page on the saved team shows it again.
    tab2 = open_page(ctx, f"{base}/teams?id={team_id}")
    expect(tab2.page.locator("#team-name")).to_have_value("Wasteland Wailers")
    expect(tab2.page.locator("section.vehicle")).to_have_count(2)
    expect(tab2.page.locator("#total-cans")).to_have_text("25")

    # Export: the link downloads the file as text.
    href = page.get_attribute("#export-yaml", "href")
    assert href == f"/api/teams/{team_id}/export?format=yaml"
    text = page.evaluate("async (u) => (await fetch(u)).text()", href)
    assert "Wasteland Wailers" in text and "rockets" in text
    shot(page, "teams-saved")
    tab.check()
    tab2.check()
    ctx.close()


def test_import_a_team_file_and_see_load_errors(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams")
    page = tab.page
    page.fill("#import-text", (EXAMPLES / "intro.yaml").read_text(encoding="utf-8"))
    page.select_option("#import-format", "yaml")
    page.click("#import-team")
    expect(page.locator("#team-name")).to_have_value("Street Race starters")
    expect(page.locator("section.vehicle")).to_have_count(2)
    expect(page.locator("#total-cans")).to_have_text("22")
    expect(page.locator("#budget-cans")).to_have_text("25")
    # Not a team file: the loader's message, and the builder keeps what it had.
    page.fill("#import-text", "name: [unclosed")
    page.click("#import-team")
    expect(page.locator("#import-errors li")).to_have_count(1)
    assert "invalid YAML" in page.inner_text("#import-errors")
    expect(page.locator("#team-name")).to_have_value("Street Race starters")
    # A team file with a wrong shape: the loader's own line, field by field.
    page.fill("#team-name", "")
    settle(page)
    expect(page.locator("#validity")).to_have_text("not a team file")
    assert "name: must not be empty" in page.inner_text("#team-errors")
    tab.check()
    ctx.close()


def test_teams_belong_to_the_browser_that_saved_them(base: str, browser: Browser) -> None:
    """Browser A saves a team (keeping its owner token); browser B, given the share link,
    sees it as opened, not owned: B's save makes B's own copy and A's team is unchanged."""
    ctx_a = new_context(browser)
    a = open_page(ctx_a, f"{base}/teams")
    a.page.fill("#import-text", (EXAMPLES / "intro.yaml").read_text(encoding="utf-8"))
    a.page.click("#import-team")
    expect(a.page.locator("#team-name")).to_have_value("Street Race starters")
    a.page.fill("#team-name", "Owned by A")
    settle(a.page)
    a.page.click("#save-team")
    expect(a.page.locator("#saved-teams li", has_text="Owned by A")).to_have_count(1)
    tid = a.page.evaluate("new URLSearchParams(location.search).get('id')")
    token = a.page.evaluate(f"JSON.parse(localStorage.getItem('carnage.owners'))[{tid!r}]")
    assert isinstance(token, str) and len(token) >= 24
    # Nobody else sees A's team in their list, and nobody else may change it.
    assert api(base, "GET", "/api/teams")[1] == []
    assert api(base, "PUT", f"/api/teams/{tid}", {"team": {"name": "x"}})[0] == 403

    ctx_b = new_context(browser)
    b = open_page(ctx_b, f"{base}/teams?id={tid}")
    expect(b.page.locator("#team-name")).to_have_value("Owned by A")
    row = b.page.locator("#saved-teams li", has_text="Owned by A")
    expect(row).to_have_count(1)
    expect(row.locator("button.del")).to_have_text("remove")
    b.page.fill("#team-name", "B's copy")
    settle(b.page)
    b.page.click("#save-team")
    expect(b.page.locator("#saved-teams li", has_text="B's copy")).to_have_count(1)
    copy_id = b.page.evaluate("new URLSearchParams(location.search).get('id')")
    assert copy_id != tid
    assert api(base, "GET", f"/api/teams/{tid}")[1]["team"]["name"] == "Owned by A"
    # A deletes its own team (with its token) from its own list.
    a.page.on("dialog", lambda d: d.accept())
    a.page.locator("#saved-teams li", has_text="Owned by A").locator("button.del").click()
    expect(a.page.locator("#saved-teams li", has_text="Owned by A")).to_have_count(0)
    assert api(base, "GET", f"/api/teams/{tid}")[0] == 404
    for tab in (a, b):
        tab.check()
    ctx_a.close()
    ctx_b.close()


def test_sponsor_perks_and_faced_upgrades(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams")
    page = tab.page
    car = page.locator("section.vehicle[data-index='0']")
    # A perk without a sponsor: the check's perk-class line, beside the perk.
    car.locator("select[aria-label='add perk']").select_option("crowd_pleaser")
    settle(page)
    perk_errors = car.locator(".item-row[data-kind='perks'] .item-errors li")
    expect(perk_errors).to_have_count(1)
    assert "no sponsor" in perk_errors.inner_text()
    # With Rutherford its classes come first in the perk list, and the perk is legal.
    page.select_option("#team-sponsor", "rutherford")
    settle(page)
    expect(page.locator("#validity")).to_have_text("legal team")
    groups = car.locator(".item-row[data-kind='perks'] select.item-id optgroup")
    assert groups.nth(0).get_attribute("label") == "Badass (your sponsor)"
    assert groups.nth(1).get_attribute("label") == "Military (your sponsor)"
    # A ram takes a facing (front by default); the total follows the catalogue.
    car.locator("select[aria-label='add upgrade']").select_option("ram")
    ram = car.locator(".item-row[data-kind='upgrades'][data-id='ram']")
    expect(ram.locator("select.facing")).to_have_value("front")
    assert sorted(o for o in ram.locator("select.facing option").all_inner_texts()) == [
        "Front", "Rear", "Side"]
    spec = team_in_page(page)
    spec["vehicles"][0]["upgrades"] = [{"id": "ram", "facing": "front"}]
    spec["vehicles"][0]["perks"] = ["crowd_pleaser"]
    report = check_team(parse_team(spec))
    settle(page)
    expect(page.locator("#total-cans")).to_have_text(str(report.total_cans))
    assert report.valid
    expect(page.locator("#validity")).to_have_text("legal team")
    tab.check()
    ctx.close()


def test_print_dashboards_one_card_per_vehicle_at_88_by_63_mm(
        base: str, browser: Browser) -> None:
    team = parse_team({
        "name": "Print Run", "cans": 50,
        "vehicles": [
            {"name": "Hauler", "type": "truck",
             "weapons": [{"id": "rockets", "facing": "rear"}],
             "upgrades": ["armour_plating"]},
            {"name": "Zip", "type": "buggy", "weapons": [{"id": "machine_gun", "facing": "front"}]},
        ],
    }).model_dump(mode="json", exclude_none=True)
    status, saved = api(base, "POST", "/api/teams", {"team": team})
    assert status == 201
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams?id={saved['id']}")
    with ctx.expect_page() as popup:
        tab.page.click("#print-team")
    printed = adopt(popup.value)
    page = printed.page
    cards = page.locator(".dash-card")
    expect(cards).to_have_count(2)
    report = saved["report"]
    for i, v in enumerate(report["vehicles"]):
        card = cards.nth(i)
        expect(card.locator(".name")).to_have_text(v["name"])
        expect(card.locator(".box.hull")).to_have_count(v["hull"])
        expect(card.locator(".gear:not(.off)")).to_have_count(v["max_gear"])
        expect(card.locator("table.weapons tbody tr")).to_have_count(max(1, len(v["weapons"])))
    hauler = cards.nth(0)
    cat = load_catalog()
    rows = hauler.locator("table.weapons tbody tr")
    assert report["valid"], report["errors"]
    expect(page.locator("#print-errors li")).to_have_count(0)
    for i, (wid, arc) in enumerate([("rockets", "R")]):
        w = cat.weapons.get(wid)
        cells = rows.nth(i).locator("td")
        expect(cells).to_have_text([w.name, arc, "Double", f"{w.attack_dice}D6", ""])
        expect(cells.nth(4).locator(".box.ammo")).to_have_count(w.ammo or 0)
    assert "Armour Plating" in hauler.inner_text()
    expect(hauler.locator("footer")).to_contain_text(f"{report['vehicles'][0]['cans']} cans")
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        for i in range(2):
            box = cards.nth(i).bounding_box()
            assert box is not None
            assert box["width"] == pytest.approx(88 * MM, abs=1.0)
            assert box["height"] == pytest.approx(63 * MM, abs=1.0)
    assert page.locator(".topbar").is_hidden()  # print media hides the page furniture
    page.emulate_media(media="screen")
    shot(page, "print")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    tab.check()
    printed.check()
    ctx.close()


ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
ROSTER = (
    f'<roster xmlns="{ROSTER_NS}" name="Hogs From BattleScribe" gameSystemName="Gaslands">'
    '<costLimits><costLimit name="Cans" typeId="c" value="30"/></costLimits>'
    '<forces><force name="Team"><selections>'
    '<selection name="Car" type="model" customName="Big Mama"><selections>'
    '<selection name="Machine Gun" type="upgrade"><selections>'
    '<selection name="Front" type="upgrade"/></selections></selection>'
    '<selection name="Laser Unicorn" type="upgrade"/>'
    '</selections></selection></selections></force></forces></roster>'
)


def test_import_a_battlescribe_roster_and_export_one(
        base: str, browser: Browser, tmp_path: Path) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams")
    page = tab.page
    roster = tmp_path / "hogs.ros"
    roster.write_text(ROSTER, encoding="utf-8")
    page.set_input_files("#import-roster", str(roster))
    expect(page.locator("#team-name")).to_have_value("Hogs From BattleScribe")
    expect(page.locator("section.vehicle")).to_have_count(1)
    expect(page.locator("section.vehicle input.vname")).to_have_value("Big Mama")
    expect(page.locator("#roster-report li.unmapped")).to_have_text(
        "Not mapped: Laser Unicorn (on Big Mama)")
    settle(page)
    expect(page.locator("#total-cans")).to_have_text("14")
    page.click("#save-team")
    expect(page.locator("#save-state")).to_contain_text("saved · team")
    href = page.get_attribute("#export-rosz", "href")
    assert href and href.endswith("/battlescribe")
    with page.expect_download() as dl:
        page.click("#export-rosz")
    from carnage.team.battlescribe import read_roster

    back = read_roster(Path(dl.value.path()).read_bytes())
    assert back.team["name"] == "Hogs From BattleScribe" and back.unmapped == ()
    tab.check()
    ctx.close()


def test_saving_a_second_team_with_the_same_name_warns_first(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams")
    page = tab.page
    page.fill("#team-name", "Twin Name")
    settle(page)
    page.click("#save-team")
    expect(page.locator("#save-state")).to_contain_text("saved · team")
    first = page.url
    expect(page.locator("#saved-teams li")).to_have_count(1)
    page.click("#new-team")
    page.fill("#team-name", "twin name")
    settle(page)
    page.click("#save-team")
    warning = page.locator("#name-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text('already called "Twin Name"')
    expect(page.locator("#saved-teams li")).to_have_count(1)  # nothing saved yet
    page.click("#save-team")
    expect(warning).to_be_hidden()
    expect(page.locator("#saved-teams li")).to_have_count(2)
    assert page.url != first
    # Saving the same team again (its own name) never warns.
    page.click("#save-team")
    expect(warning).to_be_hidden()
    expect(page.locator("#saved-teams li")).to_have_count(2)
    tab.check()
    ctx.close()
