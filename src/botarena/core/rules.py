"""The pure rules interface every game implements: facts, options, clocks, state, outcome.

A game is reproduced from (seed, options, map, the players' answers and faults): a `State`
owns its one seeded random generator and never reads clocks, files or processes.
"""

from __future__ import annotations

import copy
import enum
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class Status(enum.StrEnum):
    """What happened to a seat, as the result and `--json` report it.

    The match sets the transport faults (`crashed`, `timeout`, `invalid`); games add their
    own words through `Outcome.statuses` and declare them in `GameInfo.statuses`.
    """

    OK = "ok"
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    INVALID = "invalid"


def seat_seed(seed: int | str, seat: int) -> str:
    """The seed a seat's bot is started with: the game's seed, a colon and the seat (so the
    seats of one game draw different numbers, and a game is reproduced from its seed)."""
    return f"{seed}:{seat}"


class GameError(ValueError):
    """A user-level problem with a game's inputs (option, map, seat count)."""


class ReplayError(ValueError):
    """The file is not a readable botarena replay; the message names the file (core/replay.py
    raises it; here so that the replay's shape checker, core/replaydoc.py, need not import
    the replay module that imports it)."""


class ProtocolError(ValueError):
    """A reply that is not well formed; the message quotes it with !r."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow here."""


@dataclass(frozen=True)
class Option:
    """One `-o KEY=VALUE` game option: its type, default, bounds and meaning."""

    name: str
    default: Any
    description: str
    parse: Callable[[str], Any] = int
    minimum: float | None = None
    maximum: float | None = None

    def read(self, text: str) -> Any:
        """Parse and bound-check `text` (each end of a LOW,HIGH range too); NaN and infinity
        are refused whatever the bounds. Raises GameError with a one-line reason."""
        try:
            value = self.parse(text)
        except (ValueError, TypeError, ArithmeticError) as exc:
            raise GameError(
                f"option {self.name}: {text!r} is not valid ({_plain_reason(exc)})"
            ) from None
        for number in value if isinstance(value, tuple) else (value,):
            if isinstance(number, float) and not math.isfinite(number):
                raise GameError(f"option {self.name}: {text!r} is not a finite number")
            if isinstance(number, str):
                continue
            if self.minimum is not None and number < self.minimum:
                raise GameError(
                    f"option {self.name}: {number} is below the minimum {self.minimum:g}"
                )
            if self.maximum is not None and number > self.maximum:
                raise GameError(
                    f"option {self.name}: {number} is above the maximum {self.maximum:g}"
                )
        return value

    def text_of(self, value: Any) -> str:
        """`value` (as a replay's JSON holds it) written as the user would type it after -o:
        a LOW,HIGH range from a list or a tuple; booleans are not numbers and stay
        unparseable."""
        if isinstance(value, list | tuple):
            return ",".join(repr(part) if isinstance(part, bool) else str(part) for part in value)
        if isinstance(value, bool | dict | None):
            return repr(value)
        return str(value)


@dataclass(frozen=True)
class Clock:
    """The time rules for one exchange with one seat; None means no limit.

    `reply_s` bounds one reply in wall time, `budget_s` bounds the sum of a seat's waits over
    the whole game (e.g. 5 s), `cpu_s` bounds the CPU time the bot spends on one reply and
    `cpu_budget_s` the CPU time of all its replies.
    """

    reply_s: float | None = None
    budget_s: float | None = None
    cpu_s: float | None = None
    cpu_budget_s: float | None = None

    def in_cpu_time(self) -> Clock:
        """The same limits charged in CPU time (`-o clock=cpu`); the wall limits stay as a
        cap against a bot that sleeps, blocks or never flushes: `wall_cap` of each."""

        def longer(limit: float | None) -> float | None:
            return None if limit is None else wall_cap(limit)

        return Clock(
            reply_s=longer(self.reply_s),
            budget_s=longer(self.budget_s),
            cpu_s=self.reply_s if self.cpu_s is None else self.cpu_s,
            cpu_budget_s=self.budget_s,
        )


DEFAULT_REPLY_S = 2.0
"""The platform's per-reply limit (wall time) for a game whose `State` declares no clock:
long enough for a cold Java or Python bot's first reply on a loaded machine, short enough
that a bot that never answers costs a game (and a ladder worker) seconds, not forever."""

DEFAULT_CLOCK = Clock(reply_s=DEFAULT_REPLY_S)
"""`State.clock` and `State.handshake_clock` unless a game overrides them (docs/clocks.md)."""

CPU_CLOCK_WALL_FACTOR = 2
"""With `-o clock=cpu`, how many times its CPU limit a bot may take in wall time: a machine
where every core is shared by two busy processes still lets a bot that thinks within its CPU
limit answer within the cap."""

CPU_CLOCK_WALL_MARGIN_S = 1.0
"""Added to that cap: an interpreter's start-up and the scheduler's delays, which a short
limit (100 ms a reply) could not absorb."""


