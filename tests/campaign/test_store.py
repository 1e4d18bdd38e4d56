"""The campaign store on SQLite and PostgreSQL: migrations, append-only records, conflicts."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from carnage.campaign.migrate import HEAD, current
from carnage.campaign.store import CampaignError, CampaignStore, ConflictError, Record
from carnage.web.db import Store


def test_a_new_database_gets_every_table_at_head(db_url: str) -> None:
    store = CampaignStore(db_url)
    names = set(inspect(store.engine).get_table_names())
    assert {"teams", "games", "game_dice", "game_snapshots", "campaigns",
            "campaign_records", "alembic_version"} <= names
    assert current(store.engine) == HEAD
    store.close()
    # the web store opens the same database and migrates nothing twice
    web = Store(db_url.replace("postgresql://", "postgresql+psycopg://"))
    web.add_team("t1", {"name": "Red"})
    assert web.team("t1") is not None
    web.close()


def test_records_append_in_order_and_bump_the_version(db_url: str) -> None:
    store = CampaignStore(db_url)
    cid = store.create("escalating", {"start_cans": 30}, [Record("join", {"seat": 0})])
    c = store.get(cid)
    assert c.version == 1 and [r.kind for r in c.records] == ["join"]
    v = store.append(cid, 1, [Record("game", {"n": 1}, "g1"), Record("points", {"cp": 5}, "g1")])
    assert v == 2
    c = store.get(cid)
    assert [(r.seq, r.kind, r.game_id) for r in c.records] == [
        (0, "join", None), (1, "game", "g1"), (2, "points", "g1")]
    assert all(r.at is not None for r in c.records)
    assert store.ids() == [cid]
    store.close()


def test_a_stale_version_is_refused_not_merged(db_url: str) -> None:
    store = CampaignStore(db_url)
    cid = store.create("championship", {}, [])
    store.append(cid, 1, [Record("game", {"by": "first browser"})])
    with pytest.raises(ConflictError, match="changed"):
        store.append(cid, 1, [Record("game", {"by": "second browser"})])
    c = store.get(cid)
    assert [r.data["by"] for r in c.records] == ["first browser"] and c.version == 2
    store.close()


def test_concurrent_writers_are_serialised(db_url: str) -> None:
    """Eight threads append against the same version: exactly one wins, the rest conflict."""
    store = CampaignStore(db_url)
    cid = store.create("championship", {}, [])
    barrier = threading.Barrier(8)
    won: list[int] = []
    lost: list[int] = []

    def write(i: int) -> None:
        barrier.wait()
        try:
            store.append(cid, 1, [Record("game", {"writer": i})])
            won.append(i)
        except ConflictError:
            lost.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c = store.get(cid)
    assert len(won) == 1 and len(lost) == 7
    assert [r.data["writer"] for r in c.records] == won and c.version == 2
    store.close()


def test_a_failed_sequence_leaves_nothing_behind(db_url: str) -> None:
    store = CampaignStore(db_url)
    cid = store.create("championship", {}, [])
    with pytest.raises(CampaignError):  # the unknown-id path inside the same transaction
        store.append("nope", 1, [Record("game", {})])
    bad = Record("game", {"x": {1, 2}})  # not JSON: the whole sequence must roll back
    with pytest.raises(Exception, match=r"JSON|serializable"):
        store.append(cid, 1, [Record("points", {"cp": 5}), bad])
    c = store.get(cid)
    assert c.records == () and c.version == 1
    store.close()


def test_unknown_ids_and_bad_urls_are_clear_errors(tmp_path: Path) -> None:
    store = CampaignStore(f"sqlite:///{tmp_path / 'c.db'}")
    with pytest.raises(CampaignError, match="no campaign with id 'zzz'"):
        store.get("zzz")
    store.close()
    with pytest.raises(CampaignError, match="cannot open database 'nonsense://x'"):
        CampaignStore("nonsense://x")
    with pytest.raises(CampaignError, match="cannot open database 'postgresql://"):
        CampaignStore("postgresql://nobody@127.0.0.1:1/none")


def test_an_old_web_database_without_alembic_is_adopted(tmp_path: Path) -> None:
    """A database the web store made before migrations (no alembic_version, no snapshot
    table) keeps its rows and gains the missing tables."""
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE teams (id VARCHAR(40) PRIMARY KEY, name VARCHAR(200) NOT NULL,"
                " data JSON NOT NULL, created DATETIME NOT NULL, updated DATETIME NOT NULL)")
    con.execute("INSERT INTO teams VALUES ('old', 'Old Team', '{\"name\": \"Old Team\"}',"
                " '2025-01-01 00:00:00', '2025-01-01 00:00:00')")
    con.commit()
    con.close()
    web = Store(f"sqlite:///{path}")
    team = web.team("old")
    assert team is not None and team.data == {"name": "Old Team"}
    assert current(web.engine) == HEAD
    names = set(inspect(web.engine).get_table_names())
    assert {"games", "game_snapshots", "campaigns", "campaign_records"} <= names
    with web.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM teams")).scalar() == 1
    web.close()


def test_a_database_from_a_newer_carnage_is_a_clear_error(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    CampaignStore(url).close()
    con = sqlite3.connect(tmp_path / "c.db")
    con.execute("UPDATE alembic_version SET version_num = '9999'")
    con.commit()
    con.close()
    with pytest.raises(CampaignError, match="cannot open database"):
        CampaignStore(url)


def test_record_times_are_utc(db_url: str) -> None:
    store = CampaignStore(db_url)
    cid = store.create("championship", {}, [Record("join", {})])
    c = store.get(cid)
    assert c.created.utcoffset() is not None and c.created.utcoffset().total_seconds() == 0
    assert all(r.at is not None and r.at.utcoffset() is not None for r in c.records)
    store.close()


def test_campaigns_from_before_the_public_flag_are_kept_and_private(db_url: str) -> None:
    """A database at 0002 (campaigns without ``public``) is migrated with its rows: they
    become private campaigns, listed only to whoever sends their ids' tokens."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from carnage.campaign.migrate import SCRIPTS

    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.execute(text("INSERT INTO campaigns (id, mode, options, version, created) VALUES "
                          "('old1', 'championship', '{}', 3, '2025-01-01 00:00:00+00')"))
    assert current(engine) == "0002"
    engine.dispose()
    store = CampaignStore(db_url)
    assert current(store.engine) == HEAD
    old = store.get("old1")
    assert old.version == 3 and old.public is False
    new = store.create("championship", {}, [], public=True)
    assert store.get(new).public is True
    assert store.listed([]) == [new]
    assert store.listed(["old1"]) == ["old1", new]
    store.close()
