"""A tournament of process bots that are deterministic given their seed (the built-in ones,
run as processes: they read BOTARENA_SEED) played twice from the same --seed gives the same
games and the same standings (#22)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BOTS = [f"{name}={sys.executable} -m botarena.games.amazes.bots.{name}"
        for name in ("random", "explorer", "tracking")]  # fmt: skip


def botarena(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        cwd=cwd, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_same_seed_same_games_and_standings(tmp_path: Path) -> None:
    outcomes = []
    for run in ("first", "second"):
        folder = tmp_path / run
        folder.mkdir()
        botarena("tournament", "new", "cup", "--game", "amazes", "--seed", "4",
                 *(arg for bot in BOTS for arg in ("--bot", bot)), "-o", "turns=40",
                 cwd=folder)  # fmt: skip
        botarena("tournament", "run", "cup", "--workers", "2", cwd=folder)
        games = json.loads(botarena("tournament", "games", "cup", "--json", cwd=folder))
        standings = json.loads(botarena("tournament", "standings", "cup", "--json",
                                        "--no-plot", cwd=folder))  # fmt: skip
        outcomes.append(([(g["key"], g["scores"]) for g in games], standings))
    assert outcomes[0] == outcomes[1]
    assert len(outcomes[0][0]) == 6
