"""Falldown's wire format: the exact state text, and replies read the way the Java engine
reads them (examples from tests/data/falldown/README.md)."""

from __future__ import annotations

import io

import pytest

from botarena.games.falldown.protocol import PROTOCOL
from botarena.games.falldown.rules import new_state
from testdata import falldown_golden

GOLDEN = falldown_golden()

FIRST_STATE = "0\n0\n" + "0 0 0 0 0 0\n" * 6 + "0 14 D 0\n14 17 L 0\n14 10 U 0\n2 5 R 0\nEOD\n"
"""The engine's first state of fixture_seed0_t30, as bot 0 read it."""


def test_the_first_state_is_the_engines_text_byte_for_byte() -> None:
    state = new_state(0, {"start": "0,14,D/14,17,L/14,10,U/2,5,R"}, None, 4)
    assert PROTOCOL.encode(state.observation(0)) == FIRST_STATE
    recorded = (GOLDEN / "fixture_seed0_t30" / "in_0.txt").read_text()
    assert recorded.startswith(FIRST_STATE)


def test_a_fallen_player_and_falling_blocks_print_like_the_engine() -> None:
    state = new_state(0, {"start": "0,5,D/17,0,L/0,11,U/17,17,L"}, None, 4)
    for command in ("N", "N", "A", "N", "D", "N"):
        state.apply({state.turn % 4: command})
    text = PROTOCOL.encode(state.observation(2))
    assert text.splitlines() == [
        "2",
        "6",
        "8 0 0 0 0 0",
        "4 0 0 0 0 0",
        "-19 0 0 0 0 0",
        "0 0 0 0 0 0",
        "0 0 0 0 0 0",
        "0 0 0 0 0 0",
        "-1 -1 D 0",
        "17 0 L 0",
        "0 11 U 2",
        "17 17 L 0",
        "EOD",
    ]


@pytest.mark.parametrize(
    "line, command",
    [
        ("U extra", "U"),
        ("  R ", "R"),
        ("\tL", "L"),
        ("\x00U", "U"),
        ("\x0bL", "L"),
        ("D  ", "D"),
        ("A B C", "A"),
        ("R\tL", "N"),
        ("u", "N"),
        ("X", "N"),
        ("READY", "N"),
        (" ", "N"),
        ("", "N"),
        ("UU", "N"),
        ("u U", "N"),
        ("N", "N"),
        ("A", "A"),
    ],
)
def test_replies_are_read_like_the_engine_reads_them(line: str, command: str) -> None:
    assert PROTOCOL.parse([line], None) == command


@pytest.mark.parametrize(
    "line, ready",
    [
        ("READY", True),
        (" READY ", True),
        ("\tREADY", True),
        ("READY!", False),
        ("ready", False),
        ("hello", False),
        (" ", False),
    ],
)
def test_the_handshake_waits_for_a_trimmed_ready(line: str, ready: bool) -> None:
    assert PROTOCOL.handshake_done(line) is ready


def test_a_bot_reads_back_what_the_jury_wrote() -> None:
    recorded = (GOLDEN / "attack_heavy" / "in_0.txt").read_text()
    stream = io.StringIO(recorded)
    blocks = 0
    while (observation := PROTOCOL.read_observation(stream.readline)) is not None:
        assert observation.seat == 0 and observation.turn == 4 * blocks
        blocks += 1
    assert blocks == recorded.count("EOD\n") == 126
    state = new_state(0, {"start": "0,14,D/14,17,L/14,10,U/2,5,R"}, None, 4)
    again = PROTOCOL.read_observation(io.StringIO(FIRST_STATE).readline)
    assert again == state.observation(0)
