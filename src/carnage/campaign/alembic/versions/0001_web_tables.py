"""The web table's saved teams and games.

Databases made before migrations existed already hold some of these tables (the web store used
to create them itself, some only in later versions), so each is created only when missing: an
old database is adopted as it is.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("teams"):
        op.create_table(
            "teams",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("name", sa.String(200), nullable=False),
            sa.Column("data", sa.JSON(), nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        )
    if _missing("games"):
        op.create_table(
            "games",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("scenario", sa.String(80), nullable=False),
            sa.Column("setup", sa.JSON(), nullable=False),
            sa.Column("seats", sa.JSON(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("choices", sa.JSON(), nullable=False),
            sa.Column("finished", sa.Boolean(), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("winner", sa.Integer(), nullable=True),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        )
    if _missing("game_dice"):
        op.create_table(
            "game_dice",
            sa.Column("game_id", sa.String(40), primary_key=True),
            sa.Column("seed_chosen", sa.Boolean(), nullable=False),
        )
    if _missing("game_snapshots"):
        op.create_table(
            "game_snapshots",
            sa.Column("game_id", sa.String(40), primary_key=True),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("doc", sa.JSON(), nullable=False),
        )


def downgrade() -> None:
    for name in ("game_snapshots", "game_dice", "games", "teams"):
        op.drop_table(name)
