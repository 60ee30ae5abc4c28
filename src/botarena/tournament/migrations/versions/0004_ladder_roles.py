"""A ladder version's role (`ladder_bots.role`, #36): ladders of role games, where each
version competes only within its role (docs/tournaments.md "Ladders of role games"). None
outside role games, so the versions of every earlier ladder keep it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ladder_bots") as batch:
        batch.add_column(sa.Column("role", sa.String(50)))


def downgrade() -> None:
    with op.batch_alter_table("ladder_bots") as batch:
        batch.drop_column("role")
