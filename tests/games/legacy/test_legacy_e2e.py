"""The Legacy generator page in a real browser: it opens on a generated vehicle, generates
another with its mutations, fills a name from the name generator, and shows bad input as a
sentence."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_support import new_context, open_page, shot

from carnage.games.legacy.generator import generate_vehicle, vehicle_json
from carnage.games.legacy.mutations import gain_mutations


def test_the_legacy_page_generates_vehicles(base: str, browser: Browser) -> None:  # noqa: F811
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/legacy")
    page = tab.page
    expect(page.locator("#lv-title")).to_have_text("Rust Bucket (car)")
    expect(page.locator("#lv-stats")).to_contain_text("Vehicle Rating 20")
    # Each item in words (the report names them by id): nothing shows as "undefined".
    expect(page.locator("#lv-items tbody")).to_contain_text("combat laser")
    expect(page.locator("#lv-items tbody")).to_contain_text("highway to hell (horror)")
    expect(page.locator("#lv-items tbody")).not_to_contain_text("undefined")
    page.select_option("select[name=type]", "truck")
    page.fill("input[name=name]", "Big Bertha")
    page.fill("input[name=mutations]", "2")
    page.click("#legacy-form button[type=submit]")
    expect(page.locator("#lv-title")).to_have_text("Big Bertha (truck)")
    expect(page.locator("#lv-gains li")).to_have_count(2)
    spec, gains = gain_mutations(generate_vehicle("truck", "Big Bertha"), 2)
    assert json.loads(page.locator("#lv-json").text_content() or "") == vehicle_json(spec)
    expect(page.locator("#lv-gains li").first).to_contain_text(gains[0].name)
    before = page.input_value("input[name=name]")
    page.click("#new-name")
    expect(page.locator("input[name=name]")).not_to_have_value(before)
    page.fill("input[name=name]", " ")
    page.click("#legacy-form button[type=submit]")
    expect(page.locator("#legacy-error")).to_contain_text("name: must not be blank")
    shot(page, "legacy-generator")
    tab.check()
    ctx.close()
