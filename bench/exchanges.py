"""The referee's cost per exchange against raw pipes: the same bot programs fed the same
bytes in the same order, once by botarena (sandbox, clocks, rules, replay-free) and once by a
bare loop of pipe writes and line reads.

A game is played with hooks that record, step by step, what each seat was written and how
many lines were read from it; the raw loop replays exactly that to fresh copies of the same
programs. Both are timed from the end of the first step after which every seat has answered
once (start-up, dynamic loading and first-turn costs left out) to the end of the last step.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any

import botarena
from botarena.core import match, player

AFTER = 1 << 62
"""The step of what is written after the last one (the game's farewell)."""

Event = tuple[int, str, int, Any]
"""(step, "w" or "r", seat, the bytes written or the number of lines read)."""


def _record(
    game: str, specs: list[str], options: dict[str, Any]
) -> tuple[list[Event], list[float], list[list[str]]]:
    """Play one game of `specs` under botarena: its events, the time each step ended, and
    each seat's program as started (a `post:` spec's Node runner, say)."""
    events: list[Event] = []
    ends: list[float] = []
    seats: dict[int, int] = {}
    programs: dict[int, list[str]] = {}
    step: list[int | None] = [None]  # the step being played, None between steps

    def tag() -> int:
        """The step an event belongs to: -1 before the first (a handshake), AFTER after
        the last (the farewell)."""
        return step[0] if step[0] is not None else (AFTER if ends else -1)

    saved = {
        name: getattr(cls, name)
        for cls, name in (
            (player.ProcessPlayer, "start"),
            (player.ProcessPlayer, "_write"),
            (player.ProcessPlayer, "collect"),
            (player.ProcessPlayer, "await_handshake"),
            (match.Referee, "_step"),
        )
    }

    def start(self: player.ProcessPlayer, seat: int, seed: str = "") -> None:
        seats[id(self)] = seat
        programs[seat] = list(self.argv)
        saved["start"](self, seat, seed)

    def write(self: player.ProcessPlayer, text: str) -> None:
        events.append((tag(), "w", seats[id(self)], text.encode()))
        saved["_write"](self, text)

    def reading(name: str) -> Callable[..., Any]:
        def read(self: player.ProcessPlayer, *args: Any) -> Any:
            reply = saved[name](self, *args)
            events.append((tag(), "r", seats[id(self)], len(reply.lines)))
            return reply

        return read

    def timed_step(self: match.Referee) -> None:
        step[0] = len(ends)
        saved["_step"](self)
        ends.append(time.perf_counter())
        step[0] = None

    player.ProcessPlayer.start = start  # type: ignore[method-assign]
    player.ProcessPlayer._write = write  # type: ignore[method-assign]
    player.ProcessPlayer.collect = reading("collect")  # type: ignore[method-assign]
    player.ProcessPlayer.await_handshake = reading("await_handshake")  # type: ignore[method-assign]
    match.Referee._step = timed_step  # type: ignore[method-assign]
    try:
        result = botarena.play(game, specs, **options)
    finally:
        player.ProcessPlayer.start = saved["start"]  # type: ignore[method-assign]
        player.ProcessPlayer._write = saved["_write"]  # type: ignore[method-assign]
        player.ProcessPlayer.collect = saved["collect"]  # type: ignore[method-assign]
        player.ProcessPlayer.await_handshake = saved["await_handshake"]  # type: ignore[method-assign]
        match.Referee._step = saved["_step"]  # type: ignore[method-assign]
    assert all(p.faults == 0 for p in result.players), result.to_dict()
    return events, ends, [programs[seat] for seat in sorted(programs)]


def _raw(
    argvs: list[list[str]], events: list[Event], steps: int, one_core: bool = False
) -> list[float]:
    """Replay `events` to fresh copies of the programs on bare pipes: each step's end. With
    `one_core`, the loop and the programs run on the core the loop is on (as botarena
    places a sequential game's single-threaded bots, core/cores.py)."""
    allowed = os.sched_getaffinity(0)
    if one_core:
        os.sched_setaffinity(0, {min(allowed)})
    try:
        return _replay(argvs, events, steps)
    finally:
        os.sched_setaffinity(0, allowed)


def _replay(argvs: list[list[str]], events: list[Event], steps: int) -> list[float]:
    bots = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for argv in argvs]
    ends: list[float] = []
    last = -1
    for step, kind, seat, payload in events:
        if step >= steps:
            break
        if step != last and last >= 0:
            ends.append(time.perf_counter())
        last = step
        bot = bots[seat]
        if kind == "w":
            bot.stdin.write(payload)  # type: ignore[union-attr]
            bot.stdin.flush()  # type: ignore[union-attr]
        else:
            for _ in range(payload):
                bot.stdout.readline()  # type: ignore[union-attr]
    ends.append(time.perf_counter())
    for bot in bots:
        bot.stdin.close()  # type: ignore[union-attr]
        bot.kill()
        bot.wait()
        bot.stdout.close()  # type: ignore[union-attr]
    return ends


