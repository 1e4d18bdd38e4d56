"""The migration that moves Devil's Run games into the one game table, on SQLite and on a
real PostgreSQL server: a game saved by the old web table (its own ``devilsrun_games`` table,
made by ``create_all``) keeps its id, seats, tokens, choices and snapshot, resumes where it was
through ``/api/games``, and the old table is gone; downgrading moves it back."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from carnage.campaign.migrate import HEAD, SCRIPTS, current
from carnage.rulesets import get_ruleset
from carnage.web.app import create_app
from carnage.web.db import Store

_spec = __import__("importlib").import_module(
    "carnage.campaign.alembic.versions.0004_one_game_table")


def _alembic(engine: sa.engine.Engine, target: str, down: bool = False) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)


def _old_game(engine: sa.engine.Engine, gid: str, moves: int,
              snapshot: bool = True) -> dict[str, Any]:
    """A Devil's Run game saved as the old web table saved it, ``moves`` choices in."""
    game = get_ruleset("devils-run").new_game(scenario="devils-run", seed=11)
    rng = random.Random(3)
    for _ in range(moves):
        d = game.pending()
        game.apply(d.options[rng.randrange(len(d.options))].value)
    meta = sa.MetaData()
    old = _spec.old_table(meta)
    meta.create_all(engine)
    now = datetime.now(UTC)
    row = {"id": gid, "mission": "devils-run", "setup": dict(game.setup),
           "seats": [{"seat": 0, "controller": "human", "token": f"tok-{gid}", "team_id": None},
                     {"seat": 1, "controller": "human", "token": f"two-{gid}",
                      "team_id": None}],
           "seed": 11, "seed_chosen": False, "choices": list(game.choices), "finished": False,
           "turn": game.state.turn, "winner": None,
           "snapshot_version": len(game.choices) if snapshot else -1,
           "snapshot": game.snapshot() if snapshot else None, "created": now, "updated": now}
    with engine.begin() as conn:
        conn.execute(old.insert().values(**row))
    return {"game": game, **row}


def test_devils_run_games_move_into_the_one_game_table(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    _alembic(engine, "0002")
    saved = _old_game(engine, "oldsnap00001", 9)
    replayed = _old_game(engine, "oldplain0002", 5, snapshot=False)
    engine.dispose()

    store = Store(db_url)  # opening the store runs the migration
    assert current(store.engine) == HEAD
    assert not sa.inspect(store.engine).has_table("devilsrun_games")
    row = store.game("oldsnap00001")
    assert row is not None and row.setup["ruleset"] == "devils-run"
    assert row.choices == saved["choices"] and row.seed_chosen is False
    as_json = json.loads(json.dumps(saved["game"].snapshot()))
    assert store.snapshot("oldsnap00001") == (len(saved["choices"]), as_json)
    assert store.snapshot("oldplain0002") is None
    store.close()

    client = TestClient(create_app(db_url))
    for old in (saved, replayed):
        v = client.get(f"/api/games/{old['id']}", params={"token": old["seats"][0]["token"]})
        assert v.status_code == 200, v.text
        view = v.json()
        assert view["version"] == len(old["choices"]) and view["board_view"] == "devilsrun"
        assert view["seed"] is None  # drawn by the server, still hidden
        assert view["pending"]["player"] == old["game"].pending().player
        tokens = ",".join(s["token"] for s in old["seats"])
        r = client.post(f"/api/games/{old['id']}/decisions", json={
            "token": tokens, "version": view["version"],
            "choice": view["pending"]["options"][0]["value"]})
        assert r.status_code == 200, r.text
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed["oldsnap00001"]["ruleset"] == "devils-run"
    # The old table link still leads to the game.
    r = client.get("/devils-run/oldsnap00001?token=x", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/games/oldsnap00001?token=x"
    client.app.state.store.close()


def test_downgrading_moves_them_back(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    _alembic(engine, "0002")
    saved = _old_game(engine, "roundtrip001", 7)
    _alembic(engine, "head")
    assert not sa.inspect(engine).has_table("devilsrun_games")
    _alembic(engine, "0002", down=True)
    old = _spec.old_table(sa.MetaData())
    with engine.connect() as conn:
        rows = conn.execute(sa.select(old)).mappings().all()
        assert conn.execute(sa.text("SELECT count(*) FROM games")).scalar() == 0
    assert len(rows) == 1 and rows[0]["choices"] == saved["choices"]
    assert rows[0]["snapshot_version"] == len(saved["choices"]) and not rows[0]["seed_chosen"]
    engine.dispose()


def test_a_new_database_has_no_devils_run_table(db_url: str) -> None:
    store = Store(db_url)
    assert not sa.inspect(store.engine).has_table("devilsrun_games")
    store.close()
