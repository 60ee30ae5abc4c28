"""Baseline: the store's tables as botarena 0.1 made them (hand-kept schema version 1).

Its tables are a frozen copy, never the live ones (tournament/schema.py, arena/store.py):
a later change to those is a new revision. Each table is made only if missing, so this
revision also brings up a store of schema version 1, whose site tables were added one by
one as botarena grew (the ladder's, the replays', the site's, arena_names). It sets the
hand-kept `schema_version` to 2: a botarena from before Alembic, which knows only 1, then
refuses this store as a newer release's instead of writing into it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

baseline = sa.MetaData()

schema_version = sa.Table(
    "schema_version", baseline, sa.Column("version", sa.Integer, nullable=False)
)

tournaments = sa.Table(
    "tournaments",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("game", sa.String(50), nullable=False),
    sa.Column("schedule", sa.String(30), nullable=False),
    sa.Column("plan", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("replay_dir", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

bots = sa.Table(
    "bots",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("label", sa.String(220), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("role", sa.String(50)),
    sa.Column("workdir", sa.Text),
    sa.Column("source", sa.Text),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("tournament_id", "label"),
)

games = sa.Table(
    "games",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("key", sa.String(700), nullable=False, unique=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("pairing", sa.String(600), nullable=False),
    sa.Column("idx", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("map", sa.Text),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("status", sa.String(20), nullable=False, index=True),
    sa.Column("claimed_by", sa.String(40)),
    sa.Column("claimed_at", sa.Float),
    sa.Column("scores", sa.JSON),
    sa.Column("ranks", sa.JSON),
    sa.Column("statuses", sa.JSON),
    sa.Column("faults", sa.JSON),
    sa.Column("turns", sa.Integer),
    sa.Column("end_reason", sa.Text),
    sa.Column("replay", sa.Text),
    sa.Column("error", sa.Text),
    sa.Column("finished_at", sa.Float),
)

runners = sa.Table(
    "runners",
    baseline,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("pid_start", sa.String(40), nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

ladder_bots = sa.Table(
    "ladder_bots",
    baseline,
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("label", sa.String(220), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("state", sa.String(20), nullable=False),  # active, replaced, retired
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("firsts", sa.Integer, nullable=False),
    sa.Column("queue", sa.Integer, nullable=False),  # 0: σ not settled yet, 1: settled
    sa.Column("last_seq", sa.BigInteger, nullable=False),
    sa.Column("rnd", sa.Float, nullable=False),
    sa.Column("added_at", sa.Float, nullable=False),
    sa.Index("ladder_wait", "tournament_id", "state", "queue", "last_seq"),
    sa.Index("ladder_mu", "tournament_id", "state", "mu"),
    sa.Index("ladder_rnd", "tournament_id", "state", "rnd"),
)

replays = sa.Table(
    "replays",
    baseline,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),  # the gzip replay, as written
)

store_meta = sa.Table(
    "store_meta",
    baseline,
    sa.Column("key", sa.String(50), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

contests = sa.Table(
    "arena_contests",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), nullable=False, unique=True),
    sa.Column("tests_id", sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

users = sa.Table(
    "arena_users",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("contest_id", sa.ForeignKey("arena_contests.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("organiser", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("contest_id", "name"),
)

credentials = sa.Table(
    "arena_credentials",
    baseline,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("arena_users.id"), nullable=False, index=True),
    sa.Column("kind", sa.String(10), nullable=False),  # token (API) or session (cookie)
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("revoked_at", sa.Float),
)

arena_bots = sa.Table(
    "arena_bots",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("contest_id", sa.ForeignKey("arena_contests.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("owner_id", sa.ForeignKey("arena_users.id"), nullable=False, index=True),
    sa.Column("disabled", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("contest_id", "name"),
)

uploads = sa.Table(
    "arena_uploads",
    baseline,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("bot_id", sa.ForeignKey("arena_bots.id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("status", sa.String(20), nullable=False, index=True),
    sa.Column("filename", sa.Text, nullable=False),
    sa.Column("source", sa.LargeBinary, nullable=False),  # as uploaded: kept for the export
    sa.Column("language", sa.String(20)),
    sa.Column("build_log", sa.Text),
    sa.Column("reason", sa.Text),  # why it failed, one line
    sa.Column("stderr", sa.Text),  # the bot's stderr in its test game
    sa.Column("test_game_id", sa.ForeignKey("games.id")),
    sa.Column("label", sa.String(220)),  # its ladder label once active
    sa.Column("claimed_by", sa.String(40)),
    sa.Column("claimed_at", sa.Float),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float),
    sa.UniqueConstraint("bot_id", "version"),
)

names = sa.Table(
    "arena_names",
    baseline,
    sa.Column("contest_id", sa.ForeignKey("arena_contests.id"), nullable=False),
    sa.Column("kind", sa.String(4), nullable=False),  # user or bot
    sa.Column("folded", sa.String(200), nullable=False),  # fold(name): the unique key
    sa.Column("name", sa.String(64), nullable=False),  # as written: the user or bot it keeps
    sa.PrimaryKeyConstraint("contest_id", "kind", "folded"),
)


def upgrade() -> None:
    bind = op.get_bind()
    baseline.create_all(bind, checkfirst=True)
    bind.execute(schema_version.delete())
    bind.execute(schema_version.insert().values(version=2))


def downgrade() -> None:
    baseline.drop_all(op.get_bind())
