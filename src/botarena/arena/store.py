"""The contest site's tables (users, credentials, bots, upload versions) beside the ladder's.

They live in the tournament store's SQLAlchemy metadata, so one database (SQLite or
PostgreSQL) holds a contest and its ladder; the store's migrations make them (a change to
them is a new revision in tournament/migrations). A contest is a
ladder tournament plus its site settings (sample bot, source limit, uploads per hour); its
deadline is the ladder's own (`plan.deadline`). An upload is a new version of a bot, kept
with its source; it moves building -> testing -> active (or build-failed, test-failed), and
an active version becomes `retired` when a later one passes. Tokens and session cookies are
stored as their SHA-256 digests only, each revocable. User and bot names are unique per
contest once folded (`fold`: NFKC and case folding), held by the key of `arena_names`.
"""

from __future__ import annotations

import math
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.core.roles import role_named
from botarena.tournament import filling
from botarena.tournament.store import Store, Tournament, bots, games, metadata, tournaments

SAMPLE = "sample"
"""The contest's sample bot on its ladder (`arena new`): every upload's test game is played
against it, and copies fill a challenge's free seats. A role game has one for each role."""


def sample_name(role: str | None) -> str:
    """The ladder name of the sample bot of `role` (`sample-maze-master`), or of a game
    without roles (`sample`)."""
    return SAMPLE if role is None else f"{SAMPLE}-{role.replace(' ', '-')}"


STATUSES = ("building", "testing", "build-failed", "test-failed", "active", "retired")
"""An upload version's states, in the order a good one passes through the first two."""

contests = sa.Table(
    "arena_contests",
    metadata,
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
    metadata,
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
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("arena_users.id"), nullable=False, index=True),
    sa.Column("kind", sa.String(10), nullable=False),  # token (API) or session (cookie)
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("revoked_at", sa.Float),
)

