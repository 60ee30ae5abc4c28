"""A game whose rules are an external referee program, spoken to in a line protocol.

`external_game(INFO, argv)` is a `Game` like any other: the match, replays and `verify`,
the viewer, tournaments, ladders and the site drive its `ExternalState`, which forwards
each step to the referee program (core/refereeproc.py) and holds what it answered: whose
turn, what each bot is sent, their clocks, the frame, and at the end the scores. The
protocol is docs/external-referee.md; this module is its botarena side.

The referee gets the seed and options and nothing else: no clock, no file. The same
requests give the same answers, so a replay (the recorded answers) re-played through a
fresh referee reproduces the game, and a clone is a fresh referee given the same requests.
"""

from __future__ import annotations

import json
import math
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from botarena.core.game import Demo, Game
from botarena.core.protocol import Protocol
from botarena.core.refereeproc import RefereeLimits, RefereeProcess
from botarena.core.rules import (
    TRANSPORT_STATUSES,
    Clock,
    GameError,
    GameInfo,
    Outcome,
    ProtocolError,
    State,
    Status,
    ranks_from_scores,
)

REPLY_CHARS = 4096
"""The longest bot reply an external game passes to its referee by default (longer: the
reply is `invalid`)."""

LIMITS = RefereeLimits()
"""An external referee's limits unless its game names others."""

REPLY_S = 1.0
"""A seat's reply limit when the referee names none (`clock`)."""

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


@dataclass(frozen=True)
class Sent:
    """What a seat is shown: the exact text its bot reads (the referee wrote it)."""

    seat: int
    text: str


@dataclass(frozen=True)
class ExternalReferee:
    """How a game's referee is run: its command line and limits, the reply limit of a
    seat it names no clock for, and the longest reply it is passed."""

    argv: tuple[str, ...]
    limits: RefereeLimits = LIMITS
    reply_s: float = REPLY_S
    reply_chars: int = REPLY_CHARS


class ExternalProtocol(Protocol):
    """The bots' side of the wire is the referee's: the text it wrote goes to the bot as
    is, and a reply goes back to it as one line, unless it cannot be one line of text."""

    def __init__(self, reply_chars: int = REPLY_CHARS) -> None:
        self.reply_chars = reply_chars

    def encode(self, observation: Sent) -> str:
        return observation.text

    def parse(self, lines: list[str], observation: Sent) -> str:
        """The reply line itself; the referee judges it. Raises ProtocolError for one it
        could not be passed: longer than `reply_chars`, or holding a control character."""
        text = lines[0] if lines else ""
        if len(text) > self.reply_chars:
            raise ProtocolError(f"{text[:40]!r}... is longer than {self.reply_chars} characters")
        if _CONTROL.search(text):
            raise ProtocolError(f"{text[:80]!r} holds a control character")
        return text


@dataclass
class _Answer:
    """One answer of the referee, read: whose turn it is and what they are sent, or the
    end of the game."""

    to_act: list[int] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)
    clocks: dict[int, Clock] = field(default_factory=dict)
    frame: dict[str, Any] = field(default_factory=dict)
    header: dict[str, Any] | None = None
    invalid: list[int] = field(default_factory=list)
    over: tuple[int, str] | None = None
    scores: dict[int, float] = field(default_factory=dict)
    statuses: dict[int, str] = field(default_factory=dict)