def wall_cap(cpu_limit_s: float) -> float:
    """The wall-time cap of a CPU-time limit: twice the limit plus a second (a 5 s budget:
    11 s; 100 ms a reply: 1.2 s), so a bot that sleeps or never flushes
    its output costs a game seconds, not the 50 s a factor of ten gave (docs/clocks.md)."""
    return cpu_limit_s * CPU_CLOCK_WALL_FACTOR + CPU_CLOCK_WALL_MARGIN_S


def clock_kind(text: str) -> str:
    """`wall` or `cpu`: what a bot's time limits are charged in."""
    kind = text.strip().lower()
    if kind not in ("wall", "cpu"):
        raise ValueError("expected wall or cpu")
    return kind


CLOCK_OPTION = Option(
    "clock",
    "wall",
    "wall (the rules') or cpu: limits charged in the bot's CPU time, wall"
    f" time capped at {CPU_CLOCK_WALL_FACTOR}x + {CPU_CLOCK_WALL_MARGIN_S:g} s (docs/clocks.md)",
    clock_kind,
)
"""Offered by the games whose rules time bots by the wall clock (most do)."""

MEMORY_OPTION = Option(
    "memory",
    1024,
    "MiB a process bot may use, all its processes together (the sandbox's"
    " limit, in every game; docs/sandbox.md)",
    int,
    minimum=16,
)
"""The jury's own option, taken by every game: `botarena games GAME` lists it after the
game's options; `core.sandbox` applies it (it is not a rule, so not in the replay's)."""


class TurnModel(enum.StrEnum):
    """Who acts when: one seat after another, every seat at once, or seats playing roles
    (each seat its own part: tournaments pair bots by role)."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"
    ROLES = "roles"


class RankBy(enum.StrEnum):
    """How the contest ranked a tournament (tournament/ranking.py): total score, a rating
    from each game's places, or the mean score per role."""

    POINTS = "points"
    PLACES = "places"
    MEAN_SCORE = "mean-score"


class Better(enum.IntEnum):
    """Which way a seat's score is better for it (the sign rewards and rankings use)."""

    HIGHER = 1
    LOWER = -1


class StatusKind(enum.StrEnum):
    """What a seat's status means to the standings: a regular result, an irregular one (a
    fault: counted and shown), or a strike (the game is an outlier and thrown out; three
    strikes disqualify the bot)."""

    REGULAR = "regular"
    IRREGULAR = "irregular"
    STRIKE = "strike"


