"""Runs a built-in bot as a contest program: `READY`, then one command line per state."""

from __future__ import annotations

import sys
from typing import Any

from botarena.core.botmain import run_stdio
from botarena.games.falldown.protocol import PROTOCOL, READY


def run_process(bot: Any) -> None:
    """Say `READY` (the engine waits for it), then answer every state block until EOF."""
    sys.stdout.write(READY + "\n")
    sys.stdout.flush()
    run_stdio(bot, PROTOCOL)
