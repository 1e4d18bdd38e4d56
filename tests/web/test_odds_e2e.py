"""The odds page in a real browser: each panel draws its distributions as SVG bar charts that
follow the form, errors show as a sentence, and the table's hook draws a pending decision's
odds (one chart per option)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from tests.web.test_e2e_support import api, new_context, open_page, shot

from carnage.games.devilsrun.odds import offensive_odds
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
from carnage.games.refuelled.odds import Side, attack_odds, skid_odds, smash_odds


def bars(page: Page, panel: str, chart: str) -> dict[str, float]:
    out: dict[str, float] = page.evaluate(
        """([panel, chart]) => Object.fromEntries([...document.querySelectorAll(
             `#${panel} figure[data-chart="${chart}"] svg rect.bar`)].map(
             (r) => [r.dataset.k, Number(r.dataset.p)]))""", [panel, chart])
    return out


def settle(page: Page, panel: str, text: str) -> None:
    """Wait until the panel shows the answer to its latest form, and that answer says ``text``
    (an earlier form's answer may say it too)."""
    page.wait_for_function(
        """([p, t]) => { const el = document.querySelector(`#${p}`);
             return el.dataset.asked === el.dataset.shown
               && el.querySelector(".summary").textContent.includes(t); }""",
        arg=[panel, text], timeout=10000)


def test_odds_page_draws_and_follows_the_forms(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, base + "/odds")
    page = tab.page
    # Defaults: 2 attack dice against gear 2.
    want = attack_odds(2, evade_gear=2)
    assert bars(page, "attack", "damage") == pytest.approx(
        {k: v for k, v in want.damage.floats().items()})
    assert bars(page, "attack", "hits") == pytest.approx(want.hits.floats())
    # One die, no evade, in cover: 4/6, 1/6, 1/6.
    page.fill("#attack input[name=dice]", "1")
    page.fill("#attack input[name=evade_gear]", "0")
    page.check("#attack input[name=cover]")
    settle(page, "attack", "exactly 1/2")  # expected damage 1/6 + 2/6
    assert bars(page, "attack", "damage") == pytest.approx({"0": 4 / 6, "1": 1 / 6, "2": 1 / 6})
    # Skid: the p.22 truck, 4 Hazards + hazardous, two dice: P(wipeout) 1/4.
    page.fill("#skid input[name=dice]", "2")
    page.fill("#skid input[name=hazards]", "4")
    page.select_option("#skid select[name=manoeuvre]", "hazardous")
    settle(page, "skid", "exactly 1/4")
    want_skid = skid_odds(2, hazardous=True, hazards=4)
    assert bars(page, "skid", "hazards_after") == pytest.approx(
        want_skid.hazards_after.floats())
    page.fill("#skid input[name=gear]", "6")
    settle(page, "skid", "flip in gear 6")
    assert "20.8%" in page.inner_text("#skid .summary")  # 1/4 * 5/6
    page.check("#skid input[name=push_it]")
    settle(page, "skid", "exactly 7/16")
    # Checks and smash panels drew too.
    assert "P(flip)" in page.inner_text("#checks .summary")
    assert sum(bars(page, "checks", "blast").values()) == pytest.approx(1)
    assert sum(bars(page, "smash", "a").values()) == pytest.approx(1)
    # A query the rules cannot answer: the sentence, not a crash.
    page.fill("#smash input[name=other_gear]", "0")
    page.wait_for_function("document.querySelector('#smash .error').textContent.length > 0")
    assert "other_gear: input should be greater than or equal to 1" in page.inner_text(
        "#smash .error")
    shot(page, "odds")
    tab.check()
    ctx.close()


def test_kart_and_devils_run_panels_draw_and_follow_the_forms(base: str,
                                                               browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, base + "/odds")
    page = tab.page
    # Kart Item Attack defaults: 2 dice at gear 2 from 3 Hazards.
    want = kart_attack_odds(2, evade_gear=2, hazards=3)
    assert bars(page, "kart_attack", "gained") == pytest.approx(want.attack.damage.floats())
    page.fill("#kart_attack input[name=dice]", "1")
    page.fill("#kart_attack input[name=evade_gear]", "0")
    page.fill("#kart_attack input[name=hazards]", "4")
    settle(page, "kart_attack", "exactly 1/6")  # a Wipeout needs the natural 6's two hits
    # Kart collision: a sideswipe is a T-bone; both karts gain their flat Hazard.
    page.select_option("#kart_smash select[name=orientation]", "sideswipe")
    page.select_option("#kart_smash select[name=other_reaction]", "evade")
    settle(page, "kart_smash", "As t-bone")
    ks = kart_smash_odds("t_bone", Side(3, 2), Side(2, 2, "evade"))
    assert bars(page, "kart_smash", "b") == pytest.approx(ks.gained(ks.smash.b).floats())
    # Devil's Run: a bike's pistol at -2 against armour 1, 2 CP left.
    for name, value in (("rof", "1"), ("bs", "7"), ("modifier", "-2"), ("armour", "1"),
                        ("cp", "2")):
        page.fill(f"#dr_shoot input[name={name}]", value)
    settle(page, "dr_shoot", "exactly 1/2")
    assert bars(page, "dr_shoot", "damage") == pytest.approx(
        {"0": 7 / 12, "1": 1 / 3, "2": 1 / 12})
    assert "8.3%" in page.inner_text("#dr_shoot .summary")  # P(wrecked) 1/12
    page.fill("#dr_offensive input[name=attacker]", "3")
    page.fill("#dr_offensive input[name=e]", "6")
    settle(page, "dr_offensive", "60.0%")
    assert bars(page, "dr_offensive", "target") == pytest.approx(
        offensive_odds("ram", 3, 2).to_target.floats())
    page.fill("#dr_shoot input[name=armour]", "9")  # beyond any armour: the sentence
    page.wait_for_function("document.querySelector('#dr_shoot .error').textContent.length > 0")
    assert "less than or equal to 6" in page.inner_text("#dr_shoot .error")
    tab.check()
    ctx.close()


def test_a_slow_older_answer_never_overwrites_a_newer_one(base: str, browser: Browser) -> None:
    # One request per keystroke: when the answer for "3 dice" comes back after the one for
    # "4 dice", the panel still shows 4 dice.
    import time

    ctx = new_context(browser)
    tab = open_page(ctx, base + "/odds")
    page = tab.page

    def slow_for_three(route: Any) -> None:
        if "dice=3" in route.request.url:
            time.sleep(1.5)
        route.continue_()

    page.route("**/api/odds/skid*", slow_for_three)
    page.fill("#skid input[name=dice]", "3")
    page.fill("#skid input[name=dice]", "4")
    page.wait_for_timeout(2500)  # both answers are in by now
    want = skid_odds(4)
    assert bars(page, "skid", "shifts") == pytest.approx(want.shifts.floats())
    ctx.close()


def test_pending_decision_odds_hook(base: str, browser: Browser) -> None:
    status, g = api(base, "POST", "/api/games", {"scenario": "street-race", "seed": 7, "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert status == 201, g
    tokens = ",".join(s["token"] for s in g["seats"])
    # Answer the first option until the skid dice are asked.
    for _ in range(200):
        _, view = api(base, "GET", f"/api/games/{g['id']}?token={tokens}")
        p = view["pending"]
        if p["kind"] == "skid_dice":
            break
        choice: Any = p["options"][0]["value"] if p["options"] else p["domain"]["low"]
        status, _ = api(base, "POST", f"/api/games/{g['id']}/decisions",
                        {"token": tokens, "version": view["version"], "choice": choice})
        assert status == 200
    else:
        raise AssertionError("no skid dice decision")
    ctx = new_context(browser)
    tab = open_page(ctx, base + "/odds")
    figures = tab.page.evaluate("""async ([gid, token]) => {
        const m = await import('/static/odds-chart.js');
        const panel = m.pendingOddsPanel(await m.pendingOdds(gid, token));
        document.body.append(panel);
        return [...panel.querySelectorAll('figure')].map((f) => [
          f.dataset.option, f.querySelectorAll('rect.bar').length]);
    }""", [g["id"], tokens])
    counts = [str(o["value"]) for o in p["options"]]
    assert [f[0] for f in figures] == counts
    assert all(n >= 1 for _, n in figures)
    # A collision reaction before the other party reacts: one chart per pair of reactions.
    pair = {r: {"self": smash_odds("head_on", Side(2, 2, mine), Side(3, 2, r)).a.to_json(),
                "other": smash_odds("head_on", Side(2, 2, mine), Side(3, 2, r)).b.to_json()}
            for mine in ("smash",) for r in ("smash", "evade")}
    answer = {"kind": "collision_reaction", "options": [
        {"option": "smash", "label": "Smash Attack", "other": "blue", "odds": pair}]}
    captions = tab.page.evaluate("""async (answer) => {
        const m = await import('/static/odds-chart.js');
        return [...m.pendingOddsPanel(answer).querySelectorAll('figcaption')].map(
          (c) => c.textContent);
    }""", answer)
    assert len(captions) == 2 and captions[0].startswith("smash (blue smashes): you take")
    assert "blue evades" in captions[1] and "you take 0.00" in captions[1]
    # Under the Kart variant's rules the answer is in Hazards, with the chance of a Wipeout.
    kart = {"kind": "attack", "options": [
        {"option": "machine_gun#0>red", "label": "Machine gun at Red", "dice": 2,
         "cover": False, "evade_gear": 2,
         "odds": kart_attack_odds(2, evade_gear=2, hazards=4).to_json()}]}
    kart_caption = tab.page.evaluate("""async (answer) => {
        const m = await import('/static/odds-chart.js');
        return m.pendingOddsPanel(answer).querySelector('figcaption').textContent;
    }""", kart)
    want = kart_attack_odds(2, evade_gear=2, hazards=4)
    assert f"expected Hazards {float(want.attack.damage.mean()):.2f}" in kart_caption
    assert f"P(Wipeout) {100 * float(want.p_wipeout):.1f}%" in kart_caption
    tab.check()
    ctx.close()


def test_lobby_links_the_odds_page(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, base + "/")
    tab.page.click("nav a[href='/odds']")
    tab.page.wait_for_selector("body[data-ready]")
    assert tab.page.url.endswith("/odds")
    tab.check()
    ctx.close()


def test_static_files_exist() -> None:
    static = Path(__file__).resolve().parents[2] / "src" / "carnage" / "web" / "static"
    for name in ("odds.html", "odds.js", "odds-chart.js", "odds.css"):
        assert (static / name).is_file()


def test_every_query_panel_builds_its_forms_from_the_listing(base: str,
                                                             browser: Browser) -> None:
    ctx = new_context(browser)
    tab = open_page(ctx, base + "/odds")
    page = tab.page
    page.wait_for_function("document.querySelector('#any').dataset.ready === '1'")
    _, listing = api(base, "GET", "/api/odds")
    offered = [q["path"] for q in listing["queries"]]
    assert page.eval_on_selector_all("#any select[name=query] option",
                                     "(os) => os.map((o) => o.value)") == offered
    # Devil's Run's D10 test: the form is the listing's (one bounded number), the answer drawn.
    page.select_option("#any select[name=query]", "devilsrun/test")
    page.wait_for_selector("#any form.params input[name=target]")
    target = page.locator("#any form.params input[name=target]")
    assert (target.get_attribute("min"), target.get_attribute("max")) == ("-99", "99")
    target.fill("6")
    settle(page, "any", "p success 60.0%")
    # Kart Wipeout facings: no parameters, one chart of 36 headings.
    page.select_option("#any select[name=query]", "kart/wipeout")
    settle(page, "any", "")
    assert len(bars(page, "any", "headings")) == 36
    # Refuelled's attack: a choice-free form of numbers and flags; the damage chart is exact.
    page.select_option("#any select[name=query]", "attack")
    page.wait_for_selector("#any form.params input[name=evade_gear]")
    page.fill("#any form.params input[name=dice]", "2")
    page.fill("#any form.params input[name=evade_gear]", "1")
    settle(page, "any", "expected damage")
    assert bars(page, "any", "distribution") == pytest.approx(
        attack_odds(2, evade_gear=1).damage.floats())
    assert "Gaslands: Refuelled" in page.inner_text("#any .about")
    page.fill("#any form.params input[name=dice]", "61")  # beyond the bound: the sentence
    page.wait_for_function("document.querySelector('#any .error').textContent.length > 0")
    assert "dice: input should be less than or equal to 60" in page.inner_text("#any .error")
    tab.check()
    ctx.close()
