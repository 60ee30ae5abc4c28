"""The replay document's shape as a schema, checked before anything is re-simulated.

A replay is read from strangers' files, so `check_shape` names the first field that is
missing, of the wrong type or unknown, and `verify` never meets a value it cannot handle.
What the fields mean is in core/replay.py; the games own what `header` and frames hold.
"""

from __future__ import annotations

from typing import Any

import msgspec

from botarena.core.replay import ReplayError
from botarena.core.rules import Status

Number = int | float


class _Strict(msgspec.Struct, forbid_unknown_fields=True):
    """Unknown fields are errors: a replay says nothing the verifier does not check."""


class Bot(_Strict):
    seat: int
    name: str
    spec: str


Unset = msgspec.UnsetType
UNSET = msgspec.UNSET  # an optional field is absent or of its type, never null


class Act(_Strict):
    seat: int
    ms: Number
    reply: str | Unset = UNSET
    packed: str | Unset = UNSET
    sent: str | Unset = UNSET
    cpu_s: Number | Unset = UNSET
    fault: tuple[str, str] | Unset = UNSET


class Step(_Strict):
    acts: list[Act]
    frame: dict[str, Any]


class PlayerLine(_Strict):
    bot: str
    score: Number
    rank: int
    status: str
    time_ms: Number
    faults: int


class Result(_Strict):
    game: str
    seed: int | str
    turns: int
    end_reason: str
    players: list[PlayerLine]


class Document(_Strict):
    schema_version: int
    botarena_version: str
    game: str
    rules_version: str
    seed: Any  # the game's own check (GameInfo.check_seed) says what it accepts
    options: dict[str, Any]  # checked by the game's options, as `play` checks them
    header: dict[str, Any]
    bots: list[Bot]
    initial_frame: dict[str, Any]
    handshake_faults: dict[str, tuple[str, str]]
    steps: list[Step]
    result: Result
    stderr: list[str]
    handshake_ms: dict[str, Number] = {}


class ShapeError(ReplayError):
    """The document is JSON but not shaped as a replay; the message names the field."""


def check_shape(document: Any) -> None:
    """Raise ShapeError naming the first field that is not as the schema says."""
    try:
        parsed = msgspec.convert(document, Document, strict=True)
    except msgspec.ValidationError as exc:
        raise ShapeError(f"malformed replay: {_where(str(exc))}") from None
    seats = len(parsed.bots)
    for index, bot in enumerate(parsed.bots):
        if bot.seat != index:
            raise ShapeError(f"malformed replay: bots[{index}].seat is {bot.seat}, not {index}")
    for number, step in enumerate(parsed.steps):
        for index, act in enumerate(step.acts):
            where = f"steps[{number}].acts[{index}]"
            if not 0 <= act.seat < seats:
                raise ShapeError(f"malformed replay: {where}.seat {act.seat} is not a seat")
            if act.fault is UNSET and (act.reply is UNSET) == (act.packed is UNSET):
                raise ShapeError(
                    f"malformed replay: {where} needs exactly one of 'reply' and 'packed'"
                )
            if act.fault is not UNSET:
                _check_status(act.fault[0], f"{where}.fault")
    for key, fault in parsed.handshake_faults.items():
        if not (key.isascii() and key.isdigit()) or int(key) >= seats:
            raise ShapeError(f"malformed replay: handshake_faults key {key!r} is not a seat")
        _check_status(fault[0], f"handshake_faults.{key}")
    for key in parsed.handshake_ms:
        if not (key.isascii() and key.isdigit()) or int(key) >= seats:
            raise ShapeError(f"malformed replay: handshake_ms key {key!r} is not a seat")
    if len(parsed.result.players) != seats or len(parsed.stderr) != seats:
        raise ShapeError(
            f"malformed replay: {seats} bots but {len(parsed.result.players)}"
            f" result lines and {len(parsed.stderr)} stderr texts"
        )


def _check_status(word: str, where: str) -> None:
    if word not in {status.value for status in Status if status is not Status.OK}:
        raise ShapeError(f"malformed replay: {where}: {word!r} is not a fault status")


def _where(message: str) -> str:
    """msgspec's `Expected int, got str - at $.steps[0].acts[1].seat` as `steps[0]...: ...`."""
    reason, _, path = message.partition(" - at `")
    path = path.rstrip("`").removeprefix("$").lstrip(".")
    text = f"{path}: {reason}" if path else reason
    # a field name from the file may hold any character: the message stays one line
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
