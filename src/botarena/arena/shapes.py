"""The contest site's JSON shapes, as typed structures: what each route takes and answers.

Written once here, they give the OpenAPI document (arena/openapi.py) that contestants'
scripts read and the API fuzzer checks every answer against. A field that only the bot's
owner or the organiser sees is optional (`UNSET`): absent for everyone else.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from botarena.arena.auth import MAX_PASSWORD, MIN_PASSWORD
from botarena.cliparts import MAX_PER_PAIR

NAME_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$"
"""A user's or a bot's name (arena/auth.py's `valid_user`): 1 to 32 ASCII letters, digits
and `_ . -`, not starting with `.` or `-`."""
Name = Annotated[str, msgspec.Meta(pattern=NAME_PATTERN)]
Password = Annotated[str, msgspec.Meta(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]

UploadStatus = Literal["building", "build-failed", "testing", "test-failed", "active", "retired"]


class Shape(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A JSON object of the API (unknown fields in a request are refused)."""


class Error(Shape):
    """Every answer other than 2xx: one reason; a 500 also names its log entry."""

    error: str
    id: str | UnsetType = UNSET


class Credentials(Shape):
    """A user name and password to log in with."""

    user: str
    password: str


class NewAccount(Shape):
    """A user name and password to sign up with (names are unique whatever their case)."""

    user: Name
    password: Password


class Registered(Shape):
    user: str
    token: str
    """The API token: send it as `Authorization: Bearer TOKEN`."""


class Token(Shape):
    token: str


class Revoked(Shape):
    user: str
    revoked: bool


class Session(Shape):
    """A browser session (the cookie is set too); send `csrf` as `X-CSRF-Token` on changes."""

    user: str
    organiser: bool
    csrf: str


class LoggedOut(Shape):
    logged_out: bool


class Contest(Shape):
    name: str
    game: str
    languages: list[str]
    """Every language an upload may be written in (`/api/rules` says how each is built)."""
    starters: list[str]
    """The languages the game ships a starter in (`/api/starters/LANGUAGE`)."""
    insecure: bool
    deadline: str | None
    max_source_bytes: int
    uploads_per_hour: int
    organiser: bool
    session: Session | None
    """The browser session's user and CSRF token (none with a Bearer token or logged out)."""
    min_seats: int
    """The fewest bots a game of the contest takes: the ladder waits for that many."""
    roles: list[str]
    """A role game's roles in seat order (an upload names one); empty in other games."""


class Accepted(Shape):
    """An upload taken: it waits for a worker to build and test it."""

    bot: str
    version: int
    status: UploadStatus


class TestGame(Shape):
    id: int
    result: str
    stderr: str


class Version(Shape):
    version: int
    status: UploadStatus
    file: str
    language: str | None
    uploaded: str | None
    reason: str | None
    test_game: int | None


class Bot(Shape):
    bot: str
    owner: str | None
    version: int
    status: UploadStatus
    rating: float | None
    rank: int | None
    games: int
    active_version: int | None
    disabled: bool
    role: str | None
    """The role it plays in a role game (None in other games)."""
    build_log: str | UnsetType = UNSET
    reason: str | UnsetType | None = UNSET
    test_game: TestGame | UnsetType | None = UNSET
    versions: list[Version] | UnsetType = UNSET


class GameSummary(Shape):
    id: int
    bots: list[str]
    scores: list[float] | None
    status: str


class MyGame(GameSummary):
    result: Literal["won", "drew", "lost", "void"] | None
    """From the side of the caller's bot in it."""


class Me(Shape):
    user: str
    organiser: bool
    bots: list[Bot]
    games: list[MyGame]


class Seat(Shape):
    seat: int
    bot: str
    version: str
    owner: str | None
    score: float | None
    rank: int | None
    status: str | None
    stderr: str | UnsetType = UNSET


class Game(Shape):
    id: int
    bots: list[str]
    scores: list[float] | None
    status: str
    kind: str
    seats: list[Seat]
    statuses: list[str] | None
    ranks: list[int] | None
    turns: int | None
    reason: str | None
    reason_text: str | None
    """`reason` in the game's words."""
    voided: bool
    finished: str | None


class Standing(Shape):
    rank: int
    bot: str
    owner: str | None
    language: str | None
    label: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    last_hour: int
    role: str | UnsetType = UNSET
    """In a role game (only): each role is ranked apart, `rank` counting within it."""
    mean_score: float | UnsetType | None = UNSET
    """In a role game (only): the mean of its games' shared score (null before a game)."""


class StageStanding(Shape):
    """A bot's line in a test competition's or the finals' standings (docs/standings.md)."""

    bot: str
    rank: int
    rating: float
    games: int
    mean_score: float
    wins: int
    draws: int
    losses: int
    faults: int
    points: float
    irregular: int
    timeouts: int
    disqualified: bool
    role: str | UnsetType = UNSET


class StageSummary(Shape):
    tournament: str
    stage: Literal["test", "finals"]
    games: int
    played: int
    made: str | None


class Stage(StageSummary):
    standings: list[StageStanding]


class BotGame(Shape):
    """A game from one bot's side."""

    id: int
    kind: str
    version: str
    seat: int
    place: int | None
    score: float | None
    result: Literal["won", "drew", "lost", "void"] | None
    opponents: list[str]
    finished: str | None


class BotGames(Shape):
    bot: str
    games: list[BotGame]
    next: int | None
    """The `before` of the next page, null on the last."""


class RatingPoint(Shape):
    game: int
    mu: float
    sigma: float
    ordinal: float
    finished: str | None


class VersionRatings(Shape):
    version: str
    ratings: list[RatingPoint]


class BotRatings(Shape):
    bot: str
    versions: list[VersionRatings]


class CompareGame(Shape):
    id: int
    seed: int
    result: Literal["won", "drew", "lost"] | None
    """From the new version's side; null while it is not played."""


class Comparison(Shape):
    """A version's compare games against the version it replaced, and their SPRT."""

    version: int
    against: int | None
    """The version it replaced (null: none, `state` none)."""
    state: Literal["running", "accepted", "rejected", "stopped", "none"]
    """accepted: better (H1: Elo >= elo1); rejected: not better (H0: Elo <= elo0); stopped:
    no verdict and no more games (the bound `max_games`, or the version was replaced)."""
    wins: int
    draws: int
    losses: int
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    """The Elo difference's 95 % interval (fixed-sample; null before two blocks)."""
    llr: float
    lower: float
    upper: float
    """The LLR's bounds: below `lower` rejected, above `upper` accepted."""
    elo0: float
    elo1: float
    max_games: int
    line: list[float]
    """The LLR after each block counted, in order."""
    games: list[CompareGame]
    """Its games, newest first (the latest 50)."""


class ChallengeAsked(Shape):
    """One of the two: `opponent`, or `opponents` in a game of more seats."""

    opponent: str | UnsetType = UNSET
    opponents: list[str] | UnsetType = UNSET


class Challenged(Shape):
    game: int
    status: Literal["pending"]


class AdminBot(Shape):
    bot: str
    owner: str
    versions: int
    status: UploadStatus | None
    playing: int | None
    rank: int | None
    rating: float | None
    games: int
    disabled: bool


class AdminUser(Shape):
    user: str
    organiser: bool
    bots: int
    joined: str | None


class AdminGame(GameSummary):
    finished: str | None
    worker: str | None


class AdminGames(Shape):
    games: list[AdminGame]
    next: int | None


class QueuedUpload(Shape):
    bot: str
    version: int
    status: UploadStatus
    language: str | None
    worker: str | None
    waiting_s: float


class Worker(Shape):
    worker: str
    host: str
    pid: int
    heartbeat_s: float
    live: bool


class RuleText(Shape):
    title: str
    format: Literal["text", "markdown"]
    text: str


class RuleOption(Shape):
    name: str
    value: Any
    default: Any
    description: str


class TimeRule(Shape):
    """How these seats are timed, in seconds: `first` is the first exchange (a game's
    handshake), `turn` every later one; `cpu_*` in the bot's CPU time, `wall_*` in wall time
    (with the CPU clock, the wall caps against a bot that sleeps or never flushes)."""

    seats: list[int]
    first: dict[str, float]
    turn: dict[str, float]


class Limits(Shape):
    max_source_bytes: int | None
    uploads_per_hour: int | None
    max_bots_per_user: int | None
    challenges_per_hour: int | None
    compare_games: int | None
    """A new version's compare games against the one it replaced, at most."""


class BuildLanguage(Shape):
    language: str
    endings: list[str]
    build: str
    run: str
    toolchain: str | None


class Rules(Shape):
    """The contest's statement: what a contestant reads before writing a line."""

    game: str
    title: str
    seats: list[int]
    rules: list[RuleText]
    options: list[RuleOption]
    time: list[TimeRule]
    limits: Limits
    languages: list[BuildLanguage]
    archives: list[str]
    starters: list[str]
    deadline: str | None


class Disabled(Shape):
    bot: str
    disabled: bool


class Voided(Shape):
    game: int
    status: Literal["void"]


class DeadlineChange(Shape):
    """An ISO time (UTC unless it says), or null for no deadline."""

    at: str | float | None


class Deadline(Shape):
    deadline: str | None


class FinalsChange(Shape):
    top: Annotated[int, msgspec.Meta(ge=2)] | UnsetType | None = UNSET
    schedule: Literal["round-robin", "adaptive"] | UnsetType = UNSET
    games_per_pair: Annotated[int, msgspec.Meta(ge=1, le=MAX_PER_PAIR)] | UnsetType = UNSET
    sample: bool | UnsetType = UNSET
    """Whether the contest's sample bot plays the finals (default: it does not)."""


class Finals(Shape):
    tournament: str
    bots: list[str]
    games: int


Replay: Any = dict[str, Any]
"""A game's replay document (docs/viewer.md); other owners' stderr emptied."""
