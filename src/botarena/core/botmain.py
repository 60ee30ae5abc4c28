"""Runs an in-process bot object as a process: observations on stdin, replies on stdout."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from botarena.core.protocol import Protocol


def run_stdio(bot: Any, protocol: Protocol) -> None:
    """Read observations until the protocol says the game is over; answer each one.

    This is how every built-in bot runs under `python -m PACKAGE.bots.NAME`.
    A bot that knows the game is over for it (e.g. after its last turn) sets `done`.
    """
    readline: Callable[[], str] = sys.stdin.readline
    while True:
        observation = protocol.read_observation(readline)
        if observation is None:
            return
        answer = bot.act(observation)
        text = answer if isinstance(answer, str) else protocol.format(answer)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        if getattr(bot, "done", False):
            return
