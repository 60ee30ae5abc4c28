"""The Labyrinth wire format: JSON lines. Each request is one line `{"call": NAME, "args":
[...]}` carrying the original interface's call and arguments; each reply is one line holding
the call's return value as JSON (NaN and Infinity literals allowed), or `error: MESSAGE`
when the bot's method raised (a strike quoting MESSAGE). docs/games/labyrinth.md has the
calls, their shapes and a sample dialogue.

A handshake comes first: `{"call": "setup", "args": [ROLE, SEED]}`, answered by any one line
(`"ready"`); SEED is the seed string of that bot's RNG (`GAMESEED:A` or `GAMESEED:M`).

>>> PROTOCOL.encode(Call("startRound", (3,)))
'{"call":"startRound","args":[3]}\\n'
>>> PROTOCOL.parse(['[1, 4]'], None)
Answer(value=[1, 4])
>>> PROTOCOL.parse(['[NaN, 0, "east"]'], None).value[1:]
[0, 'east']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec

from botarena.core.protocol import Protocol
from botarena.core.rules import ProtocolError
from botarena.games.labyrinth.rules import ROLE_NAMES, Answer, Call, MazeMasterTurn

ERROR_PREFIX = "error: "
"""A reply line starting with this reports an exception in the bot (a strike naming it)."""

SEED_SUFFIX = (":A", ":M")
"""The original controller seeds the adventurers' RNG with seed + ':A', the maze master's
with seed + ':M'."""


compact_json = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""JSON without spaces (one encoder made once: json.dumps with options makes one a call;
the rules' values are trees, so no cycle check)."""

_msgspec_json = msgspec.json.Encoder().encode
_decode_json = msgspec.json.decode
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _written_alike(data: bytes) -> bool:
    """Whether msgspec's `data` are surely `compact_json`'s bytes: neither a float (`1e16`,
    not `1e+16`: every float msgspec writes has a dot or a digit before an e) nor a character
    outside printable ASCII (which the json module escapes). Byte scans, no regex: this
    runs twice an exchange."""
    return (
        data.isascii()
        and b"\x7f" not in data
        and b"." not in data
        and b"0e" not in data.translate(_DIGITS_AS_ZERO)
    )


def call_json(value: Any) -> str:
    """`compact_json(value)` for a call's arguments, made by msgspec (several times faster:
    two calls an exchange). The rules make ints, bools, null and ASCII strings, which both
    write alike; anything else (a float, other characters) goes to `compact_json`. The
    rules make no float, so none is NaN or infinite (which msgspec would write as null)."""
    try:
        data = _msgspec_json(value)
    except (TypeError, ValueError):  # a lone surrogate, a type msgspec does not know
        return compact_json(value)
    if not _written_alike(data):
        return compact_json(value)
    return data.decode()


def read_json(text: str) -> Any:
    """`json.loads(text)`, made by msgspec where it reads the text (most replies; it takes
    the same JSON to the same values); the json module where it does not (NaN, Infinity,
    a number out of range, a lone surrogate, nesting too deep, or no JSON at all)."""
    try:
        return _decode_json(text)
    except (msgspec.DecodeError, RecursionError):
        return json.loads(text)


def bot_seed(game_seed: int | str, seat: int) -> str:
    """The seed string of a seat's RNG: an integer seed counts as its decimal text."""
    return f"{game_seed}{SEED_SUFFIX[seat]}"


def _shown(text: str) -> str:
    """A reply as a fault quotes it: its first 300 characters."""
    return text if len(text) <= 300 else text[:300] + "..."


class LabyrinthProtocol(Protocol):
    """One JSON request a line, one JSON reply a line."""

    has_handshake = True

    def greeting(self, state: Any, seat: int) -> str:
        return self.encode(Call("setup", (ROLE_NAMES[seat], bot_seed(state.seed_text, seat))))

    def handshake_done(self, line: str) -> bool:
        return True

    def encode(self, observation: Call) -> str:
        return call_json({"call": observation.name, "args": list(observation.args)}) + "\n"

    def parse(self, lines: list[str], observation: Any) -> Answer:
        text = lines[0]
        if text.startswith(ERROR_PREFIX):
            shown = _shown(text)
            raise ProtocolError(f"the bot reports an error: {shown[len(ERROR_PREFIX) :]}")
        try:  # NaN and Infinity tokens stand for a JavaScript bot's own NaN and Infinity
            return Answer(read_json(text))
        except ValueError:
            raise ProtocolError(f"reply is not JSON: {_shown(text)!r}") from None
        except RecursionError:  # never a valid answer; must not crash the jury
            raise ProtocolError(
                f"reply nests JSON too deep to be an answer: {_shown(text)!r}"
            ) from None

    def format(self, action: Any) -> str:
        value = action.value if isinstance(action, Answer) else action
        return compact_json(value)

    def for_bot(self, observation: Any) -> Any:
        """The maze master's call with its fresh copy of the maze made before the bot's
        clock starts, as the controller made it before its timed call (`wrapBot` times the
        method alone): at n = 38 the copy cost an in-process Python bot 0.4-1.2 ms a call,
        more than the 1 ms a turn its bank gains."""
        if isinstance(observation, MazeMasterTurn):
            return Call(observation.name, observation.args)
        return observation

    def read_observation(self, readline: Callable[[], str]) -> Call | None:
        line = readline()
        while line and not line.strip():
            line = readline()
        if not line:
            return None
        message = json.loads(line)
        return Call(message["call"], tuple(message.get("args", ())))


PROTOCOL = LabyrinthProtocol()
