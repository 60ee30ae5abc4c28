"""The tournament store: tournaments, bots and games in SQL tables that survive kill -9.

SQLAlchemy Core over SQLite (WAL, the default `sqlite:///botarena.db`) or PostgreSQL (by
URL). Every game row has a stable key and moves pending -> claimed -> done (or error, or
void when its bot is updated) by conditional updates, each in one transaction: a claim
succeeds for one runner only, and a result is written only by the runner holding the claim,
so a finished game is committed exactly once. Claims of a runner that died are handed back.
The schema has a revision (Alembic's, tournament/migrations): a new store is made at this
botarena's, and a store at any other is refused with one line naming `botarena store
upgrade` (docs/store.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from botarena.core.errors import UserError
from botarena.tournament import migrations, schema
from botarena.tournament.records import GameRecord
from botarena.tournament.rows import Bot as Bot
from botarena.tournament.rows import GameRow as GameRow
from botarena.tournament.rows import Tournament as Tournament

# The tables, imported from here as before (names of this module, so mypy sees them exported)
bots = schema.bots
games = schema.games
ladder_bots = schema.ladder_bots
ladder_ratings = schema.ladder_ratings
metadata = schema.metadata
replays = schema.replays
runners = schema.runners
schema_version = schema.schema_version
store_meta = schema.store_meta
tournaments = schema.tournaments


class StoreError(UserError):
    """A database that cannot be opened or used; the message is for the user (the command
    line answers it in one line wherever it is raised)."""


class StoreDamaged(StoreError):
    """The store's own data is damaged, or it is not a botarena store: found by any
    statement, the message names the store."""


SQLITE_DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
"""SQLite's result codes (and their extended forms) for a file whose pages are damaged or
that is not a SQLite database at all."""

POSTGRES_DAMAGE = {"XX001": "data corrupted", "XX002": "index corrupted"}
MISSING = {"42P01": "a table is missing", "42703": "a column is missing"}
"""PostgreSQL's SQLSTATEs for damage, and for tables a botarena store has and this lacks."""


def damage(error: BaseException) -> str | None:
    """What a driver's error says is wrong with the store itself (damaged pages, not a
    database, tables or columns missing), or None for any other error (a lock, a
    constraint, a bug), which callers handle as before."""
    name = getattr(error, "sqlite_errorname", None)
    if isinstance(name, str):
        text = str(error).strip() or name
        if name.startswith(SQLITE_DAMAGE):
            return text
        if text.startswith(("no such table", "no such column")):
            return f"{text}: not a botarena store, or a damaged one"
        return None
    state = getattr(error, "sqlstate", None)
    if state in POSTGRES_DAMAGE:
        return POSTGRES_DAMAGE[state]
    if state in MISSING:
        return f"{MISSING[state]}: not a botarena store, or a damaged one"
    return None


@dataclass(frozen=True)
class Revision:
    """Which schema a database holds, as `revision_of` finds it.

    `kind`: `empty` (no tables: a new store is made there), `foreign` (another program's
    tables), `legacy` (a store of the hand-kept schema version 1, from before Alembic),
    `older` (a revision before this botarena's), `current`, `newer` (a revision this
    botarena does not know: a later release's, or damage), `damaged` (a `schema_version`
    row that no botarena writes). `found`: the revision or version as stored, for messages."""

    kind: str
    found: str = ""

    def words(self) -> str:
        """What the store is at, in words (`store upgrade` prints it)."""
        if self.kind == "empty":
            return "an empty database"
        if self.kind == "legacy":
            return "schema version 1 (before migrations)"
        return f"revision {self.found}"

    def problem(self, url: str) -> str:
        """Why this botarena will not use the store as it is, in one line naming the fix."""
        upgrade = (
            f"run `botarena store upgrade --db {describe_url(url)}` (after `botarena store backup`)"
        )
        if self.kind == "empty":
            return "the database holds no botarena store (tournament new makes one)"
        if self.kind == "foreign":
            return (
                "the database holds tables but no botarena store (no schema_version table);"
                " give another --db"
            )
        if self.kind == "legacy":
            return f"the store's schema is version 1, from before migrations: {upgrade}"
        if self.kind == "older":
            return (
                f"the store's schema is at revision {self.found}, this botarena's is"
                f" {migrations.HEAD}: {upgrade}"
            )
        if self.kind == "newer":
            return (
                f"the store's schema revision {self.found} is newer than this botarena's"
                f" ({migrations.HEAD}) or damaged: upgrade botarena, or restore the store"
                " from a backup"
            )
        return (
            f"the store's schema version ({self.found}) is not one this botarena knows (1):"
            " the store is damaged or not botarena's; restore it from a backup"
        )


