"""An observation larger than a pipe holds reaches a process bot without blocking the jury:
the rest is written while its reply is awaited, and a bot that never reads times out."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from botarena.core.player import ProcessPlayer
from botarena.core.protocol import Protocol
from botarena.core.rules import Status
from botarena.core.sandbox import NONE


class OneLine(Protocol):
    """A reply is one line, taken as it is."""

    def reply_complete(self, lines: list[str]) -> bool:
        return len(lines) >= 1

    def parse(self, lines: list[str], observation: Any) -> Any:
        return lines[0]

    def format(self, action: Any) -> str:
        return str(action)


def player(tmp_path: Path, body: str) -> ProcessPlayer:
    script = tmp_path / "bot.py"
    script.write_text(body)
    bot = ProcessPlayer([sys.executable, str(script)], name="bot", sandbox=NONE)
    bot.start(0)
    return bot


def test_a_megabyte_observation_is_delivered_whole(tmp_path: Path) -> None:
    bot = player(tmp_path, "import sys\nfor line in sys.stdin:\n    print(len(line), flush=True)\n")
    try:
        for size in (1_000_000, 10):  # and the pipe is usable afterwards
            bot.send("x" * size + "\n", None)
            reply = bot.collect(OneLine(), None, time.monotonic() + 30)
            bot.pause()
            assert reply.fault is None and reply.action == str(size + 1)
    finally:
        bot.close(time.monotonic() + 1)


@pytest.mark.slow
def test_a_bot_that_never_reads_times_out_instead_of_blocking_the_jury(tmp_path: Path) -> None:
    bot = player(tmp_path, "import time\ntime.sleep(60)\n")
    try:
        started = time.monotonic()
        bot.send("x" * 1_000_000 + "\n", None)
        reply = bot.collect(OneLine(), None, time.monotonic() + 1.0)
        assert reply.fault is Status.TIMEOUT
        assert time.monotonic() - started < 10
    finally:
        bot.close(time.monotonic() + 1)


def test_no_garbage_collection_is_charged_to_an_in_process_bot() -> None:
    """The jury's garbage is collected outside a bot's call, not during it (a full collection
    of a long game's replay took up to 180 ms and struck built-in Labyrinth bots)."""
    import gc

    from botarena.core.player import InProcessPlayer

    seen: list[bool] = []

    class Probe:
        def act(self, observation: Any) -> str:
            seen.append(gc.isenabled())
            return "x"

    bot = InProcessPlayer(Probe(), name="probe")
    bot.start(0)
    bot.send("", None)
    assert bot.collect(OneLine(), None, None).action == "x"
    assert seen == [False] and gc.isenabled()
