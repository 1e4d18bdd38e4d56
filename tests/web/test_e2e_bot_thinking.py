"""The table while a bot decides in the server's bot pool (web/botpool.py): the page says
"<team> is thinking…" from the websocket's push, then shows the bot's move when it is pushed,
and says so when the bot fails."""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from tests.web.test_e2e_support import Tab, api, launch, new_context, serve

import carnage.rulesets
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ruleset import REFUELLED
from carnage.kernel.decisions import Decision
from carnage.web.botpool import BotPool

GATE: Path | None = None
"""While this file does not exist, the gated bot waits (set in each worker by ``register``)."""


class GatedHeuristic:
    """Refuelled's heuristic bot, deciding once the gate is open (a broken one when the gate
    holds "fail"). It holds the bot rather than inheriting from it: the heuristic bot may be
    compiled, and a plain class cannot inherit from a compiled one."""

    name = "heuristic"

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> Any:
        assert GATE is not None, "the gated bot decides only in a worker of the test's pool"
        deadline = time.monotonic() + 30
        while not GATE.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the test never opened the gate")
            time.sleep(0.02)
        if GATE.read_text() == "fail":
            raise RuntimeError("the bot's engine stalled")
        return self.bot.choose(game, decision, rng)


GATED = dataclasses.replace(REFUELLED, bots={**REFUELLED.bots, "heuristic": GatedHeuristic})


def register(gate: str) -> None:
    global GATE
    GATE = Path(gate)
    carnage.rulesets.RULESETS = carnage.rulesets.RULESETS.with_ruleset(GATED)


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gate") / "gate"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, gate: Path) -> Iterator[str]:
    """The table served with a bot pool whose heuristic bot waits for the gate."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(carnage.rulesets, "RULESETS", carnage.rulesets.RULESETS.with_ruleset(GATED))
        pool = BotPool(1, initializer=functools.partial(register, str(gate)))
        try:
            with serve(tmp_path_factory.mktemp("thinking") / "carnage.db",
                       bot_pool=pool) as url:
                yield url
        finally:
            gate.write_text("")  # a bot still waiting decides at once


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as (_, b):
        yield b


def play_until_the_bot(base: str, gid: str, token: str) -> Any:
    """The human's first options until the bot is to decide; the last view."""
    status, view = api(base, "GET", f"/api/games/{gid}?token={token}")
    for _ in range(40):
        if view["thinking"] is not None:
            return view
        p = view["pending"]
        choice = p["options"][0]["value"] if p["options"] else p["domain"]["low"]
        status, view = api(base, "POST", f"/api/games/{gid}/decisions",
                           {"token": token, "version": view["version"], "choice": choice})
        assert status == 200, view
    raise AssertionError("the bot never had to decide")


def test_the_table_says_the_bot_is_thinking_then_shows_its_move(
        base: str, browser: Browser, gate: Path) -> None:
    gate.unlink(missing_ok=True)
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 5,
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201
    seat = game["seats"][0]
    ctx = new_context(browser)
    tab = Tab(ctx.new_page())
    page = tab.page
    page.goto(base + seat["url"])
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    # the human plays until the bot is to decide (answered at once: the bot is not asked yet)
    view = play_until_the_bot(base, game["id"], seat["token"])
    assert view["thinking"]["team"] == "Blue Racers" and view["pending"]["seat"] == 1
    expect(page.locator("body")).to_have_attribute("data-version", str(view["version"]))
    expect(page.locator("#turn .bot-thinking")).to_have_text("Blue Racers is thinking…")
    expect(page.locator("#decision .bot-thinking")).to_have_text("Blue Racers is thinking…")
    gate.write_text("")
    expect(page.locator("#turn .bot-thinking")).to_have_count(0, timeout=20000)
    moved = int(page.locator("body").get_attribute("data-version") or "0")
    assert moved > view["version"]
    tab.check()
    ctx.close()


def test_the_table_says_when_the_bot_failed(base: str, browser: Browser, gate: Path) -> None:
    gate.write_text("fail")
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 5,
        "seats": [{"controller": "heuristic"}, {"controller": "human"}]})
    assert status == 201
    seat = game["seats"][1]
    ctx = new_context(browser)
    tab = Tab(ctx.new_page())
    page = tab.page
    page.goto(base + seat["url"])
    page.wait_for_selector("body[data-ready]")
    failed = page.locator("#turn .bot-thinking.failed")
    play_until_the_bot(base, game["id"], seat["token"])
    expect(failed).to_contain_text("Red Racers could not decide (the bot failed: "
                                   "RuntimeError: the bot's engine stalled)", timeout=20000)
    tab.check()
    ctx.close()
