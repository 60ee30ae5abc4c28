"""Inputs past every bound end in one line and exit 2, never a traceback or a hang (#25):
`compare --sprt` with a huge Elo bound, `serve`/`view --port` out of range, `tournament run`
with a malformed `--dask` address or too many `--workers`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def one_line(run: subprocess.CompletedProcess[str], message: str) -> None:
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [f"botarena: error: {message}"]


def test_compare_with_a_huge_elo_bound(tmp_path: Path) -> None:
    run = botarena(
        "compare",
        "builtin:amazes/random",
        "builtin:amazes/random",
        "--game",
        "amazes",
        "--sprt",
        "0,1e308",
        cwd=tmp_path,
    )
    one_line(
        run,
        "--sprt '0,1e308': Elo bounds lie between -1000 and 1000 (beyond, a game's"
        " expected score is 0 or 1 in floating point)",
    )


@pytest.mark.parametrize("port", ["70000", "-1"])
def test_serve_on_a_port_that_is_none(port: str, tmp_path: Path) -> None:
    one_line(
        botarena("serve", "--port", port, cwd=tmp_path),
        f"--port {port}: a TCP port is between 0 and 65535",
    )


@pytest.fixture
def tournament(tmp_path: Path) -> Path:
    new = botarena(
        "tournament",
        "new",
        "t",
        "--game",
        "amazes",
        "--bot",
        "builtin:amazes/random",
        "--bot",
        "b=builtin:amazes/random",
        cwd=tmp_path,
    )
    assert new.returncode == 0, new.stderr
    return tmp_path


@pytest.mark.parametrize("address", ["tcp://[::bad", "tcp://host:99999", "tcp://host:port"])
def test_run_on_a_malformed_dask_address(address: str, tournament: Path) -> None:
    one_line(
        botarena("tournament", "run", "t", "--dask", address, cwd=tournament),
        f"--dask {address}: not a scheduler address (tcp://HOST:PORT)",
    )


def test_run_with_too_many_workers(tournament: Path) -> None:
    one_line(
        botarena("tournament", "run", "t", "--workers", "100000", cwd=tournament),
        "--workers must be between 0 and 256",
    )


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (".", "not a name"),
        ("..", "not a name"),
        ("", "not a name"),
        ("a/b", "a slash would put its replays in another folder"),
        ("..\\x", "a slash would put its replays in another folder"),
        ("a\tb", "holds a control character"),
        ("x" * 101, "longer than 100 bytes"),
    ],
)
def test_a_tournament_name_that_is_a_path_trick_is_refused(
    name: str, problem: str, tmp_path: Path
) -> None:
    run = botarena(
        "tournament",
        "new",
        name,
        "--game",
        "amazes",
        "--bot",
        "builtin:amazes/random",
        "--bot",
        "b=builtin:amazes/random",
        cwd=tmp_path,
    )
    one_line(run, f"tournament name {name!r}: {problem}")
    assert list(tmp_path.iterdir()) == []  # no store, no replay folder
