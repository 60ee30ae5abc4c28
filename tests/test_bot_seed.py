"""Process bots learn the game's seed and their seat (BOTARENA_SEED, BOTARENA_SEAT), and the
built-in bots run as processes draw from them: the same game as in-process, move for move."""

from __future__ import annotations

import json
import sys

import pytest

import botarena

# Prints what it was given, then plays Amazes' first turn (T) and exits.
ECHO = """
import os, sys
sys.stderr.write(f"seed={os.environ.get('BOTARENA_SEED')} seat={os.environ.get('BOTARENA_SEAT')}")
sys.stderr.flush()
"""


@pytest.mark.parametrize("sandbox", [True, False])
def test_a_process_bot_gets_the_games_seed_and_its_seat(tmp_path, sandbox: bool) -> None:
    bot = tmp_path / "echo.py"
    bot.write_text(ECHO)
    spec = f"{sys.executable} {bot}"
    result = botarena.play("amazes", ["builtin:amazes/random", spec], seed=42, sandbox=sandbox)
    assert result.stderr[1].startswith("seed=42 seat=1")


@pytest.mark.parametrize(
    ("game", "bots", "seed", "clock"),
    [
        ("amazes", ["random", "random"], 5, {}),
        # Falldown's 100 ms a reply is wall time: a loaded machine can miss it, not the bot.
        ("falldown", ["random", "hunter", "random", "random"], 9, {"reply_ms": 5000}),
    ],
)
def test_built_in_bots_play_the_same_game_as_processes(
    game: str, bots: list[str], seed: int, clock: dict[str, int], tmp_path
) -> None:
    """Random bots seeded from BOTARENA_SEED and BOTARENA_SEAT answer exactly as in-process
    (each seat is set up with the game's seed and its seat, both ways)."""
    replies = []
    for how, specs in (
        ("in-process", [f"builtin:{game}/{bot}" for bot in bots]),
        ("processes", [f"{sys.executable} -m botarena.games.{game}.bots.{bot}" for bot in bots]),
    ):
        replay = tmp_path / f"{how}.json"
        botarena.play(game, specs, seed=seed, turns=40, sandbox=False, replay=replay, **clock)
        steps = json.loads(replay.read_text())["steps"]
        replies.append(
            [[act.get("reply", act.get("packed")) for act in step["acts"]] for step in steps]
        )
    assert len(replies[0]) > 10
    assert replies[0] == replies[1]
