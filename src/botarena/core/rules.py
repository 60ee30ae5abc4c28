"""The pure rules interface every game implements: facts, options, clocks, state, outcome.

A game is reproduced from (seed, options, map, the players' answers and faults): a `State`
owns its one seeded random generator and never reads clocks, files or processes.
"""

from __future__ import annotations

import copy
import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class Status(enum.StrEnum):
    """What happened to a seat, as the result and `--json` report it.

    The match sets the transport faults (`crashed`, `timeout`, `invalid`); games may add
    their own words through `Outcome.statuses` (Ants: `eliminated`).
    """

    OK = "ok"
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    INVALID = "invalid"
    ELIMINATED = "eliminated"


class GameError(ValueError):
    """A user-level problem with a game's inputs (option, map, seat count)."""


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
        """Parse and bound-check `text`; raises GameError with a one-line reason."""
        try:
            value = self.parse(text)
        except (ValueError, TypeError) as exc:
            raise GameError(f"option {self.name}: {text!r} is not valid ({exc})") from None
        if self.minimum is not None and value < self.minimum:
            raise GameError(f"option {self.name}: {value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise GameError(f"option {self.name}: {value} is above the maximum {self.maximum}")
        return value


@dataclass(frozen=True)
class Clock:
    """The time rules for one exchange with one seat; None means no limit.

    `reply_s` bounds one reply in wall time, `budget_s` bounds the sum of a seat's waits over
    the whole game (Amazes: 5 s), `cpu_s` bounds the CPU time the bot spends on one reply and
    `cpu_budget_s` the CPU time of all its replies.
    """

    reply_s: float | None = None
    budget_s: float | None = None
    cpu_s: float | None = None
    cpu_budget_s: float | None = None

    def in_cpu_time(self) -> Clock:
        """The same limits charged in CPU time (`-o clock=cpu`); the wall limits stay as a
        safety against a bot that sleeps or blocks, `CPU_CLOCK_WALL_FACTOR` times longer."""
        def longer(limit: float | None) -> float | None:
            return None if limit is None else limit * CPU_CLOCK_WALL_FACTOR

        return Clock(reply_s=longer(self.reply_s), budget_s=longer(self.budget_s),
                     cpu_s=self.reply_s if self.cpu_s is None else self.cpu_s,
                     cpu_budget_s=self.budget_s)


CPU_CLOCK_WALL_FACTOR = 10
"""With `-o clock=cpu`, how much longer than its CPU limit a bot may take in wall time."""


def clock_kind(text: str) -> str:
    """`wall` or `cpu`: what a bot's time limits are charged in."""
    kind = text.strip().lower()
    if kind not in ("wall", "cpu"):
        raise ValueError("expected wall or cpu")
    return kind


CLOCK_OPTION = Option(
    "clock", "wall", "what the time limits charge: wall (the rules' clock) or cpu (the bot's"
    f" CPU time, threads and children included; wall time {CPU_CLOCK_WALL_FACTOR}x the limit"
    " as a safety), against time-outs a loaded machine causes", clock_kind)
"""Offered by the games whose rules time bots by the wall clock (Amazes, Falldown, Ants)."""


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game, stated before any code runs."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    seat_names: tuple[str, ...]
    turn_model: str  # "sequential", "simultaneous" or "roles"
    rules_version: str
    options: tuple[Option, ...] = ()
    map_kind: str | None = None  # what --map reads, e.g. "maze file"
    string_seeds: bool = False  # whether --seed may be a string (Labyrinth's seed strings)
    rank_by: str = "points"
    """How the contest ranked a tournament (tournament/ranking.py): "points" (total score),
    "places" (a rating from each game's places) or "mean-score" (mean score per role)."""

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise GameError(f"unknown option {name!r} for {self.name} (known: {known})")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with `given`; string values are parsed, others bound-checked."""
        resolved = {opt.name: opt.default for opt in self.options}
        for name, value in given.items():
            opt = self.option(name)
            resolved[name] = opt.read(value if isinstance(value, str) else str(value))
        return resolved

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"P{seat}"


@dataclass
class Outcome:
    """How a finished game ended: points per seat, ranks (1 = best), and why it ended."""

    scores: list[float]
    end_reason: str
    ranks: list[int] = field(default_factory=list)
    statuses: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.ranks:
            self.ranks = ranks_from_scores(self.scores)
        if not self.statuses:
            self.statuses = [None] * len(self.scores)


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
        """The time rules for the next exchange with `seat`."""
        return Clock()

    def charge(self, seat: int, cpu_s: float) -> None:
        """Told the CPU time `seat` used for its last reply, when its clock has a CPU limit
        (Labyrinth keeps a per-round CPU bank). Replays re-feed the recorded figures."""

    def handshake_clock(self, seat: int) -> Clock:
        """The time rules for the handshake, when the protocol has one."""
        return Clock()

    def header(self) -> dict[str, Any]:
        """Extra JSON for the replay header (the map, start squares), enough to redraw it."""
        return {}

    @property
    def step_count(self) -> int:
        """Steps played so far (the `turns` figure of the result)."""
        return 0

    def clone(self) -> State:
        return copy.deepcopy(self)