TRANSPORT_STATUSES: Mapping[str, StatusKind] = {
    Status.OK: StatusKind.REGULAR,
    Status.CRASHED: StatusKind.IRREGULAR,
    Status.TIMEOUT: StatusKind.IRREGULAR,
    Status.INVALID: StatusKind.IRREGULAR,
}
"""The statuses the match itself gives, in every game."""


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game, stated before any code runs: all a layer above `core` may know
    of it (no layer names a game or a game's own word)."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    seat_names: tuple[str, ...]
    turn_model: TurnModel
    rules_version: str
    options: tuple[Option, ...] = ()
    map_kind: str | None = None  # what --map reads, e.g. "map file"
    string_seeds: bool = False  # whether --seed may be a string as well as a number
    rank_by: RankBy = RankBy.POINTS
    better: tuple[Better, ...] = ()
    """Per seat, which way its score is better; () or a missing seat: higher."""
    statuses: tuple[tuple[str, StatusKind], ...] = ()
    """The game's own status words (`Outcome.statuses`), each with what it means to the
    standings; the match's own (`TRANSPORT_STATUSES`) need not be listed."""
    end_reasons: tuple[tuple[str, str], ...] = ()
    """Each end reason of `Outcome.end_reason` in words (`end_text`): the one place the
    viewer's banner, the contest site's game page and its API read them from."""

    def __post_init__(self) -> None:
        """Plain strings (a plug-in written before the enums) become the enums, so a wrong
        word fails when the game is registered, not in a tournament."""
        object.__setattr__(self, "turn_model", TurnModel(self.turn_model))
        object.__setattr__(self, "rank_by", RankBy(self.rank_by))
        object.__setattr__(self, "better", tuple(Better(sign) for sign in self.better))
        statuses = tuple((word, StatusKind(kind)) for word, kind in self.statuses)
        object.__setattr__(self, "statuses", statuses)

    @property
    def roles(self) -> tuple[str, ...]:
        """A role game's roles, as records and `--bot ROLE:` name them (its seat names in
        lower case); () in other games."""
        if self.turn_model != TurnModel.ROLES:
            return ()
        return tuple(name.lower() for name in self.seat_names)

    def score_sign(self, seat: int) -> int:
        """+1 when a higher score is better for `seat`, -1 when a lower one is."""
        return int(self.better[seat]) if seat < len(self.better) else 1

    def end_text(self, reason: str) -> str:
        """`reason` in the game's words; a reason the game does not word, as it is."""
        return dict(self.end_reasons).get(reason, reason)

    def status_kind(self, status: str) -> StatusKind:
        """What `status` means to the standings (an unknown word: regular)."""
        own = dict(self.statuses)
        return own.get(status, TRANSPORT_STATUSES.get(status, StatusKind.REGULAR))

    def status_words(self, kind: StatusKind) -> frozenset[str]:
        """Every status of this game, the match's included, that means `kind`."""
        every = {**TRANSPORT_STATUSES, **dict(self.statuses)}
        return frozenset(word for word, of in every.items() if of == kind)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise GameError(f"unknown option {name!r} for {self.name} (known: {known})")

    def contest_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """The options of a contest's games (tournaments, ladders, compare): the CPU clock
        unless `clock` is given, where the game offers one, so a loaded jury machine decides
        no game (`-o clock=wall` keeps the original engines' wall clock)."""
        offered = any(opt.name == CLOCK_OPTION.name for opt in self.options)
        return {"clock": "cpu", **given} if offered and "clock" not in given else dict(given)

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with `given`; every value, a default too, goes through its
        option's parser and bounds as its typed text, so `play`, `verify` and imported
        replays check alike and a default reaches the rules as a given value would."""
        values = {opt.name: opt.default for opt in self.options}
        values.update({self.option(str(name)).name: value for name, value in given.items()})
        resolved = {}
        for name, value in values.items():
            opt = self.option(name)
            resolved[name] = opt.read(value if isinstance(value, str) else opt.text_of(value))
        return resolved

    def check_seed(self, seed: Any) -> int | str:
        """`seed` if the game accepts it: a whole number 0 <= seed < 2**63, or for games with
        seed strings a string of at most MAX_SEED_TEXT characters. Raises GameError."""
        if isinstance(seed, int) and not isinstance(seed, bool):
            if 0 <= seed < 2**63:
                return seed
            raise GameError(f"seed {_short(seed)} is outside 0 to 2**63-1")
        if isinstance(seed, str) and self.string_seeds:
            if len(seed) <= MAX_SEED_TEXT:
                return seed
            raise GameError(f"seed string has {len(seed)} characters, more than {MAX_SEED_TEXT}")
        kind = "a whole number or a string" if self.string_seeds else "a whole number"
        raise GameError(f"seed {_short(seed)} is not {kind}")

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"P{seat}"


MAX_SEED_TEXT = 1000


def _plain_reason(exc: Exception) -> str:
    """A parser's complaint in the user's words, not Python's (`invalid literal for int()`)."""
    text = str(exc)
    if "invalid literal for int()" in text:
        return "expected a whole number"
    if "could not convert string to float" in text:
        return "expected a number"
    return text


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Outcome:
    """How a finished game ended: points per seat, ranks (1 = best), and why it ended."""

    scores: list[float]
    end_reason: str
    ranks: list[int] = field(default_factory=list)
    statuses: list[str | None] = field(default_factory=list)
    faults: list[int] = field(default_factory=list)
    """Faults the rules found themselves (e.g. a strict kill rule), added to the referee's count of
    transport faults in the result's `faults`."""

    def __post_init__(self) -> None:
        if not self.ranks:
            self.ranks = ranks_from_scores(self.scores)
        if not self.statuses:
            self.statuses = [None] * len(self.scores)
        if not self.faults:
            self.faults = [0] * len(self.scores)


def ranks_from_scores(scores: list[float]) -> list[int]:
    """Competition ranking: equal scores share the better rank (1, 1, 3)."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


class State(ABC):
    """A game in progress. Games fill in the hooks; the match and replay drive them.

    `to_act()` names the seats whose bots must answer now (one seat in sequential games,
    several in simultaneous ones, none when the rules play for every seat this step).
    `apply(actions)` advances one step; seats missing from `actions` get the game's default
    (the fault policy decides what that is). `fault()` records a transport fault as the
    game's rules say.
    """

    @abstractmethod
    def to_act(self) -> list[int]: ...

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What `seat` is shown now, as the object a protocol encodes."""

    @abstractmethod
    def apply(self, actions: Mapping[int, Any]) -> None: ...

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome: ...

    @abstractmethod
    def fault(self, seat: int, status: Status, detail: str) -> None:
        """Apply the game's fault rule to `seat` (it crashed, timed out or answered badly)."""

    def frame(self) -> dict[str, Any]:
        """A JSON-able picture of the state after the last step, for viewers and `verify`."""
        return {}

    def clock(self, seat: int) -> Clock:
        """The time rules for the next exchange with `seat`: by default the platform's
        `DEFAULT_CLOCK`, so no game waits forever on a bot that never answers."""
        return DEFAULT_CLOCK

    def charge(self, seat: int, cpu_s: float) -> None:
        """Told the CPU time `seat` used for its last reply, when its clock has a CPU limit
        (e.g. a per-round CPU bank). Replays re-feed the recorded figures."""

    def handshake_clock(self, seat: int) -> Clock:
        """The time rules for the handshake, when the protocol has one (`DEFAULT_CLOCK`)."""
        return DEFAULT_CLOCK

    def header(self) -> dict[str, Any]:
        """Extra JSON for the replay header (the map, start squares), enough to redraw it."""
        return {}

    @property
    def step_count(self) -> int:
        """Steps played so far (the `turns` figure of the result)."""
        return 0

    def clone(self) -> State:
        return copy.deepcopy(self)
