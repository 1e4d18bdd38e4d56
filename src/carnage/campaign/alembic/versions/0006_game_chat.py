"""The chat between a game's seats (web/chat.py): its messages and whether spectators may read
them.

``game_chat`` holds each message (the game, the seat that wrote it, the text, when), indexed by
game; ``game_chat_public`` holds a game's one chat setting (public or not, and the seat that set
it). A game without a row there has a private chat, so existing games need nothing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_chat_game_id", "game_chat", ["game_id"])
    op.create_table(
        "game_chat_public",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_chat_public")
    op.drop_index("ix_game_chat_game_id", table_name="game_chat")
    op.drop_table("game_chat")
