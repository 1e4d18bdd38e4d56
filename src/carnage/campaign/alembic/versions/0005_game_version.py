"""Each game row carries its version (the number of choices applied).

Several server processes may serve the same games from one database; a process saves a
game's progress only if the row is still at the version it started from (compare-and-set),
so two processes never both apply a choice to the same position. The column is filled from
each saved game's choices, so games already in the database go on where they were.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id", sa.String()), sa.column("choices", sa.JSON()),
                  sa.column("version", sa.Integer()))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False,
                                   server_default="0"))
    bind = op.get_bind()
    if bind.dialect.name in ("sqlite", "postgresql"):  # both have json_array_length
        bind.execute(sa.text("UPDATE games SET version = "
                             "COALESCE(json_array_length(choices), 0)"))
        return
    for gid, choices in bind.execute(sa.select(_games.c.id, _games.c.choices)).all():
        bind.execute(sa.update(_games).where(_games.c.id == gid)
                     .values(version=len(choices or [])))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
