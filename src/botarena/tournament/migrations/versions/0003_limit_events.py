"""The site's rate limits in the store (`arena_limit_events`, #36): log-ins and sign-ups are
counted across every web process of one store, not in each process's memory."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arena_limit_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(250), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("arena_limit_events_of", "arena_limit_events", ["name", "key", "at"])
    op.create_index("arena_limit_events_at", "arena_limit_events", ["name", "at"])


def downgrade() -> None:
    op.drop_index("arena_limit_events_at", table_name="arena_limit_events")
    op.drop_index("arena_limit_events_of", table_name="arena_limit_events")
    op.drop_table("arena_limit_events")
