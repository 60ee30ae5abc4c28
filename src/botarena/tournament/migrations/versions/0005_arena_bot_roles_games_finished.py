"""A contest bot's role in a role game (`arena_bots.role`, #36): an upload names the role its
bot plays, every later version plays the same one; None outside role games. And the index
`games_finished`: a ladder of roles finds, for each game it rates, the latest earlier game
of the same opposition (tournament/roleladder.py), newest first."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("arena_bots", sa.Column("role", sa.String(50)))
    op.create_index("games_finished", "games", ["tournament_id", "status", "finished_at"])


def downgrade() -> None:
    op.drop_index("games_finished", table_name="games")
    with op.batch_alter_table("arena_bots") as batch:
        batch.drop_column("role")
