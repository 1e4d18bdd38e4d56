"""Shared pieces of the browser (end-to-end) tests: the app served by uvicorn on a free port
with a temp SQLite file, Debian's Chromium driven by Playwright, and small helpers.

Every e2e module builds its fixtures from ``serve`` and ``launch`` here. Pages that log a
JavaScript error fail the test that opened them (``open_page`` collects them).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    ViewportSize,
    sync_playwright,
)

from carnage.web.app import create_app
from carnage.web.limits import SERVER_OPTIONS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
SHOTS = os.environ.get("CARNAGE_E2E_SHOTS")
"""Set to a folder to keep a screenshot of every page the tests look at."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(db: Path | str, **options: Any) -> Iterator[str]:
    """The whole app on 127.0.0.1 (a uvicorn server in a thread); yields its base URL.
    ``db``: a SQLite file, or a database URL; ``options``: more of ``create_app``'s."""
    port = free_port()
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    config = uvicorn.Config(create_app(url, **options), host="127.0.0.1", port=port,
                            log_level="warning", **SERVER_OPTIONS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.05)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def launch() -> Iterator[tuple[Playwright, Browser]]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield pw, browser
        finally:
            browser.close()


class Tab:
    """A page plus the JavaScript errors it reported."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", self._console)

    def _console(self, msg: Any) -> None:
        if msg.type == "error" and "status of 4" not in msg.text:
            # 4xx answers are expected in some tests (the 403 refusal); other errors are not.
            self.errors.append(f"console: {msg.text}")

    def check(self) -> None:
        assert not self.errors, "\n".join(self.errors)


def new_context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=VIEWPORT)


def keep_owner_token(context: BrowserContext, saved: dict[str, Any]) -> None:
    """Let this browser own a team saved through the API: its owner token goes where the
    pages keep owner tokens (localStorage), as if the browser had saved the team itself."""
    context.add_init_script(
        "(() => { const k = 'carnage.owners';"
        " const t = JSON.parse(localStorage.getItem(k) || '{}');"
        f" t[{json.dumps(saved['id'])}] = {json.dumps(saved['owner_token'])};"
        " localStorage.setItem(k, JSON.stringify(t)); })()")


def open_page(context: BrowserContext, url: str) -> Tab:
    tab = Tab(context.new_page())
    tab.page.goto(url)
    tab.page.wait_for_selector("body[data-ready]", timeout=15000)
    return tab


def adopt(page: Page) -> Tab:
    """Track a page the app opened itself (a popup)."""
    tab = Tab(page)
    page.wait_for_load_state()
    page.wait_for_selector("body[data-ready]", timeout=15000)
    return tab


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def api(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A JSON request to the running server: (status, parsed body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def racer_team(name: str, cans: int = 25) -> dict[str, Any]:
    """A legal team (22 cans): a Car and a Buggy with front machine guns."""
    return {
        "name": name, "cans": cans,
        "vehicles": [
            {"name": f"{name} Car", "type": "car",
             "weapons": [{"id": "machine_gun", "facing": "front"}]},
            {"name": f"{name} Buggy", "type": "buggy",
             "weapons": [{"id": "machine_gun", "facing": "front"}]},
        ],
    }


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def wait_version_above(page: Page, v: int, timeout: float = 15000) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) > {v}", timeout=timeout)


def test_support_server_serves_the_pages_and_the_api(tmp_path: Path) -> None:
    """The harness itself: the server starts on a free port, answers and stops again."""
    with serve(tmp_path / "e2e.db") as base:
        status, scenarios = api(base, "GET", "/api/scenarios")
        assert status == 200
        assert "street-race" in [s["id"] for s in scenarios]
        with urllib.request.urlopen(base + "/static/js/util.js") as r:
            assert "export function h(" in r.read().decode()
    # Stopped: nothing answers on that port any more.
    with socket.socket() as s:
        s.settimeout(2)
        assert s.connect_ex(("127.0.0.1", int(base.rsplit(":", 1)[1]))) != 0


def view_of(page: Any) -> dict[str, Any]:
    """The view the table page is showing (``window.carnage.view``)."""
    v: dict[str, Any] = page.evaluate("() => window.carnage.view")
    return v