class ExternalState(State):
    """A game in progress in a referee process; see the module's docstring."""

    def __init__(
        self,
        referee: ExternalReferee,
        info: GameInfo,
        seed: int | str,
        options: Mapping[str, Any],
        seats: int,
    ) -> None:
        if isinstance(seed, str) and _CONTROL.search(seed):
            raise GameError("the seed holds a line break or control character")
        self.referee, self.info, self.seats = referee, info, seats
        request = [f"new {seats}", f"seed {seed}"]
        for name, value in options.items():
            text = info.option(name).text_of(list(value) if isinstance(value, tuple) else value)
            if _CONTROL.search(text):
                raise GameError(f"option {name}: {text!r} holds a control character")
            request.append(f"option {name} {text}")
        request.append("end")
        self._history: list[list[str]] = [request]
        self._faults: dict[int, str] = {}  # this step's transport faults, told with the answers
        self._first: dict[int, str] = {}  # each seat's first fault: "transport" or "invalid"
        self._rule_faults = [0] * seats
        self._steps = 0
        self._start()
        self._take(self._proc.ask(request))

    def _start(self) -> None:
        self._proc = RefereeProcess(self.referee.argv, self.referee.limits, self.info.name)
        self._finalizer = weakref.finalize(self, self._proc.close, 0.0)

    # -- the referee's answers ----------------------------------------------------------
    def _take(self, lines: list[str]) -> None:
        try:
            answer = _read_answer(lines, self.seats, self.info)
        except ValueError as exc:
            self._proc.fail(f"answered out of protocol: {exc}")
        if answer.header is not None and self._steps:
            self._proc.fail("answered out of protocol: `header` after the first answer")
        self._answer = answer
        if answer.header is not None:
            self._header = answer.header
        elif not self._steps:
            self._header = {}
        for seat in answer.invalid:
            self._rule_faults[seat] += 1
            self._first.setdefault(seat, Status.INVALID.value)
        if answer.over is not None:
            self._finalizer()  # the game is decided: the referee has no more to say

    # -- the State hooks ----------------------------------------------------------------
    def to_act(self) -> list[int]:
        return list(self._answer.to_act)

    def observation(self, seat: int) -> Sent:
        return Sent(seat, self._answer.texts.get(seat, ""))

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Send the referee every acting seat's answer or fault, and read what follows."""
        if self.is_over():
            return
        request = []
        for seat in self._answer.to_act:
            text = None if seat in self._faults else actions.get(seat)
            if text is not None and not _CONTROL.search(str(text)):
                request.append(f"answer {seat} {text}")
            else:
                request.append(f"fault {seat} {self._faults.get(seat, Status.INVALID.value)}")
        request += [
            f"fault {seat} {status}"
            for seat, status in self._faults.items()
            if seat not in self._answer.to_act
        ]
        request.append("end")
        self._faults = {}
        self._history.append(request)
        self._steps += 1
        self._take(self._proc.ask(request))

    def is_over(self) -> bool:
        return self._answer.over is not None

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """Told to the referee with the step's answers (its rules decide what follows)."""
        self._faults[seat] = Status(status).value
        self._first.setdefault(seat, "transport")

    def outcome(self) -> Outcome:
        """The result; before the end, the scores so far (those the referee's last answer
        gave, else 0: the PettingZoo adapter pays rewards from them as they change)."""
        if self._answer.over is None:
            scores = [float(self._answer.scores.get(seat, 0.0)) for seat in range(self.seats)]
            signed = [score * self.info.score_sign(seat) for seat, score in enumerate(scores)]
            return Outcome(
                scores,
                "",
                ranks=ranks_from_scores(signed),
                statuses=[None] * self.seats,
                faults=list(self._rule_faults),
            )
        scores = [self._answer.scores[seat] for seat in range(self.seats)]
        signed = [score * self.info.score_sign(seat) for seat, score in enumerate(scores)]
        statuses: list[str | None] = [
            self._answer.statuses.get(seat)
            or (Status.INVALID.value if self._first.get(seat) == Status.INVALID else None)
            for seat in range(self.seats)
        ]
        return Outcome(
            scores,
            self._answer.over[1],
            ranks=ranks_from_scores(signed),
            statuses=statuses,
            faults=list(self._rule_faults),
        )

    def frame(self) -> dict[str, Any]:
        return self._answer.frame

    def header(self) -> dict[str, Any]:
        return self._header

    def clock(self, seat: int) -> Clock:
        return self._answer.clocks.get(seat, Clock(reply_s=self.referee.reply_s))

    @property
    def step_count(self) -> int:
        return self._answer.over[0] if self._answer.over is not None else self._steps

    def clone(self) -> ExternalState:
        """A fresh referee given the same requests (rules are deterministic), with copies
        of what this side holds."""
        twin = ExternalState.__new__(ExternalState)
        twin.__dict__.update(self.__dict__)
        twin._history = [list(request) for request in self._history]
        twin._faults, twin._first = dict(self._faults), dict(self._first)
        twin._rule_faults = list(self._rule_faults)
        if not self.is_over():
            twin._start()
            for request in twin._history:
                twin._proc.ask(request)
        return twin