def revision_of(conn: Connection) -> Revision:
    """The schema the database on `conn` holds: its Alembic revision (`alembic_version`)
    or, for a store from before Alembic, its hand-kept `schema_version` row, which must
    be exactly one row holding 1. Reads only; imports no Alembic."""
    inspector = sa.inspect(conn)
    if inspector.has_table("alembic_version"):
        rows = [row[0] for row in conn.execute(sa.text("SELECT version_num FROM alembic_version"))]
        found = repr(rows[0])[:40] if len(rows) == 1 else f"({len(rows)} rows)"
        if rows == [migrations.HEAD]:
            return Revision("current", rows[0])
        if len(rows) == 1 and rows[0] in migrations.REVISIONS:
            return Revision("older", rows[0])
        return Revision("newer", found)
    if not inspector.has_table("schema_version"):
        return Revision("foreign" if inspector.get_table_names() else "empty")
    rows = [row[0] for row in conn.execute(sa.text("SELECT version FROM schema_version"))]
    if len(rows) == 1 and type(rows[0]) is int and rows[0] == 1:
        return Revision("legacy", "1")
    shown = repr(rows[0])[:40] if len(rows) == 1 and rows[0] is not None else "NULL"
    if len(rows) != 1:
        shown = f"{len(rows)} rows" if rows else "0 rows"
    return Revision("damaged", shown)


def _refuse_damage(engine: Engine, url: str) -> None:
    """Every statement and connection of `engine` whose error is damage to the store raises
    StoreError naming the store: the one place that holds for every command, page and
    worker, at open and mid-query alike."""

    @sa.event.listens_for(engine, "handle_error")
    def damaged(context: Any) -> None:
        problem = damage(context.original_exception)
        if problem is not None:
            raise StoreDamaged(
                f"--db {describe_url(url)}: the store is damaged ({problem}); restore it"
                " from a backup"
            ) from context.original_exception


UPLOAD_SPEC = "upload:"
"""A ladder version made from a contest's upload has the spec `upload:ID`: each worker
builds the upload's source from the store into its own cache (arena/pipeline.py `ready`),
so no built file is shared between machines."""


def finished_values(result: dict[str, Any]) -> dict[str, Any]:
    """The columns of a game a worker's `result` finishes (played, or ended in an error),
    its claim released."""
    values: dict[str, Any] = dict(claimed_by=None, finished_at=time.time())
    if result.get("error"):
        values.update(status="error", error=result["error"])
    else:
        values.update(
            status="done",
            scores=result["scores"],
            ranks=result["ranks"],
            statuses=result["statuses"],
            faults=result["faults"],
            turns=result["turns"],
            end_reason=result["end_reason"],
            replay=result["replay"],
            error=None,
        )
    return values


def _sqlite_pragmas(engine: Engine, read_only: bool = False) -> None:
    """WAL with synchronous=NORMAL (a commit is durable once written to the log, which the
    OS keeps when the process dies), a long busy wait, and every transaction takes the
    write lock at BEGIN, so two runners never deadlock upgrading a read lock. A reader
    (`read_only`) sets no journal mode and takes no write lock: it may not be able to."""

    @sa.event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not read_only:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")  # in WAL: no fsync per commit, and
        # still nothing committed is lost when a process is killed (only at a power cut)
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def describe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database (None for other databases or in-memory)."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        return None
    if (
        parsed.get_backend_name() != "sqlite"
        or not parsed.database
        or parsed.database == ":memory:"
    ):
        return None
    database = parsed.database
    if parsed.query.get("uri") in ("true", "1") and database.startswith("file:"):
        database = database.removeprefix("file:").split("?", 1)[0]  # a SQLite URI filename
    return Path(database).resolve()


