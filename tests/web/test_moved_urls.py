"""Old addresses a ruleset declares (``TableOffer.moved``) are permanent redirects built by one
generic router: the parts of the path carried over, the method and the query kept."""

from __future__ import annotations

import dataclasses

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from carnage.kernel.ruleset import MovedUrl
from carnage.rulesets import RULESETS
from carnage.web.routers.moved import moved_router


def _app_with(*moved: MovedUrl) -> TestClient:
    base = RULESETS["refuelled"]
    r = dataclasses.replace(base, name="test-moved",
                            table=dataclasses.replace(base.table, moved=moved))
    app = FastAPI()
    app.include_router(moved_router([r]))
    return TestClient(app)


def test_a_declared_old_address_redirects_with_its_parts_method_and_query() -> None:
    client = _app_with(MovedUrl("/old/tables/{gid}/{what}", "/api/games/{gid}/{what}"),
                       MovedUrl("/old/tables/{gid}/moves", "/api/games/{gid}/decisions",
                                methods=("POST",)),
                       MovedUrl("/old/list", "/api/scenarios?ruleset=test-moved"))
    r = client.get("/old/tables/abc/log", params={"since": "3"}, follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/api/games/abc/log?since=3"
    r = client.post("/old/tables/abc/moves", json={"choice": 1}, follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/api/games/abc/decisions"
    r = client.get("/old/list", params={"x": "1"}, follow_redirects=False)
    assert r.headers["location"] == "/api/scenarios?ruleset=test-moved"
    assert client.get("/old/tables/abc/moves", follow_redirects=False).status_code == 308
    assert client.put("/old/list").status_code == 405


@pytest.mark.parametrize("moved", [MovedUrl("old/no-slash", "/x"),
                                   MovedUrl("/old/{gid}", "/api/games/{gid}/{what}")])
def test_a_bad_declaration_is_refused_naming_the_ruleset(moved: MovedUrl) -> None:
    with pytest.raises(ValueError, match="ruleset 'test-moved': moved address"):
        _app_with(moved)


def test_only_devils_run_declares_old_addresses_today() -> None:
    assert {n for n, r in RULESETS.items() if r.table.moved} == {"devils-run"}
