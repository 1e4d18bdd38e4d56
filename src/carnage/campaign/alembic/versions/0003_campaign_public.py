"""Campaigns: whether anyone may find one in the campaign list (``public``).

A campaign's owner and its seats are owner tokens in the ``owners`` table (web/ownership.py),
never columns here. Existing campaigns become private (``public`` false): the list shows them
only to whoever sends one of their tokens.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("public")
