"""A tournament runs uploaded code: where the sandbox cannot confine it (no bubblewrap, no
memory or pids cgroup), `tournament run` and `work` refuse process bots unless told
--no-sandbox; built-in bots, which play in the jury's process, always run (#22)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from botarena.core.spec import runs_a_program
from conftest import run_botarena

PROCESS_BOT = f"{sys.executable} -m botarena.games.amazes.bots.random"


@pytest.mark.parametrize(
    ("spec", "program"),
    [
        ("builtin:amazes/random", False),
        ("me=builtin:amazes/random", False),
        ("./mybot", True),
        ("me=./mybot --fast", True),
        ("post:12345", True),
        ("python3 bot.py", True),
    ],
)
def test_which_specs_run_a_program(spec: str, program: bool) -> None:
    assert runs_a_program(spec) is program


@pytest.mark.slow  # seconds on 2 cores
def test_run_refuses_process_bots_without_cgroups_unless_no_sandbox(tmp_path: Path) -> None:
    made = run_botarena(
        "tournament", "new", "cup", "--game", "amazes",
        "--bot", "mine=" + PROCESS_BOT, "--bot", "builtin:amazes/random", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    refused = run_botarena("tournament", "run", "cup", cwd=tmp_path, BOTARENA_CGROUPS="off")
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and refused.stderr.startswith("botarena: error: ")
    for named in ("the memory cgroup (cgroups off", "the pids cgroup", "botarena doctor"):
        assert named in refused.stderr
    assert "--no-sandbox" in refused.stderr
    games = json.loads(run_botarena("tournament", "games", "cup", "--json", cwd=tmp_path).stdout)
    assert {g["status"] for g in games} == {"pending"}  # nothing played, nothing written

    trusted = run_botarena(
        "tournament", "run", "cup", "--no-sandbox", "--workers", "0", cwd=tmp_path,
        BOTARENA_CGROUPS="off",
    )  # fmt: skip
    assert trusted.returncode == 0, trusted.stderr
    games = json.loads(run_botarena("tournament", "games", "cup", "--json", cwd=tmp_path).stdout)
    assert {g["status"] for g in games} == {"done"}


@pytest.mark.slow  # seconds on 2 cores
def test_built_in_bots_run_without_cgroups(tmp_path: Path) -> None:
    made = run_botarena(
        "tournament", "new", "cup", "--game", "amazes",
        "--bot", "builtin:amazes/random", "--bot", "builtin:amazes/explorer", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    run = run_botarena(
        "tournament", "run", "cup", "--workers", "0", cwd=tmp_path, BOTARENA_CGROUPS="off"
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_work_refuses_too(tmp_path: Path) -> None:
    made = run_botarena(
        "tournament", "new", "lad", "--game", "amazes", "--schedule", "ladder",
        "--bot", "mine=" + PROCESS_BOT, "--bot", "builtin:amazes/random", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    db = f"sqlite:///{tmp_path / 'botarena.db'}"
    refused = run_botarena("tournament", "work", "--db", db, "--games", "1", cwd=tmp_path,
                       BOTARENA_CGROUPS="off")  # fmt: skip
    assert refused.returncode == 2 and "tournament work: the sandbox cannot" in refused.stderr
