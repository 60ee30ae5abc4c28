"""Misbehaving bot processes end exactly as the 2011 engine ends them, and leave nothing behind.

Every game is played on one small 3-player map with real processes: seat 0 (the bot under
test) walks its ant three squares south and misbehaves at turn 4; seat 1 walks east along
row 0 and steps onto seat 0's hill at turn 8; seat 2 holds. The expected values follow from
the 2011 engine (research/ants.md §2-3, worker/engine.py): a crash or timeout kills the bot
(status and `playerturns` = that turn) and charges −1 for its hill at once; its ant stays
where it stood; its hill stays and is razed for +2; invalid orders are logged and dropped,
or kill the bot with status `invalid` in strict mode after its valid orders ran.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

import botarena
from botarena.core.replay import load
from botarena.games.ants.replay2011 import export_replay
from conftest import leftovers

ROWS = ["." * 20 for _ in range(20)]
ROWS[0] = "0" + "." * 11 + "1" + "." * 7
ROWS[10] = "." * 10 + "2" + "." * 9
MAP = "rows 20\ncols 20\nplayers 3\n" + "".join(f"m {row}\n" for row in ROWS)

BOT = textwrap.dedent("""
    import os, subprocess, sys, time
    mode = sys.argv[1]
    turn = 0

    def send(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    while True:
        line = sys.stdin.readline()
        if not line:
            break
        words = line.split()
        if not words:
            continue
        if words[0] == "turn":
            turn = int(words[1])
        elif words[0] == "end":
            break
        elif words[0] == "ready":
            if mode == "exit":
                sys.exit(3)
            if mode == "child":  # a helper process of its own, named after this script
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)",
                                  __file__])
            send("go\\n")
        elif words[0] == "go":
            if mode == "walker":  # from its hill at (0, 12) east to seat 0's hill (0, 0)
                orders = ["o 0 %d e" % ((11 + turn) % 20)] if turn <= 8 else []
            else:  # three steps south from (0, 0), then stand
                orders = ["o %d 0 s" % (turn - 1)] if turn <= 3 else []
            if turn == 4:
                if mode == "crash":
                    sys.exit(1)
                if mode in ("hang", "child"):
                    time.sleep(60)
                if mode == "invalid":
                    orders = ["o 3 0 e", "o 9 9 q"]
                if mode == "babble":  # never says go
                    while True:
                        sys.stdout.write("o 3 0 e\\n" * 1000)
            if mode == "flood_out":
                orders += ["o 19 19 n"] * 5000
            if mode == "flood_err":
                sys.stderr.write("x" * 1000000)
                sys.stderr.flush()
            send("".join(order + "\\n" for order in orders) + "go\\n")