def _read_answer(lines: list[str], seats: int, info: GameInfo) -> _Answer:
    """One answer's lines read; raises ValueError saying what is out of protocol."""
    answer = _Answer()
    turn_given = False
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        word, _, rest = line.partition(" ")
        args = rest.split()
        if word == "turn":
            if turn_given:
                raise ValueError("two `turn` lines")
            turn_given = True
            answer.to_act = [_seat(arg, seats) for arg in args]
            if len(set(answer.to_act)) != len(answer.to_act):
                raise ValueError(f"a seat twice in {line!r}")
        elif word == "send":
            seat, count = _seat(_arg(args, 0, line), seats), _count(_arg(args, 1, line))
            if index + count > len(lines):
                raise ValueError(f"{line!r} announces more lines than follow")
            answer.texts[seat] = "".join(text + "\n" for text in lines[index : index + count])
            index += count
        elif word == "clock":
            seat = _seat(_arg(args, 0, line), seats)
            reply = _ms(_arg(args, 1, line))
            budget = _ms(args[2]) if len(args) > 2 else None
            answer.clocks[seat] = Clock(reply_s=reply, budget_s=budget)
        elif word in ("frame", "header"):
            setattr(answer, word, _object(rest, word))
        elif word == "invalid":
            answer.invalid.append(_seat(_arg(args, 0, line), seats))
        elif word == "over":
            turns = _count(_arg(args, 0, line))
            reason = rest.partition(" ")[2].strip()
            if not reason:
                raise ValueError(f"{line!r} gives no reason")
            answer.over = (turns, reason)
        elif word == "score":
            answer.scores[_seat(_arg(args, 0, line), seats)] = _score(_arg(args, 1, line))
        elif word == "status":
            status = _arg(args, 1, line)
            if status not in {*TRANSPORT_STATUSES, *dict(info.statuses)}:
                raise ValueError(f"{status!r} is not one of {info.name}'s status words")
            answer.statuses[_seat(_arg(args, 0, line), seats)] = status
        else:
            raise ValueError(f"unknown line {line[:80]!r}")
    _check_whole(answer, turn_given, seats)
    return answer


def _check_whole(answer: _Answer, turn_given: bool, seats: int) -> None:
    if answer.over is not None:
        if turn_given:
            raise ValueError("both `turn` and `over`")
        missing = [seat for seat in range(seats) if seat not in answer.scores]
        if missing:
            raise ValueError(f"`over` without a score for seat {missing[0]}")
        return
    if not turn_given:
        raise ValueError("neither `turn` nor `over`")
    if answer.scores or answer.statuses:
        raise ValueError("`score` or `status` before the game is over")
    unsent = [seat for seat in answer.to_act if seat not in answer.texts]
    if unsent:
        raise ValueError(f"seat {unsent[0]} is to act but is sent nothing (`send`)")


def _arg(args: list[str], index: int, line: str) -> str:
    if index >= len(args):
        raise ValueError(f"{line[:80]!r} is missing a field")
    return args[index]


def _seat(text: str, seats: int) -> int:
    if not text.isdigit() or int(text) >= seats:
        raise ValueError(f"{text[:20]!r} is not a seat of this game (0 to {seats - 1})")
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text[:20]!r} is not a count")
    return int(text)


def _ms(text: str) -> float | None:
    if text == "-":
        return None
    if not text.isdigit() or int(text) == 0:
        raise ValueError(f"{text[:20]!r} is not a time in ms (a whole number > 0, or -)")
    return int(text) / 1000


def _score(text: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"score {text[:20]!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"score {text[:20]!r} is not finite")
    return int(text) if text.lstrip("-").isdigit() else value


def _object(text: str, word: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise ValueError(f"`{word}` is not JSON: {text[:60]!r}") from None
    if not isinstance(value, dict):
        raise ValueError(f"`{word}` is not a JSON object")
    return value


def external_game(
    info: GameInfo,
    argv: Sequence[str],
    *,
    bots: Mapping[str, Callable[[], Any]] | None = None,
    limits: RefereeLimits = LIMITS,
    reply_s: float = REPLY_S,
    reply_chars: int = REPLY_CHARS,
    demo: Demo | None = None,
) -> Game:
    """The game `info` whose rules are the referee program `argv` (docs/external-referee.md).

    `bots` are its built-in bots (each gets the text its seat is sent when it sets
    `reads_text = True`); `limits` bound the referee; `reply_s` is a seat's reply limit
    when the referee names none; a reply longer than `reply_chars` is `invalid`."""
    referee = ExternalReferee(tuple(argv), limits, reply_s, reply_chars)

    def new_state(seed: int | str, options: dict[str, Any], map_data: Any, seats: int) -> State:
        return ExternalState(referee, info, seed, options, seats)

    return Game(
        info=info,
        new_state=new_state,
        protocol=ExternalProtocol(reply_chars),
        bots=dict(bots or {}),
        demo=demo,
    )
