"""A tournament of process bots that are deterministic given their seed (the built-in ones,
run as processes: they read BOTARENA_SEED) played twice from the same --seed gives the same
games and the same standings (#22)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import botarena_ok

pytestmark = pytest.mark.slow

BOTS = [f"{name}={sys.executable} -m botarena.games.amazes.bots.{name}"
        for name in ("random", "explorer", "tracking")]  # fmt: skip


def test_same_seed_same_games_and_standings(tmp_path: Path) -> None:
    outcomes = []
    for run in ("first", "second"):
        folder = tmp_path / run
        folder.mkdir()
        botarena_ok("tournament", "new", "cup", "--game", "amazes", "--seed", "4",
                 *(arg for bot in BOTS for arg in ("--bot", bot)), "-o", "turns=40",
                 cwd=folder)  # fmt: skip
        botarena_ok("tournament", "run", "cup", "--workers", "2", cwd=folder)
        games = json.loads(botarena_ok("tournament", "games", "cup", "--json", cwd=folder))
        standings = json.loads(botarena_ok("tournament", "standings", "cup", "--json",
                                        "--no-plot", cwd=folder))  # fmt: skip
        outcomes.append(([(g["key"], g["scores"]) for g in games], standings))
    assert outcomes[0] == outcomes[1]
    assert len(outcomes[0][0]) == 6
