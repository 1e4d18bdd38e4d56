"""Every ruleset's games in one table: Devil's Run games move from ``devilsrun_games``.

The web table used to keep Devil's Run games in a table of their own, created outside this
chain (``create_all``). Now every game lives in ``games`` (with ``game_dice`` and
``game_snapshots``), its ruleset named in its setup. Each saved Devil's Run game is copied
there with the same id, seats, tokens, seed, choices and snapshot, so it resumes where it was
and its old links still lead to it; then the old table is dropped. A game whose id is already
taken in ``games`` (never seen: ids are random) is left in the old table, which then stays.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

OLD = "devilsrun_games"
RULESET = "devils-run"

_meta = sa.MetaData()
games = sa.Table(
    "games", _meta,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("scenario", sa.String(80)),
    sa.Column("setup", sa.JSON()),
    sa.Column("seats", sa.JSON()),
    sa.Column("seed", sa.BigInteger()),
    sa.Column("choices", sa.JSON()),
    sa.Column("finished", sa.Boolean()),
    sa.Column("round", sa.Integer()),
    sa.Column("winner", sa.Integer(), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True)),
    sa.Column("updated", sa.DateTime(timezone=True)),
)
dice = sa.Table("game_dice", _meta, sa.Column("game_id", sa.String(40), primary_key=True),
                sa.Column("seed_chosen", sa.Boolean()))
snapshots = sa.Table("game_snapshots", _meta,
                     sa.Column("game_id", sa.String(40), primary_key=True),
                     sa.Column("version", sa.Integer()), sa.Column("doc", sa.JSON()))


def old_table(meta: sa.MetaData) -> sa.Table:
    """``devilsrun_games`` as the web table created it."""
    return sa.Table(
        OLD, meta,
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("mission", sa.String(40), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("seed_chosen", sa.Boolean(), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("snapshot_version", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def upgrade() -> None:
    bind = op.get_bind()
    if not sa.inspect(bind).has_table(OLD):
        return
    old = old_table(sa.MetaData())
    taken = set(bind.execute(sa.select(games.c.id)).scalars())
    left = 0
    for r in bind.execute(sa.select(old)).mappings().all():
        if r["id"] in taken:
            left += 1
            continue
        setup: dict[str, Any] = {**dict(r["setup"]), "ruleset": RULESET}
        bind.execute(games.insert().values(
            id=r["id"], scenario=r["mission"], setup=setup, seats=list(r["seats"]),
            seed=r["seed"], choices=list(r["choices"]), finished=r["finished"],
            round=r["turn"], winner=r["winner"], created=r["created"], updated=r["updated"]))
        bind.execute(dice.insert().values(game_id=r["id"], seed_chosen=r["seed_chosen"]))
        if r["snapshot"] is not None and r["snapshot_version"] >= 0:
            bind.execute(snapshots.insert().values(
                game_id=r["id"], version=r["snapshot_version"], doc=dict(r["snapshot"])))
        bind.execute(sa.delete(old).where(old.c.id == r["id"]))
    if not left:
        op.drop_table(OLD)


def downgrade() -> None:
    bind = op.get_bind()
    meta = sa.MetaData()
    old = old_table(meta)
    if not sa.inspect(bind).has_table(OLD):
        meta.create_all(bind)
    rows = [r for r in bind.execute(sa.select(games)).mappings().all()
            if dict(r["setup"]).get("ruleset") == RULESET]
    for r in rows:
        chosen = bind.execute(sa.select(dice.c.seed_chosen).where(
            dice.c.game_id == r["id"])).scalar()
        snap = bind.execute(sa.select(snapshots.c.version, snapshots.c.doc).where(
            snapshots.c.game_id == r["id"])).first()
        bind.execute(old.insert().values(
            id=r["id"], mission=r["scenario"], setup=dict(r["setup"]), seats=list(r["seats"]),
            seed=r["seed"], seed_chosen=True if chosen is None else bool(chosen),
            choices=list(r["choices"]), finished=r["finished"], turn=r["round"],
            winner=r["winner"], snapshot_version=-1 if snap is None else snap[0],
            snapshot=None if snap is None else dict(snap[1]), created=r["created"],
            updated=r["updated"]))
        for t, col in ((snapshots, snapshots.c.game_id), (dice, dice.c.game_id),
                       (games, games.c.id)):
            bind.execute(sa.delete(t).where(col == r["id"]))
