"""`tournament work` plays finite tournaments whole: a swiss or adaptive schedule's next
round is added by whichever worker finds the last one played, not only by `run` (#26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_botarena


@pytest.mark.slow  # seconds on 2 cores
def test_a_worker_plays_every_swiss_round(tmp_path: Path) -> None:
    made = run_botarena(
        "tournament", "new", "sw", "--game", "amazes", "--schedule", "swiss", "--rounds", "3",
        *(arg for n in range(4) for arg in ("--bot", f"b{n}=builtin:amazes/random")),
        "-o", "turns=20", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    db = f"sqlite:///{tmp_path / 'botarena.db'}"
    work = run_botarena("tournament", "work", "--db", db, "--games", "6", "--workers", "0",
                    cwd=tmp_path)  # fmt: skip
    assert work.returncode == 0, work.stderr
    games = json.loads(run_botarena("tournament", "games", "sw", "--json", cwd=tmp_path).stdout)
    assert len(games) == 6 and {g["status"] for g in games} == {"done"}  # 3 rounds of 2
    assert len({g["key"] for g in games}) == 6