def _per_exchange(events: list[Event], ends: list[float]) -> float:
    """Seconds per exchange after the first step at whose end every seat has answered."""
    answered: set[int] = set()
    seats = {seat for _, _, seat, _ in events}
    first = None
    for step, kind, seat, _ in events:
        if kind == "r" and step >= 0:
            answered.add(seat)
            if answered == seats:
                first = step
                break
    assert first is not None
    exchanges = sum(1 for step, kind, _, _ in events if kind == "r" and first < step < len(ends))
    return (ends[-1] - ends[first]) / exchanges


def referee_over_raw(
    game: str, argvs: list[list[str]], options: dict[str, Any], tries: int
) -> tuple[float, float, float]:
    """The median seconds per exchange of `tries` games under botarena, and of as many raw
    replays of the same bytes, placed as the system likes and all on one core; interleaved
    so that all see the same machine. Medians, not least values: on a virtual machine an
    exchange costs 4 to 60 µs depending on where the scheduler puts the two processes, and
    the least of a few tries is a lucky placement."""
    referee, raw, one_core = [], [], []
    for _ in range(tries):
        events, ends, _ = _record(game, [shlex.join(argv) for argv in argvs], options)
        referee.append(_per_exchange(events, ends))
        raw.append(_per_exchange(events, _raw(argvs, events, len(ends))))
        one_core.append(_per_exchange(events, _raw(argvs, events, len(ends), one_core=True)))
    return statistics.median(referee), statistics.median(raw), statistics.median(one_core)


def bare_pipes_game_s(
    game: str, specs: list[str], options: dict[str, Any], tries: int, one_core: bool = True
) -> float:
    """The least wall time, of `tries`, of a whole game's bytes (seat programs started,
    every request written and every answer read, as botarena played it) fed to fresh
    copies of the same programs on bare pipes, the loop and the programs on one core
    (`one_core`) or placed by the system: the floor of any jury that runs each bot as a
    process of its own, doing no work."""
    events, ends, programs = _record(game, specs, options)
    best = float("inf")
    for _ in range(tries):
        started = time.perf_counter()
        _raw(programs, events, len(ends), one_core=one_core)
        best = min(best, time.perf_counter() - started)
    return best


def rows(game: str, argvs: list[list[str]], options: dict[str, Any], tries: int) -> list[dict]:
    """The bench rows of `referee_over_raw` for trivial C bots of `game`."""
    ours, raw, one_core = referee_over_raw(game, argvs, options, tries)
    return [
        {
            "name": f"{game} exchange, trivial C bots, raw pipes (bench/exchanges.py)",
            "value": raw * 1e6,
            "unit": "us",
            "goal": "",
        },
        {
            "name": f"{game} exchange, the same raw pipes, loop and bots on one core",
            "value": one_core * 1e6,
            "unit": "us",
            "goal": "",
        },
        {
            "name": f"{game} exchange, the same bots and bytes, botarena (sandboxed)",
            "value": ours * 1e6,
            "unit": "us",
            "goal": "",
        },
        {
            "name": f"{game} referee cost per exchange / raw pipes",
            "value": ours / raw,
            "unit": "x",
            "goal": "<= 1.5",
        },
    ]
