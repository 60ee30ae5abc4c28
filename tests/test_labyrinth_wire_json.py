"""The Labyrinth's wire JSON made by msgspec (protocol.call_json, read_json) is the json
module's, byte for byte and value for value: on a whole game's real calls, and where the
two libraries differ (floats, characters outside printable ASCII, NaN, deep nesting)."""

from __future__ import annotations

import json
import math
import random
import struct
from typing import Any

import pytest

import botarena
from botarena.core.rules import ProtocolError
from botarena.games.labyrinth.postwire import PostWire
from botarena.games.labyrinth.protocol import PROTOCOL, call_json, compact_json, read_json
from botarena.games.labyrinth.rules import Call, MazeMasterTurn


class _Recording:
    """A built-in bot that keeps every call it is given."""

    def __init__(self, name: str, calls: list[Any]) -> None:
        from botarena.games.labyrinth.bots.cartographer import Cartographer
        from botarena.games.labyrinth.bots.warden import Warden

        self.bot = Cartographer() if name == "cartographer" else Warden()
        self.calls = calls

    def setup(self, seat: int, seed: str) -> None:
        self.bot.setup(seat, seed)

    def act(self, call: Any) -> Any:
        self.calls.append(call)
        return self.bot.act(call)


def _game_calls() -> list[Any]:
    calls: list[Any] = []
    bots = [_Recording("cartographer", calls), _Recording("warden", calls)]
    botarena.play("labyrinth", bots, seed="wire", max_rounds=3)
    return calls


def test_a_whole_games_calls_are_written_as_the_json_module_writes_them() -> None:
    calls = _game_calls()
    assert len(calls) > 400
    wire = PostWire()
    for call in calls:
        body = {"call": call.name, "args": list(call.args)}
        assert call_json(body) == compact_json(body)
        if isinstance(call, MazeMasterTurn):  # the json module writes what it reads back
            text = wire.encode(call)
            assert text == compact_json(json.loads(text)) + "\n"
        else:
            assert PROTOCOL.encode(call) == compact_json(body) + "\n"


@pytest.mark.parametrize(
    "value",
    [
        1e16,
        1e-7,
        3.0e-05,
        0.1,
        -0.0,
        1.5,
        2**70,
        "é",
        "\x7f",
        "\u2028",
        "\ud800",
        '\x00\x1f\n\t"\\/',
        [None, True, False, {"b": 1, "a": [2]}],
    ],
)
def test_values_msgspec_writes_otherwise_are_written_by_the_json_module(value: Any) -> None:
    assert call_json([value]) == compact_json([value])


def test_floats_of_every_magnitude_are_written_by_the_json_module() -> None:
    randoms = random.Random(35)
    floats = [m * 10.0**e for e in range(-30, 30) for m in (1, -1.5, 1.2345678901234567, 5)]
    floats += [
        struct.unpack("d", struct.pack("Q", randoms.getrandbits(64)))[0] for _ in range(3000)
    ]
    floats += [randoms.uniform(-1e6, 1e6) for _ in range(1000)] + [0.0, -0.0, 5e-324]
    for value in floats:
        if math.isfinite(value):
            assert call_json({"x": [value, 1]}) == compact_json({"x": [value, 1]}), value


@pytest.mark.parametrize(
    "text",
    [
        "[1, 4]",
        '{"a": 1, "a": 2}',
        "-0",
        "1E5",
        "0.1000000000000000055511151231257827",
        "123456789012345678901234567890",
        '"\\u00e9"',
        '"\\ud800"',
        "1e400",
        "[NaN, -Infinity]",
        " null ",
    ],
)
def test_replies_read_as_the_json_module_reads_them(text: str) -> None:
    expected, got = json.loads(text), read_json(text)
    assert repr(got) == repr(expected)
    assert type(got) is type(expected)


def test_replies_that_are_not_json_or_nest_too_deep_are_invalid() -> None:
    with pytest.raises(ProtocolError, match="reply is not JSON: '\\[1,'"):
        PROTOCOL.parse(["[1,"], None)
    with pytest.raises(ProtocolError, match="reply nests JSON too deep"):
        PROTOCOL.parse(["[" * 100_000], None)
    assert math.isnan(PROTOCOL.parse(["NaN"], None).value)


def test_a_greeting_with_a_seed_outside_ascii_is_escaped() -> None:
    assert PROTOCOL.encode(Call("setup", ("adventurers", "é:A"))) == (
        '{"call":"setup","args":["adventurers","\\u00e9:A"]}\n'
    )
