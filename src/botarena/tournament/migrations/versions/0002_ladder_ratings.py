"""A ladder version's rating after each game that rated it (`ladder_ratings`): the bot page's
rating chart and `/api/bots/BOT/ratings` (#37). Filled as games are rated from here on; a
store upgraded mid-season gets the earlier games' points with its next void (a re-rating)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("ladder_ratings"):
        return  # made already by a botarena that had the table before this revision
    op.create_table(
        "ladder_ratings",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("label", sa.String(220), primary_key=True),
        sa.Column("tournament_id", sa.Integer, nullable=False),  # no foreign key: schema.py
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ladder_ratings_of", "ladder_ratings", ["tournament_id", "label", "game_id"])


def downgrade() -> None:
    op.drop_index("ladder_ratings_of", table_name="ladder_ratings")
    op.drop_table("ladder_ratings")
