"""The store's tables: what tournaments, bots, games, runners, ladders and replays look like
in SQL (tournament/store.py reads and writes them; tournament/migrations makes them)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)
"""The hand-kept schema version of stores from before Alembic (1); Alembic's revisions set
it to 2, which an older botarena refuses as a newer release's store."""

tournaments = sa.Table(
    "tournaments",
    metadata,
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
    metadata,
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
    metadata,
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
    sa.Index("games_finished", "tournament_id", "status", "finished_at"),
)

runners = sa.Table(
    "runners",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("pid_start", sa.String(40), nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

ladder_bots = sa.Table(
    "ladder_bots",
    metadata,
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("label", sa.String(220), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("role", sa.String(50)),  # its role in a ladder of a role game, else None
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
"""A ladder's rating and waiting state per bot version (tournament/ladder.py)."""

ladder_ratings = sa.Table(
    "ladder_ratings",
    metadata,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("label", sa.String(220), primary_key=True),
    sa.Column("tournament_id", sa.Integer, nullable=False),  # no key: see below
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Index("ladder_ratings_of", "tournament_id", "label", "game_id"),
)
"""A ladder version's μ and σ after each game that rated it (its rating chart); written with
the rating, written again when the ladder is rated again (a void). `tournament_id` has no
foreign key: checking one takes a share lock on the tournament's row, which a worker
choosing the next game holds for update while it waits for the seats this game's rating
holds (PostgreSQL's deadlock)."""

replays = sa.Table(
    "replays",
    metadata,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),  # the gzip replay, as written
)
"""Replays kept in the database, so the site and `view` read them from any worker's games."""

store_meta = sa.Table(
    "store_meta",
    metadata,
    sa.Column("key", sa.String(50), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
"""Facts about the store, e.g. `botarena_version`: the release that workers must match."""