arena_bots = sa.Table(
    "arena_bots",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("contest_id", sa.ForeignKey("arena_contests.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("owner_id", sa.ForeignKey("arena_users.id"), nullable=False, index=True),
    sa.Column("disabled", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("role", sa.String(50)),  # the role it plays in a role game (every version)
    sa.UniqueConstraint("contest_id", "name"),
)

uploads = sa.Table(
    "arena_uploads",
    metadata,
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
    metadata,
    sa.Column("contest_id", sa.ForeignKey("arena_contests.id"), nullable=False),
    sa.Column("kind", sa.String(4), nullable=False),  # user or bot
    sa.Column("folded", sa.String(200), nullable=False),  # fold(name): the unique key
    sa.Column("name", sa.String(64), nullable=False),  # as written: the user or bot it keeps
    sa.PrimaryKeyConstraint("contest_id", "kind", "folded"),
)
"""Every user and bot name of a contest, folded: its key makes names that differ only in
case or width one name, even when two sign-ups race (an additive table; `fill_names` adds
the names of a store made before it)."""

limit_events = sa.Table(
    "arena_limit_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(250), nullable=False),  # the limit: contest/logins...
    sa.Column("key", sa.String(64), nullable=False),  # SHA-256 of who is limited
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("arena_limit_events_of", "name", "key", "at"),
    sa.Index("arena_limit_events_at", "name", "at"),
)
"""The events every rate limit counts (arena/limits.py), so a limit holds across the web
processes of one store; an event leaves once older than its limit's window."""


class ArenaError(ValueError):
    """A user's mistake with a contest; the message is one line."""


class NameTaken(ArenaError):
    """A name that folds like one already taken."""


class BadRole(ArenaError):
    """An upload's role that the contest's game does not have, or not its bot's."""


class SameSource(ArenaError):
    """An upload whose bytes are those of a version the bot already has: a new version of
    the same code would start its rating over and play nothing new."""


def fold(name: str) -> str:
    """The key two names share when they are one: Unicode NFKC and case folding, so `Admin`,
    `ADMIN` and the fullwidth `ＡＤＭＩＮ` are `admin`. Names are shown as written."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _claim(conn: Connection, contest: Contest, kind: str, name: str) -> None:
    """Take `name` for a new user or bot, in the transaction that makes it: NameTaken when a
    name folding the same is taken (the table's key refuses a racing second one)."""
    taken = conn.execute(
        sa.select(names.c.name).where(
            names.c.contest_id == contest.id, names.c.kind == kind, names.c.folded == fold(name)
        )
    ).scalar()
    if taken is not None:
        like = "" if taken == name else f" as {taken!r} (names differing in case or width are one)"
        raise NameTaken(f"the {kind} name {name!r} is taken{like}")
    conn.execute(
        names.insert().values(contest_id=contest.id, kind=kind, folded=fold(name), name=name)
    )


def fill_names(store: Store, contest: Contest) -> None:
    """Add the folded names of users and bots made before `arena_names` existed. When two of
    them already fold alike, the older keeps the name (the other still logs in as written)."""
    with store.transaction() as conn:
        known = {
            (row.kind, row.folded)
            for row in conn.execute(
                sa.select(names.c.kind, names.c.folded).where(names.c.contest_id == contest.id)
            )
        }
        for kind, table in (("user", users), ("bot", arena_bots)):
            rows = conn.execute(
                sa.select(table.c.name).where(table.c.contest_id == contest.id).order_by(table.c.id)
            ).scalars()
            for name in rows:
                if (kind, fold(name)) not in known:
                    known.add((kind, fold(name)))
                    conn.execute(
                        names.insert().values(
                            contest_id=contest.id, kind=kind, folded=fold(name), name=name
                        )
                    )


@dataclass(frozen=True)
class User:
    id: int
    name: str
    organiser: bool


@dataclass(frozen=True)
class Contest:
    """A contest as the site and its workers see it."""

    id: int
    name: str
    ladder: Tournament
    tests: Tournament
    """The tournament that holds the uploads' test games (never scheduled)."""
    settings: dict[str, Any]
    secret: bytes

    @property
    def sample_bot(self) -> str:
        return str(self.settings["sample_bot"])

    @property
    def roles(self) -> tuple[str, ...]:
        """The game's roles in seat order (its seat names in lower case), set by `arena
        new`; empty unless the game is a role game."""
        return tuple(self.settings.get("roles") or ())

    def sample(self, role: str | None = None) -> tuple[str, str]:
        """The sample bot's name on the ladder (`sample_name`) and its spec: one for each
        role of a role game, else the one."""
        if role is None:
            return SAMPLE, self.sample_bot
        return sample_name(role), str(self.settings["sample_bots"][role])

    def role_named(self, word: str | None) -> str | None:
        """The role a contestant's word names (core/roles.py), None for no word; BadRole
        for a word naming none, or any word in a game without roles."""
        if word is None or not word.strip():
            return None
        if not self.roles:
            raise BadRole(f"{self.ladder.game} has no roles: leave `role` out")
        role = role_named(word, self.roles)
        if role is None:
            raise BadRole(f"no role {word!r}: {self.role_choices()}")
        return role

    def role_choices(self) -> str:
        return "the roles are " + " and ".join(r.replace(" ", "-") for r in self.roles)


def contest(store: Store, name: str) -> Contest | None:
    """The contest `name` in `store`, None if there is none."""
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(contests).where(contests.c.name == name)).first()
    if row is None:
        return None
    ladder = next(t for t in store.tournaments() if t.id == row.tournament_id)
    tests = next(t for t in store.tournaments() if t.id == row.tests_id)
    return Contest(row.id, row.name, ladder, tests, dict(row.settings), bytes.fromhex(row.secret))


def contests_of(store: Store) -> list[Contest]:
    with store.engine.connect() as conn:
        names = conn.execute(sa.select(contests.c.name).order_by(contests.c.id)).scalars().all()
    return [c for c in (contest(store, n) for n in names) if c is not None]


class WorkedContests:
    """The contests a worker serves (`names`, None: every one), looked up again every
    LOOK_S so that a contest made while the worker runs is found."""

    LOOK_S = 5.0

    def __init__(self, store: Store, names: list[str] | None) -> None:
        self.store, self.names = store, names
        self._contests: list[Contest] = []
        self._looked = -math.inf

    def current(self) -> list[Contest]:
        if time.monotonic() - self._looked > self.LOOK_S:
            self._looked = time.monotonic()
            self._contests = [
                c for c in contests_of(self.store) if self.names is None or c.name in self.names
            ]
        return self._contests


def add_contest(
    conn: Connection, store: Store, ladder: Tournament, settings: dict[str, Any]
) -> None:
    """Register the site of `ladder` (made in the same transaction) with its test-game
    tournament `NAME-uploads`."""
    tests = filling.create(
        conn,
        f"{ladder.name}-uploads",
        ladder.game,
        "round-robin",
        {**ladder.plan, "parent": ladder.name, "stage": "uploads", "seats": 2},
        ladder.options,
        ladder.replay_dir,
    )
    conn.execute(
        contests.insert().values(
            name=ladder.name,
            tournament_id=ladder.id,
            tests_id=tests.id,
            settings=settings,
            secret=secrets.token_hex(32),
            created_at=time.time(),
        )
    )


# -- users and credentials -----------------------------------------------------------------
def add_user(
    conn: Connection, contest: Contest, name: str, password_hash: str, organiser: bool = False
) -> User:
    """A new user; NameTaken when a name folding the same is taken."""
    _claim(conn, contest, "user", name)
    uid = conn.execute(
        users.insert().values(
            contest_id=contest.id,
            name=name,
            password_hash=password_hash,
            organiser=organiser,
            created_at=time.time(),
        )
    ).inserted_primary_key
    assert uid is not None
    return User(uid[0], name, organiser)


def user_row(store: Store, contest: Contest, name: str) -> Any:
    """The user's row (with its password hash), None if unknown: the user named so, else
    the one whose name folds the same (a log-in as `ALICE` is alice's)."""
    with store.engine.connect() as conn:
        exact = conn.execute(
            sa.select(users).where(users.c.contest_id == contest.id, users.c.name == name)
        ).first()
        if exact is not None:
            return exact
        return conn.execute(
            sa.select(users)
            .join(
                names,
                sa.and_(names.c.contest_id == users.c.contest_id, names.c.name == users.c.name),
            )
            .where(
                users.c.contest_id == contest.id,
                names.c.kind == "user",
                names.c.folded == fold(name),
            )
        ).first()


def set_password_hash(store: Store, user_id: int, password_hash: str) -> None:
    """A rehash on log-in (argon2 parameters raised since the hash was made)."""
    with store.transaction() as conn:
        conn.execute(
            users.update().where(users.c.id == user_id).values(password_hash=password_hash)
        )


def remember(store: Store, user: User, digest: str, kind: str) -> None:
    """Store a new token's or session's digest (the token itself is shown once, never kept)."""
    with store.transaction() as conn:
        conn.execute(
            credentials.insert().values(
                digest=digest, user_id=user.id, kind=kind, created_at=time.time()
            )
        )


SESSION_DAYS = 14
"""A session cookie lasts this long (a log-in on a shared machine does not stay forever);
an API token lasts until revoked."""


def holder(store: Store, contest: Contest, digest: str, kind: str) -> User | None:
    """The user a live (not revoked, for a session not expired) token or session digest
    belongs to."""
    oldest = time.time() - SESSION_DAYS * 86400 if kind == "session" else 0.0
    with store.engine.connect() as conn:
        row = conn.execute(
            sa.select(users.c.id, users.c.name, users.c.organiser)
            .join(credentials, credentials.c.user_id == users.c.id)
            .where(
                credentials.c.digest == digest,
                credentials.c.kind == kind,
                credentials.c.revoked_at.is_(None),
                credentials.c.created_at >= oldest,
                users.c.contest_id == contest.id,
            )
        ).first()
    return None if row is None else User(row.id, row.name, bool(row.organiser))


def revoke(store: Store, digest: str) -> bool:
    with store.transaction() as conn:
        return (
            conn.execute(
                credentials.update()
                .where(credentials.c.digest == digest, credentials.c.revoked_at.is_(None))
                .values(revoked_at=time.time())
            ).rowcount
            == 1
        )


def revoke_all(store: Store, user: User) -> int:
    """Every token and session of `user` (a stolen password: log out everywhere)."""
    with store.transaction() as conn:
        return conn.execute(
            credentials.update()
            .where(credentials.c.user_id == user.id, credentials.c.revoked_at.is_(None))
            .values(revoked_at=time.time())
        ).rowcount


# -- bots and uploads ----------------------------------------------------------------------
def bot_row(conn: Connection, contest: Contest, name: str) -> Any:
    return conn.execute(
        sa.select(arena_bots, users.c.name.label("owner"))
        .join(users, users.c.id == arena_bots.c.owner_id)
        .where(arena_bots.c.contest_id == contest.id, arena_bots.c.name == name)
    ).first()


class TooManyUploads(ArenaError):
    """Past the contest's uploads per hour; `wait`: seconds until the next may come."""

    def __init__(self, message: str, wait: float) -> None:
        super().__init__(message)
        self.wait = wait


def within_uploads_per_hour(
    conn: Connection, contest: Contest, user: User, now: float | None = None
) -> None:
    """TooManyUploads when `user` made the contest's `uploads_per_hour` uploads in the last
    hour. `add_upload` asks again in its own transaction, the user's row locked, so
    uploads at once through several web processes cannot pass the bound together."""
    limit = int(contest.settings["uploads_per_hour"])
    now = time.time() if now is None else now
    count, oldest = conn.execute(
        sa.select(sa.func.count(), sa.func.min(uploads.c.created_at))
        .select_from(uploads.join(arena_bots, arena_bots.c.id == uploads.c.bot_id))
        .where(arena_bots.c.owner_id == user.id, uploads.c.created_at > now - 3600)
    ).one()
    if count < limit:
        return
    wait = 0.0 if oldest is None else max(0.0, oldest + 3600 - now)
    minutes = max(1, math.ceil(wait / 60))
    raise TooManyUploads(
        f"at most {limit} uploads per hour: try again in {minutes} minute"
        + ("s" if minutes > 1 else ""),
        wait,
    )


def add_upload(
    store: Store,
    contest: Contest,
    user: User,
    name: str,
    filename: str,
    data: bytes,
    language: str,
    role: str | None = None,
) -> tuple[str, int]:
    """A new version of the bot `name` (made for `user` if new), status `building`, for a
    worker to build; (bot, version). In a role game a new bot names its `role` (one of
    `contest.roles`) and later versions keep it. ArenaError when another user owns the name
    or the bot is disabled, NameTaken when a new name folds like another bot's, SameSource
    when the bot has a version of these very bytes, BadRole for a missing or changed role,
    TooManyUploads past the hour's uploads."""
    with store.transaction() as conn:
        if conn.dialect.name == "postgresql":  # one upload of a user at a time: the bounds
            conn.execute(sa.select(users.c.id).where(users.c.id == user.id).with_for_update())
        within_uploads_per_hour(conn, contest, user)
        row = bot_row(conn, contest, name)
        if row is None:
            if contest.roles and role is None:
                raise BadRole(
                    f"a new {contest.ladder.game} bot names the role it plays (`role`):"
                    f" {contest.role_choices()}"
                )
            _within_bots_per_user(conn, contest, user, role)
            _claim(conn, contest, "bot", name)
            bid = conn.execute(
                arena_bots.insert().values(
                    contest_id=contest.id,
                    name=name,
                    owner_id=user.id,
                    disabled=False,
                    created_at=time.time(),
                    role=role,
                )
            ).inserted_primary_key
            assert bid is not None
            bot_id = bid[0]
        elif row.owner_id != user.id:
            raise ArenaError(f"the bot name {name!r} belongs to another user")
        elif row.disabled:
            raise ArenaError(f"bot {name!r} is disabled by the organiser")
        elif role is not None and role != row.role:
            raise BadRole(
                f"bot {name!r} plays the {row.role}, and every version keeps its role:"
                f" upload the {role} as another bot (`name`)"
            )
        else:
            bot_id = row.id
            same = conn.execute(
                sa.select(uploads.c.version, uploads.c.status).where(
                    uploads.c.bot_id == bot_id, uploads.c.source == data
                )
            ).first()
            if same is not None:
                raise SameSource(
                    f"bot {name!r} already has this source as version {same.version}"
                    f" ({same.status}): upload changed code"
                )
        version = 1 + (
            conn.execute(
                sa.select(sa.func.max(uploads.c.version)).where(uploads.c.bot_id == bot_id)
            ).scalar()
            or 0
        )
        conn.execute(
            uploads.insert().values(
                bot_id=bot_id,
                version=version,
                status="building",
                filename=filename,
                source=data,
                language=language,
                created_at=time.time(),
            )
        )
    return name, version


def _within_bots_per_user(conn: Connection, contest: Contest, user: User, role: str | None) -> None:
    """ArenaError when `user` has as many bots as the contest allows (`max_bots_per_user`;
    a contest made before the setting existed has no bound); in a role game, as many of
    that role (each role is a contest of its own, as the game's tradition ranks them)."""
    most = contest.settings.get("max_bots_per_user")
    if most is None or user.organiser:
        return
    query = (
        sa.select(arena_bots.c.name)
        .where(arena_bots.c.contest_id == contest.id, arena_bots.c.owner_id == user.id)
        .order_by(arena_bots.c.id)
    )
    if role is not None:
        query = query.where(arena_bots.c.role == role)
    theirs = conn.execute(query).scalars().all()
    if len(theirs) >= int(most):
        playing = "" if role is None else f" playing the {role}"
        raise ArenaError(
            f"at most {most} bot(s){playing} per contestant: upload a new version of"
            f" {', '.join(repr(name) for name in theirs)} (--name) instead"
        )


def family(contest: Contest, store: Store) -> list[int]:
    """The tournaments whose games the site shows: the ladder, its upload tests, its test
    competitions and finals."""
    return [
        t.id
        for t in store.tournaments()
        if t.id in (contest.ladder.id, contest.tests.id) or t.plan.get("parent") == contest.name
    ]


def game_row(store: Store, contest: Contest, game_id: int) -> Any:
    """A game of the contest (any of its tournaments), None if not one of them."""
    with store.engine.connect() as conn:
        return conn.execute(
            sa.select(games).where(
                games.c.id == game_id, games.c.tournament_id.in_(family(contest, store))
            )
        ).first()


def child_tournament(
    conn: Connection, store: Store, ladder: Tournament, suffix: str, stage: str, seats: int
) -> Tournament:
    """The ladder's never-scheduled tournament `LADDER-SUFFIX` (stage `stage`, games of
    `seats` seats) for games the site asks for outside the ladder (challenges, compare
    games), made on first use."""
    name = f"{ladder.name}-{suffix}"
    row = conn.execute(sa.select(tournaments).where(tournaments.c.name == name)).first()
    if row is not None:
        return Tournament(
            row.id,
            row.name,
            row.game,
            row.schedule,
            dict(row.plan),
            dict(row.options),
            row.replay_dir,
        )
    plan = {**ladder.plan, "parent": ladder.name, "stage": stage, "seats": seats}
    plan.pop("finals", None)
    return filling.create(
        conn, name, ladder.game, "round-robin", plan, ladder.options, ladder.replay_dir
    )


def copy_bot(conn: Connection, child: Tournament, row: Any, label: str, now: float) -> None:
    """Seat the ladder's bot `row` in `child` as `label`, unless a bot has that label there."""
    known = conn.execute(
        sa.select(bots.c.id).where(bots.c.tournament_id == child.id, bots.c.label == label)
    ).first()
    if known is not None:
        return
    copied = ("name", "version", "spec", "role", "workdir", "source")
    conn.execute(
        bots.insert().values(
            **{column: getattr(row, column) for column in copied},
            label=label,
            tournament_id=child.id,
            active=True,
            created_at=now,
        )
    )
