"""Falldown against games recorded with the original Java engine (tests/data/falldown).

Each folder holds the engine's JSON result, the bytes every bot read and wrote, and the bot
command lines. Three checks per game: the pure rules fed the recorded replies, botarena's
referee running the same bot programs, and `import-bookmaker` of the engine's result.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core.replay import verify
from botarena.games.falldown.bookmaker import bookmaker_json, import_bookmaker
from botarena.games.falldown.protocol import JAVA_BLANKS, PROTOCOL
from botarena.games.falldown.rules import command_of, new_state
from testdata import falldown_golden

GOLDEN = falldown_golden()
GAMES = sorted(path.name for path in GOLDEN.iterdir() if (path / "meta.json").exists())
PROBE = GOLDEN / "probe_bot.py"


def test_the_golden_folder_is_there() -> None:
    assert len(GAMES) >= 16


def java_lines(data: bytes) -> list[str]:
    """Lines as Java's BufferedReader.readLine splits them: at LF, CR or CR LF; a last
    line without an end counts."""
    lines, current, index = [], [], 0
    text = data.decode("latin-1")
    while index < len(text):
        char = text[index]
        if char in "\r\n":
            lines.append("".join(current))
            current = []
            if char == "\r" and text[index + 1 : index + 2] == "\n":
                index += 1
        else:
            current.append(char)
        index += 1
    if current:
        lines.append("".join(current))
    return lines


def load(name: str) -> tuple[dict, dict]:
    folder = GOLDEN / name
    return (
        json.loads((folder / "meta.json").read_text()),
        json.loads((folder / "bookmaker.json").read_text()),
    )


def start_of(bookmaker: dict) -> str:
    return "/".join(",".join(start) for start in bookmaker["replay"]["initial"])


def first_difference(expected: bytes, got: bytes) -> str:
    """Which state block (counted from 0) first differs, for a readable failure."""
    want, have = expected.split(b"EOD\n"), got.split(b"EOD\n")
    for block, (left, right) in enumerate(zip(want, have, strict=False)):
        if left != right:
            return f"block {block}: expected {left!r}, got {right!r}"
    return f"{len(want)} blocks expected, {len(have)} sent"


@pytest.mark.parametrize("name", GAMES)
def test_rules_fed_the_recorded_replies_send_the_same_bytes(name: str) -> None:
    """The README's recipe: out_p.txt as each bot's output, one line a slot."""
    meta, bookmaker = load(name)
    state = new_state(0, {"start": start_of(bookmaker), "turns": meta["max_turns"]}, None, 4)
    streams: list[list[str] | None] = []
    for seat in range(4):
        lines = java_lines((GOLDEN / name / f"out_{seat}.txt").read_bytes())
        ready = next(
            (k for k, line in enumerate(lines) if line.strip(JAVA_BLANKS) == "READY"), None
        )
        streams.append(None if ready is None else lines[ready + 1 :])
    sent = [bytearray() for _ in range(4)]
    while not state.is_over():
        seat = state.turn % 4
        actions = {}
        stream = streams[seat]
        if stream is not None:
            sent[seat] += PROTOCOL.encode(state.observation(seat)).encode()
            if stream:
                actions[seat] = command_of(stream.pop(0))
            else:
                streams[seat] = None
        state.apply(actions)
    for seat in range(4):
        expected = (GOLDEN / name / f"in_{seat}.txt").read_bytes()
        got = bytes(sent[seat])
        assert got == expected, f"bot {seat}: {first_difference(expected, got)}"
    assert state.commands == bookmaker["replay"]["commands"]
    assert state.winner() == bookmaker["winner"] == meta["winner"]
    assert state.turn == meta["slots"]
    assert bookmaker_json(state) == (GOLDEN / name / "bookmaker.json").read_text()


def bot_specs(meta: dict, logs: Path) -> list[str]:
    """The recorded command lines, with the probe bot's path and its logs in `logs`."""
    specs = []
    for argv in meta["bots_argv"]:
        argv = [
            str(PROBE)
            if arg == "probe_bot.py"
            else str(logs / arg)
            if arg.endswith(".txt")
            else arg
            for arg in argv
        ]
        argv[0] = sys.executable if argv[0] == "python3" else argv[0]
        specs.append(shlex.join(argv))
    return specs


REPLAYER = r"""
import sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
log = open(sys.argv[2], "wb")
out = sys.stdout.buffer
def emit(line):
    out.write(line); out.flush()
while lines:
    line = lines.pop(0)
    emit(line)
    if line.strip() == b"READY":
        break
for block in iter(lambda: [sys.stdin.buffer.readline() for _ in range(13)], None):
    log.write(b"".join(block)); log.flush()
    if not block[-1] or not lines:
        break
    emit(lines.pop(0))
"""
"""Stands in for a bot the golden game ran under Java (SampleAI): it writes what that bot
wrote, one line per state, logs what it reads, and exits when the recorded output ends."""


def java_free_specs(name: str, logs: Path) -> list[str]:
    script = logs / "replayer.py"
    script.write_text(REPLAYER)
    return [
        shlex.join(
            [
                sys.executable,
                str(script),
                str(GOLDEN / name / f"out_{seat}.txt"),
                str(logs / f"in_{seat}.txt"),
            ]
        )
        for seat in range(4)
    ]


@pytest.mark.parametrize("name", GAMES)
def test_botarena_play_with_the_recorded_bots_sends_the_same_bytes(
    name: str, tmp_path: Path
) -> None:
    """The same bot programs under botarena's referee read byte-identical input, and the
    game has the same winner and slot count. Games that depended on the engine's 100 ms
    limit run at 250 ms (their slow reply takes 300 ms), the others at 2 s, so a loaded
    machine cannot make a bot late by accident."""
    meta, bookmaker = load(name)
    if meta["bots_argv"][0][0] == "java":
        specs = java_free_specs(name, tmp_path)
    else:
        specs = bot_specs(meta, tmp_path)
    reply_ms = 250 if meta["timing_dependent"] else 2000
    if name == "multiline_replies":  # bot 3 says nothing and must be stopped: keep it short
        reply_ms = 250
    result = botarena.play(
        "falldown",
        specs,
        seed=0,
        replay=tmp_path / "replay.json",
        start=start_of(bookmaker),
        turns=meta["max_turns"],
        reply_ms=reply_ms,
        sandbox=False,
    )  # the bots log to tmp_path
    for seat in range(4):
        expected = (GOLDEN / name / f"in_{seat}.txt").read_bytes()
        got = (tmp_path / f"in_{seat}.txt").read_bytes()
        assert got == expected, f"bot {seat}: {first_difference(expected, got)}"
    scores = result.scores
    assert (scores.index(1.0) if 1.0 in scores else -1) == meta["winner"]
    assert result.turns == meta["slots"]
    commands = [step["frame"]["command"] for step in result.document["steps"]]
    assert commands == bookmaker["replay"]["commands"]
    for seat in meta["reply_stream_ended"]:
        assert result.players[int(seat)].status in ("crashed", "timeout")
    assert verify(result.document).ok


@pytest.mark.parametrize("name", GAMES)
def test_import_bookmaker_reproduces_the_engine_result(name: str) -> None:
    meta, _ = load(name)
    game, result = import_bookmaker(GOLDEN / name / "bookmaker.json")
    assert result.turns == meta["slots"] == len(game.commands)
    verdict = verify(result.document)
    assert verdict.ok, verdict.message