def sqlite_folder(url: str) -> Path | None:
    """The folder of a SQLite database file (None for other databases or in-memory)."""
    path = sqlite_path(url)
    return None if path is None else path.parent


class Store:
    """One database: open it with `Store.open(url)` (makes the tables in an empty one)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str, *, read_only: bool = False, check: bool = True) -> Store:
        """The store at `url`, made in an empty database; StoreError for one of another
        schema revision than this botarena's (`botarena store upgrade` brings it up).
        `read_only` (the leaderboard) writes nothing, so it opens a store it may not write
        (a read-only file or filesystem, `sqlite:///file:PATH?mode=ro&uri=true`).
        `check=False` (the `store` commands) opens the database whatever it holds."""
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]  # psycopg 3, any SQLAlchemy 2
        try:
            engine = sa.create_engine(url)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ValueError) as exc:
            raise StoreError(f"--db {url!r} is not a database URL ({exc})") from None
        except ImportError as exc:
            raise StoreError(
                f"--db {describe_url(url)}: driver missing ({exc}); for"
                " PostgreSQL: pip install 'botarena[postgres]'"
            ) from None
        if engine.dialect.name == "sqlite":
            _sqlite_pragmas(engine, read_only)
        _refuse_damage(engine, url)
        store = cls(engine)
        try:
            if check:
                store._check(url, read_only)
        except StoreDamaged:
            raise
        except StoreError as exc:
            raise StoreError(f"--db {describe_url(url)}: {exc}") from None
        except sa.exc.SQLAlchemyError as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise StoreError(
                f"--db {describe_url(url)}: cannot open the database ({reason})"
            ) from None
        return store

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    def _check(self, url: str, read_only: bool) -> None:
        """Make a new store in an empty database (unless `read_only`); StoreError naming
        the fix for a store of another revision than this botarena's (docs/store.md)."""
        with self.engine.connect() if read_only else self.transaction() as conn:
            found = revision_of(conn)
            if found.kind == "empty" and not read_only:
                migrations.migrate(conn)
            elif found.kind != "current":
                raise StoreError(found.problem(url))

    # -- tournaments and bots ------------------------------------------------------------
    def tournament(self, name: str) -> Tournament | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(tournaments).where(tournaments.c.name == name)).first()
        return None if row is None else _tournament(row)

    def tournaments(self) -> list[Tournament]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tournaments).order_by(tournaments.c.id)).all()
        return [_tournament(row) for row in rows]

    def bots(
        self, tournament: Tournament, *, active_only: bool = True, conn: Connection | None = None
    ) -> list[Bot]:
        query = sa.select(bots).where(bots.c.tournament_id == tournament.id)
        if active_only:
            query = query.where(bots.c.active.is_(True))
        query = query.order_by(bots.c.id)
        if conn is not None:
            return [_bot(row) for row in conn.execute(query)]
        with self.engine.connect() as own:
            return [_bot(row) for row in own.execute(query)]

    # -- games ---------------------------------------------------------------------------
    def games(self, tournament: Tournament, *, conn: Connection | None = None) -> list[GameRow]:
        query = sa.select(games).where(games.c.tournament_id == tournament.id).order_by(games.c.id)
        if conn is not None:
            return [_game(row) for row in conn.execute(query)]
        with self.engine.connect() as own:
            return [_game(row) for row in own.execute(query)]

    def counts(self, tournament: Tournament) -> dict[str, int]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(games.c.status, sa.func.count())
                .where(games.c.tournament_id == tournament.id)
                .group_by(games.c.status)
            ).all()
        return {status: count for status, count in rows}

    # -- runners and claims (tournament/claims.py) --------------------------------------
    def register_runner(self) -> str:
        from botarena.tournament import claims

        return claims.register(self.engine)

    def running(self, tournament: Tournament) -> bool:
        """Whether a live runner is playing a game of `tournament` now: unfinished games
        alone say nothing (their runner may have been stopped or killed)."""
        from botarena.tournament import claims

        with self.engine.connect() as conn:
            holders = conn.execute(
                sa.select(games.c.claimed_by)
                .where(games.c.tournament_id == tournament.id, games.c.status == "claimed")
                .distinct()
            ).scalars()
            ids = [holder for holder in holders if holder is not None]
        return claims.live(self.engine, ids)

    def release_stale(self) -> int:
        """Hand back the claims of runners that are gone (tournament/claims.py); how many."""
        from botarena.tournament import claims

        with self.transaction() as conn:
            return claims.release_gone(conn)

    def retire_runner(self, runner: str) -> None:
        """A runner stopping cleanly: its unfinished claims go back."""
        from botarena.tournament import claims

        with self.transaction() as conn:
            claims.retire(conn, runner)

    def claim(self, tournament: Tournament, runner: str) -> GameRow | None:
        """Claim the first pending game; None when there is none left to claim. One
        conditional UPDATE: of two runners racing for a game, the second updates nothing
        (the row is no longer pending) and tries the next."""
        first = (
            sa.select(games.c.id)
            .where(games.c.tournament_id == tournament.id, games.c.status == "pending")
            .order_by(games.c.id)
            .limit(1)
            .scalar_subquery()
        )
        while True:
            with self.transaction() as conn:
                row = conn.execute(
                    games.update()
                    .where(games.c.id == first, games.c.status == "pending")
                    .values(status="claimed", claimed_by=runner, claimed_at=time.time())
                    .returning(*games.c)
                ).first()
                if row is not None:
                    return _game(row)
                if (
                    conn.execute(
                        sa.select(games.c.id)
                        .where(games.c.tournament_id == tournament.id, games.c.status == "pending")
                        .limit(1)
                    ).first()
                    is None
                ):
                    return None

    def finish(self, game_id: int, runner: str, result: dict[str, Any]) -> bool:
        """Commit a played game's result and replay path in one transaction, if this runner
        still holds its claim; False when it does not (the result is dropped)."""
        values = finished_values(result)
        with self.transaction() as conn:
            return (
                conn.execute(
                    games.update()
                    .where(
                        games.c.id == game_id,
                        games.c.status == "claimed",
                        games.c.claimed_by == runner,
                    )
                    .values(**values)
                ).rowcount
                == 1
            )

    def retry_errors(self, tournament: Tournament) -> int:
        with self.transaction() as conn:
            return conn.execute(
                games.update()
                .where(games.c.tournament_id == tournament.id, games.c.status == "error")
                .values(status="pending", error=None)
            ).rowcount

    # -- what standings read -------------------------------------------------------------
    def records(self, tournament: Tournament) -> tuple[list[GameRecord], list[Bot]]:
        """The finished games that count (all their bots current), as GameRecords under the
        bots' names, in schedule order; and the current bots."""
        current = self.bots(tournament)
        names = {bot.label: bot.name for bot in current}
        role_names = tournament.plan.get("role_names") or None
        records = []
        for game in self.games(tournament):
            if game.status != "done" or not all(seat in names for seat in game.seats):
                continue
            records.append(
                GameRecord(
                    game.key,
                    tuple(names[s] for s in game.seats),
                    *game.result(),
                    roles=tuple(role_names) if role_names else None,
                    order=game.id,
                )
            )
        return records, current


def _tournament(row: Any) -> Tournament:
    return Tournament(
        row.id, row.name, row.game, row.schedule, dict(row.plan), dict(row.options), row.replay_dir
    )


def _bot(row: Any) -> Bot:
    return Bot(
        row.name,
        row.label,
        row.version,
        row.spec,
        row.role,
        row.workdir,
        row.source,
        bool(row.active),
    )


def _tuple(value: Any) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


def _game(row: Any) -> GameRow:
    return GameRow(
        row.id,
        row.key,
        row.round,
        row.idx,
        row.seed,
        row.map,
        tuple(row.seats),
        row.status,
        _tuple(row.scores),
        _tuple(row.ranks),
        _tuple(row.statuses),
        _tuple(row.faults),
        row.replay,
        row.error,
        row.end_reason,
    )
