"""A player that polls for replies (`reply_spin_s`, what Labyrinth posts use) reads quick and
slow replies alike, a reply split across writes, a bot's end, and a deadline shorter than
the poll."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from botarena.core.player import ProcessPlayer
from botarena.core.rules import Status
from botarena.core.sandbox import NONE
from test_core_player_large_input import OneLine


class Polling(ProcessPlayer):
    reply_spin_s = 0.05  # long, so that both ways of waiting are taken below


class PollingLong(ProcessPlayer):
    reply_spin_s = 2.0


def polling(tmp_path: Path, body: str, kind: type[ProcessPlayer] = Polling) -> ProcessPlayer:
    script = tmp_path / "bot.py"
    script.write_text(body)
    bot = kind([sys.executable, str(script)], name="bot", sandbox=NONE)
    bot.start(0)
    return bot


ECHO_AFTER = """import sys, time
for line in sys.stdin:
    delay, text = line.split()
    time.sleep(float(delay))
    half = len(text) // 2
    sys.stdout.write(text[:half]); sys.stdout.flush()
    time.sleep(float(delay))
    print(text[half:], flush=True)
"""


def test_quick_and_slow_replies_are_read_whole(tmp_path: Path) -> None:
    bot = polling(tmp_path, ECHO_AFTER)
    try:
        for delay, text in (("0", "quick"), ("0.2", "slow"), ("0", "again"), ("0.03", "ab")):
            bot.send(f"{delay} {text}\n", None)
            reply = bot.collect(OneLine(), None, time.monotonic() + 30)
            assert (reply.fault, reply.action) == (None, text)
    finally:
        bot.close(time.monotonic() + 1)


def test_the_poll_stops_at_the_deadline(tmp_path: Path) -> None:
    bot = polling(tmp_path, ECHO_AFTER, PollingLong)
    try:
        bot.send("5 late\n", None)
        started = time.monotonic()
        reply = bot.collect(OneLine(), None, started + 0.1)
        assert reply.fault is Status.TIMEOUT
        assert time.monotonic() - started < 1.0  # not the 2 s poll
    finally:
        bot.close(time.monotonic() + 1)


def test_a_bot_that_ends_without_a_reply_crashed(tmp_path: Path) -> None:
    bot = polling(tmp_path, "import sys\nsys.stdin.readline()\n")
    try:
        bot.send("hello\n", None)
        reply = bot.collect(OneLine(), None, time.monotonic() + 30)
        assert reply.fault is Status.CRASHED
    finally:
        bot.close(time.monotonic() + 1)
