"""Long commands print plain progress lines (done/total, rate, ETA) when not on a terminal."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from botarena.core import progress
from botarena.core.progress import Lines, clock

LINE = re.compile(r"^cup: (\d+)/6 games, \d+\.\d\d games/s, (ETA (\d:\d\d:\d\d|\?)|done)")


def test_clock_and_eta_follow_the_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [clock(s) for s in (0, 59.4, 3725)] == ["0:00:00", "0:00:59", "1:02:05"]
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    lines = Lines("cup", seconds=60)
    lines.update(0, 10)
    now[0] = 110.0  # 5 games in 10 s: 0.5 games/s, 5 to go: 10 s
    assert lines.line(5, 10, "a 1 vs b 0") == (
        "cup: 5/10 games, 0.50 games/s, ETA 0:00:10, a 1 vs b 0"
    )
    assert lines.line(10, 10) == "cup: 10/10 games, 1.00 games/s, done"
    assert lines.line(3, None) == "cup: 3/? games, 0.30 games/s"


def test_a_line_per_interval_not_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    out = io.StringIO()
    lines = Lines("cup", stream=out, seconds=5)
    for step in range(11):  # a step a second: lines at 0 s, 5 s, 10 s
        now[0] = float(step)
        lines.update(step, 10)
    lines.finish()
    assert [line.split(",")[0] for line in out.getvalue().splitlines()] == [
        "cup: 0/10 games",
        "cup: 5/10 games",
        "cup: 10/10 games",
    ]


def test_a_long_step_still_gets_lines() -> None:
    out = io.StringIO()
    with Lines("cup", stream=out, seconds=0.05) as lines:
        lines.update(1, 4)
        time.sleep(0.5)  # one long game: the timer repeats the line meanwhile
    shown = out.getvalue().splitlines()
    assert len(shown) >= 3 and all(line.startswith("cup: 1/4 games") for line in shown)


def test_interval_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, seconds in (("0.5", 0.5), ("0", 0.0), ("-1", 5.0), ("soon", 5.0)):
        monkeypatch.setenv("BOTARENA_PROGRESS_SECONDS", value)
        assert progress.interval() == seconds


@pytest.mark.slow
def test_tournament_run_into_a_pipe_prints_progress_lines(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli = [sys.executable, "-m", "botarena", "tournament"]
    bots = [
        "--bot",
        "builtin:amazes/explorer",
        "--bot",
        "builtin:amazes/random",
        "--bot",
        "e2=builtin:amazes/explorer",
    ]
    subprocess.run(
        [*cli, "new", "cup", "--game", "amazes", *bots, "-o", "turns=20", "--db", db],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "BOTARENA_PROGRESS_SECONDS": "0"}
    run = subprocess.run(
        [*cli, "run", "cup", "--workers", "1", "--db", db],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    found = [LINE.match(line) for line in run.stdout.splitlines()]
    done = [int(match.group(1)) for match in found if match]
    # 3 bots, 2 seats: 3 pairs in both seatings, one line before the first game and one a game
    assert done == [0, 1, 2, 3, 4, 5, 6]
    last = [match for match in found if match][-1]
    assert last.group(2) == "done"