""")


@pytest.fixture
def arena(tmp_path: Path) -> tuple[Path, Path]:
    bot = tmp_path / "ants_fault_bot.py"
    bot.write_text(BOT)
    ants_map = tmp_path / "three.map"
    ants_map.write_text(MAP)
    return bot, ants_map


def play(arena: tuple[Path, Path], mode: str, tmp_path: Path, **options) -> dict:
    """Seat 0 in `mode`, the walker, a hold bot; 10 turns, no food. The 2011 replay."""
    bot, ants_map = arena
    spec = f"{sys.executable} {bot}"
    path = tmp_path / f"{mode}.replay.gz"
    botarena.play(
        "ants",
        [f"{spec} {mode}", f"{spec} walker", "builtin:ants/hold"],
        seed=1,
        map=ants_map,
        replay=path,
        turns=10,
        food="none",
        **options,
    )
    assert leftovers(bot) == []
    return export_replay(load(path))


def ant_of(exported: dict, owner: int) -> list:
    """The first ant of `owner`: [row, col, spawn turn, end turn, owner, moves]."""
    return next(ant for ant in exported["replaydata"]["ants"] if ant[4] == owner)


@pytest.mark.parametrize(
    ("mode", "options", "status", "moves"),
    [
        ("crash", {}, "crashed", "sss-------"),
        ("hang", {"turntime": 300}, "timeout", "sss-------"),
        ("child", {"turntime": 300}, "timeout", "sss-------"),
        ("babble", {"turntime": 300}, "timeout", "sss-------"),
        ("invalid", {"strict": 1}, "invalid", "ssse------"),
    ],
)
@pytest.mark.slow
def test_a_killed_bot_stands_still_and_its_hill_is_razed(
    arena: tuple[Path, Path], tmp_path: Path, mode: str, options: dict, status: str, moves: str
) -> None:
    exported = play(arena, mode, tmp_path, **options)
    data = exported["replaydata"]
    assert exported["status"] == [status, "survived", "survived"]
    assert exported["playerturns"] == [4, 10, 10]
    assert ant_of(exported, 0) == [0, 0, 0, 11, 0, moves]  # alive at the end, never moved
    assert [0, 0, 0, 8] in data["hills"]  # razed by seat 1 at turn 8
    # −1 at turn 4 (kill_player); the raze costs nothing more; +2 for the razer
    assert exported["score"] == [0, 3, 1]
    assert data["scores"] == [[1, 1, 1, 1, 0], [1] * 8 + [3] * 3, [1] * 11]
    assert data["cutoff"] == "turn limit reached"


def test_a_bot_that_floods_its_stderr_plays_on(arena: tuple[Path, Path], tmp_path: Path) -> None:
    """1 MB of stderr a turn: drained as it comes, so the bot never blocks on it."""
    exported = play(arena, "flood_err", tmp_path)
    assert exported["status"] == ["survived"] * 3
    assert ant_of(exported, 0) == [0, 0, 0, 11, 0, "sss-------"]
    # its hill is razed like anyone's, charged at that turn
    assert exported["replaydata"]["scores"][0] == [1] * 8 + [0] * 3
    assert exported["score"] == [0, 3, 1]


def test_a_flood_of_invalid_orders_is_dropped_and_logged_capped(
    arena: tuple[Path, Path], tmp_path: Path
) -> None:
    """5 000 orders a turn for a square it does not hold: each is `not player ant`, dropped;
    its valid orders run; the replay keeps the first 10 errors of each turn."""
    exported = play(arena, "flood_out", tmp_path)
    assert exported["status"] == ["survived"] * 3
    assert ant_of(exported, 0) == [0, 0, 0, 11, 0, "sss-------"]
    frames = [step["frame"] for step in load(tmp_path / "flood_out.replay.gz")["steps"]]
    errors = [frame.get("order_errors", {}).get("0") for frame in frames]
    assert errors == [["o 19 19 n # not player ant"] * 10] * 10


def test_invalid_orders_are_dropped_without_strict(
    arena: tuple[Path, Path], tmp_path: Path
) -> None:
    exported = play(arena, "invalid", tmp_path)
    assert exported["status"] == ["survived"] * 3
    assert ant_of(exported, 0)[5] == "ssse------"  # the valid order of turn 4 ran


def test_a_bot_that_exits_at_turn_zero(arena: tuple[Path, Path], tmp_path: Path) -> None:
    """Crashed at turn 0; its ant stays on its hill, and at turn 6 the walker comes within
    attack range of it (d² = 4): one against one, both die. The walker is eliminated, the
    hold bot is the lone survivor: +2 for each of the two standing enemy hills, and the
    walker −1 for its hill, not yet charged (the crashed bot's was charged at turn 0)."""
    exported = play(arena, "exit", tmp_path)
    data = exported["replaydata"]
    assert exported["status"] == ["crashed", "eliminated", "survived"]
    assert exported["playerturns"] == [0, 6, 6]
    assert exported["game_length"] == 6 and data["cutoff"] == "lone survivor"
    assert ant_of(exported, 0) == [0, 0, 0, 6, 0, "------"]
    assert ant_of(exported, 1) == [0, 12, 0, 6, 1, "eeeeee"]
    assert data["bonus"] == [0, -1, 4]
    assert exported["score"] == [0, 0, 5]
