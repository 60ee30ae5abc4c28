"""`botarena compare --map`: the two bots play on a given map, a shipped one by its name."""

from __future__ import annotations

import json
import subprocess
import sys

CLI = [sys.executable, "-m", "botarena", "compare"]


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def test_a_named_map_sets_the_seats_and_is_played() -> None:
    # maze_04p_01 is a 4-player map: one block is 4 games, NEW in each seat once
    run = compare(
        "builtin:ants/greedy",
        "builtin:ants/hold",
        "--game",
        "ants",
        "--map",
        "ants:maze_04p_01",
        "--games",
        "4",
        "-o",
        "turns=3",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    facts = json.loads(run.stdout)
    assert (facts["players"], facts["games"], facts["blocks"]) == (4, 4, 1)


def test_a_wrong_map_name_is_one_line() -> None:
    run = compare(
        "builtin:amazes/random",
        "builtin:amazes/random",
        "--game",
        "amazes",
        "--map",
        "amazes:maze99",
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "amazes:maze99" in run.stderr
    assert "botarena amazes maps" in run.stderr
