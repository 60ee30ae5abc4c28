"""Kill -9 a real runner process at random moments, several times, then let one finish: no
game lost, none left claimed or committed twice, standings identical to an uninterrupted run;
and two runners on one store share its games."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from botarena.core.sandbox import reap_group
from conftest import alive, processes

pytestmark = pytest.mark.slow

BOTS = [
    "--bot",
    "builtin:amazes/random",
    "--bot",
    "builtin:amazes/explorer",
    "--bot",
    "other=builtin:amazes/random",
]


def botarena(*args: str, cwd: Path) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def snapshot(db: str, cwd: Path) -> tuple[list, list]:
    games = json.loads(botarena("tournament", "games", "cup", "--json", "--db", db, cwd=cwd))
    standings = json.loads(
        botarena("tournament", "standings", "cup", "--json", "--db", db, cwd=cwd)
    )
    return [(g["key"], g["bots"], g["scores"], g["status"]) for g in games], standings


def finished(path: Path) -> int:
    """Games committed as done, read straight from the SQLite file while a runner writes."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as store:
        return store.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0]


def test_kill_9_at_random_moments_loses_nothing_and_plays_nothing_twice(tmp_path: Path) -> None:
    reference, killed = f"sqlite:///{tmp_path / 'ref.db'}", f"sqlite:///{tmp_path / 'kill.db'}"
    for db, replays in ((reference, "ref"), (killed, "kill")):
        botarena(
            "tournament",
            "new",
            "cup",
            "--game",
            "amazes",
            *BOTS,
            "--games-per-pair",
            "4",
            "--seed",
            "11",
            "--db",
            db,
            "--replays",
            str(tmp_path / replays),
            cwd=tmp_path,
        )
    botarena("tournament", "run", "cup", "--workers", "2", "--db", reference, cwd=tmp_path)

    chance = random.Random()
    kills = 0
    cut_short = 0  # kills that left the tournament part played
    for _ in range(4):
        runner = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "botarena",
                "tournament",
                "run",
                "cup",
                "--workers",
                "2",
                "--db",
                killed,
            ],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its group: what it leaves when killed is found by it
        )
        # a random moment while it plays: once a random number of further games is done,
        # plus a random fraction of a game (the machine's speed does not matter)
        target = min(23, finished(tmp_path / "kill.db") + chance.randint(1, 6))
        while runner.poll() is None and finished(tmp_path / "kill.db") < target:
            time.sleep(0.02)
        time.sleep(chance.uniform(0.0, 0.2))
        if runner.poll() is None:
            runner.send_signal(signal.SIGKILL)
            kills += 1
        runner.wait(timeout=60)
        # what the killed runner left (its pool's workers, its fork server) dies as it would in
        # a crash, and is reaped here if it came to this process as a subreaper
        with contextlib.suppress(ProcessLookupError):
            os.killpg(runner.pid, signal.SIGKILL)
        reap_group(runner.pid)
        games, _ = snapshot(killed, tmp_path)
        assert all(status in ("pending", "claimed", "done") for *_, status in games)
        cut_short += 0 < sum(status == "done" for *_, status in games) < 24
    assert kills >= 1 and cut_short >= 1
    botarena("tournament", "run", "cup", "--workers", "2", "--db", killed, cwd=tmp_path)

    games, standings = snapshot(killed, tmp_path)
    expected_games, expected_standings = snapshot(reference, tmp_path)
    assert len(games) == 24 and {status for *_, status in games} == {"done"}
    assert games == expected_games
    assert standings == expected_standings
    replays = [p for p in (tmp_path / "kill" / "cup").iterdir() if not p.name.startswith(".")]
    assert len(replays) == 24  # one whole replay per game, each written under its own name


def test_two_runners_on_one_store_share_the_games(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'two.db'}"
    botarena(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        *BOTS,
        "--games-per-pair",
        "2",
        "--seed",
        "3",
        "--db",
        db,
        "--replays",
        str(tmp_path / "r"),
        cwd=tmp_path,
    )
    runners = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "botarena",
                "tournament",
                "run",
                "cup",
                "--workers",
                "1",
                "--db",
                db,
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [runner.communicate(timeout=300) for runner in runners]
    assert [runner.returncode for runner in runners] == [0, 0], outputs
    played = [int(out.rsplit(": ", 1)[1].split()[0]) for out, _ in outputs]
    assert sum(played) == 12  # each game played by exactly one of them
    games, _ = snapshot(db, tmp_path)
    assert len(games) == 12 and {status for *_, status in games} == {"done"}


def descendants(pid: int) -> set[int]:
    """Every live process below `pid`, from /proc's parent links."""
    parents = {child: parent for child, state, parent, _ in processes() if state != "Z"}
    found, todo = set(), [pid]
    while todo:
        below = todo.pop()
        children = {child for child, parent in parents.items() if parent == below}
        todo += children - found
        found |= children
    return found


@pytest.mark.parametrize("command", ["tournament", "compare"])
def test_workers_die_with_a_runner_killed_9(tmp_path: Path, command: str) -> None:
    """A runner (or compare) killed -9 leaves none of its worker processes: each dies with
    its parent (PR_SET_PDEATHSIG), the pool's forkserver with the runner."""
    db = f"sqlite:///{tmp_path / 'w.db'}"
    if command == "tournament":
        botarena(
            "tournament",
            "new",
            "cup",
            "--game",
            "amazes",
            *BOTS,
            "--games-per-pair",
            "20",
            "--db",
            db,
            cwd=tmp_path,
        )
        argv = ["tournament", "run", "cup", "--workers", "2", "--db", db]
    else:
        argv = [
            "compare",
            "builtin:amazes/explorer",
            "builtin:amazes/random",
            "--game",
            "amazes",
            "--games",
            "400",
            "--workers",
            "2",
        ]
    runner = subprocess.Popen(
        [sys.executable, "-m", "botarena", *argv],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while len(below := descendants(runner.pid)) < 2:
            assert time.monotonic() < deadline and runner.poll() is None, "no workers started"
            time.sleep(0.1)
        time.sleep(1.0)  # the workers are playing
        below = descendants(runner.pid)
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
        deadline = time.monotonic() + 5
        while (left := {pid for pid in below if alive(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"{len(left)} of {len(below)} worker processes outlived the runner"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
