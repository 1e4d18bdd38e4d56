"""A server process's own app settles its heap once started (``web/app.py`` ``settle_heap``):
what start-up built is left out of the garbage collector's walks and the youngest generation is
collected less often; an app made among others (the tests' apps) leaves the process's collector
as it was."""

from __future__ import annotations

import gc
from pathlib import Path

from tests.web.test_api_support import TestClient

from carnage.web.app import YOUNG_COLLECTIONS, create_app


def test_only_a_server_processs_own_app_settles_the_heap(tmp_path: Path) -> None:
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}")) as c:
            assert c.get("/api/rulesets").status_code == 200
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == threshold
        with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", settle=True)) as c:
            assert c.get("/api/rulesets").status_code == 200
            assert gc.get_freeze_count() > 10_000  # modules, the catalogue, the app
            assert gc.get_threshold() == (YOUNG_COLLECTIONS, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
