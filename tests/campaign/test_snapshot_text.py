"""The web store writes and reads its JSON columns through ``kernel/jsontext.py`` (orjson), on
SQLite and PostgreSQL: a game's snapshot comes back as ``json`` would give it and restores to
the same game, and rows ``json`` wrote before still read as they did."""

from __future__ import annotations

import json
import math
import random
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import create_engine, insert

import carnage
from carnage.ai import bots_for
from carnage.rulesets import RULESETS
from carnage.web.db import GameSnapshotRow, Store, StoredGame, engine_url


def _played(seed: int) -> Any:
    rs = RULESETS["refuelled"]
    g = rs.new_game(scenario="street-race", seed=seed)
    bots = bots_for(rs, ["random"] * g.players)
    rng = random.Random(seed)
    for _ in range(60):
        d = g.pending()
        if d is None:
            break
        g.apply(bots[d.player].choose(g, d, rng))
    return g


def test_a_saved_snapshot_reads_back_as_json_gives_it_and_restores(db_url: str) -> None:
    store = Store(db_url)
    g = _played(4)
    doc = g.snapshot()
    store.add_game(StoredGame(
        id="g1", scenario="street-race", setup={"scenario": "street-race"}, seats=[], seed=4,
        choices=list(g.choices), finished=False, round=g.state.round, winner=None,
        created=datetime.now(UTC), snapshot=doc))
    saved = store.snapshot("g1")
    assert saved is not None
    assert saved[1] == json.loads(json.dumps(doc))
    assert carnage.restore(saved[1]).snapshot() == doc
    stored = store.game("g1")
    assert stored is not None and stored.choices == json.loads(json.dumps(g.choices))
    store.close()


def test_rows_json_wrote_before_still_read_as_they_did(db_url: str) -> None:
    store = Store(db_url)  # creates the tables
    old = {"carnage_snapshot": 2, "seed": 2**70, "small": -(2**63) - 5, "x": [1.5, None],
           "k": "é"}
    if db_url.startswith("sqlite"):  # a JSON column on SQLite is text: json could write NaN
        old["nan"] = math.nan
    plain = create_engine(engine_url(db_url))  # SQLAlchemy's own json.dumps, as before
    with plain.begin() as conn:
        conn.execute(insert(GameSnapshotRow).values(game_id="old", version=3, doc=old))
    plain.dispose()
    saved = store.snapshot("old")
    assert saved is not None and saved[0] == 3
    got = saved[1]
    assert got["seed"] == 2**70 and type(got["seed"]) is int
    assert got["small"] == -(2**63) - 5 and type(got["small"]) is int
    assert got["x"] == [1.5, None] and got["k"] == "é"
    if "nan" in old:
        assert math.isnan(got["nan"])
    store.close()
