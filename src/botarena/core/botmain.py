"""Runs an in-process bot object as a process: observations on stdin, replies on stdout."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from botarena.core.protocol import Protocol
from botarena.core.rules import seat_seed


def run_stdio(bot: Any, protocol: Protocol) -> None:
    """Read observations until the protocol says the game is over; answer each one.

    This is how every built-in bot runs under `python -m botarena.games.GAME.bots.NAME`.
    A bot that knows the game is over for it (Amazes: after its 150th turn) sets `done`.
    Its `setup` gets the seat and seed the jury gives (BOTARENA_SEAT, BOTARENA_SEED), as
    in-process, so a built-in bot plays the same game as a process and in-process.
    """
    setup = getattr(bot, "setup", None)
    if setup is not None and "BOTARENA_SEED" in os.environ:
        seat = int(os.environ.get("BOTARENA_SEAT", "0"))
        setup(seat, seat_seed(os.environ["BOTARENA_SEED"], seat))
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
