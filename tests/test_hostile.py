"""Hostile bots in the sandbox: each misbehaving program (tests/hostile_bots.py) is played in
every game whose protocol it reaches, and each game must end as that game's fault rule says,
with the other bots unaffected, nothing left running and nothing written outside the game."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import botarena
from botarena.core import sandbox
from botarena.core.player import STDERR_CAP
from conftest import debian_program, leftovers
from hostile_bots import C_BOTS, HARNESS, PYTHON_BOTS, SPY_BODY, c_source

pytestmark = pytest.mark.slow

MEMORY_MIB = 64
"""The bots' memory limit in these games (option `memory`): allocators hit it fast."""
FORK_BOMBS = {"fork_bomb", "fork_bomb_py"}
FORK_BOMB_MEMORY_MIB = 512
"""A fork bomb's limit must be its processes: 64 of them can outgrow 64 MiB first on a busy
machine, and then the memory limit ends it instead."""

GAMES: dict[str, dict[str, Any]] = {
    "amazes": {
        "seat": 0,
        "others": ["builtin:amazes/random"],
        "options": {"turns": 6, "budget_ms": 2000},
    },
    "falldown": {
        "seat": 0,
        "others": ["builtin:falldown/random"] * 3,
        "options": {"turns": 12, "ready_ms": 2000, "reply_ms": 500},
    },
    "ants": {
        "seat": 0,
        "others": ["builtin:ants/hold"],
        "options": {"turns": 5, "loadtime": 2000, "turntime": 500},
    },
    "labyrinth": {
        "seat": 1,
        "others": ["builtin:labyrinth/wallfollower"],
        "options": {"max_rounds": 1, "wall_slack_ms": 1500},
    },
}
"""Short games, the hostile bot in one seat (Labyrinth: the maze master); clocks short
enough for a quick suite, for the bots that must run out of time."""

PATIENT: dict[str, dict[str, int]] = {
    "amazes": {"budget_ms": 60_000},
    "falldown": {"ready_ms": 60_000, "reply_ms": 60_000},
    "ants": {"loadtime": 60_000, "turntime": 60_000},
    "labyrinth": {"wall_slack_ms": 60_000, "cpu_limits": 0},
}
"""Clocks for every other bot: its outcome must not depend on how busy the machine is (in
Labyrinth, the CPU limits too: the first generateMaze may use 9 ms of CPU, which a Python
bot exceeded under a loaded CI)."""

ANTS_MAP = Path(botarena.__file__).parent / "games" / "ants" / "maps" / "p02.map"

# What each game's rules make of a fault (docs/games/*.md): Labyrinth strikes every fault;
# Falldown reads any line as a command (unknown: N) and Ants any line before `go` as an
# order the rules drop, so garbage is no fault there, but a reply never finished is.
CRASH = {"amazes": "crashed", "falldown": "crashed", "ants": "crashed", "labyrinth": "strike"}
TIMEOUT = {"amazes": "timeout", "falldown": "timeout", "ants": "timeout", "labyrinth": "strike"}
OK = dict.fromkeys(GAMES, "ok")
TOO_LONG = {"amazes": "invalid", "falldown": "invalid", "ants": "invalid", "labyrinth": "strike"}
GARBAGE = {"amazes": "invalid", "falldown": "ok", "ants": "timeout", "labyrinth": "strike"}

EXPECTED: dict[str, tuple[dict[str, str | None], str]] = {
    # name: (status per game, text the fault's detail must hold)
    "crash_start": (CRASH, "exit code 3"),
    "crash_mid": (CRASH, "exit code 1"),
    "exit_early": (CRASH, "exit code 0"),
    "hang_start": (TIMEOUT, ""),
    "hang_mid": (TIMEOUT, ""),
    "sleep_past_budget": (TIMEOUT, ""),
    "late_reply": (TIMEOUT, ""),
    "flood_stdout": ({**GARBAGE, "ants": "timeout"}, ""),
    "flood_stderr": (OK, ""),
    "no_newline": (TIMEOUT, ""),
    "line_1gb": (TOO_LONG, "a reply line longer than 16 MiB"),
    "binary_garbage": (GARBAGE, ""),
    "invalid_utf8": (GARBAGE, ""),
    # bubblewrap's own processes hold the bot's stdout too: no end of output while the bot
    # lives, so its silence is a timeout (the same rule as a crash in all four games)
    "close_stdout": (TIMEOUT, ""),
    "close_stdin": (TIMEOUT, ""),
    "ignores_sigterm": (OK, ""),
    "double_fork": (OK, ""),
    "setsid_child": (CRASH, "exit code 4"),
    "changes_pgid": (OK, ""),
    "alloc_10gb": (CRASH, f"memory limit {MEMORY_MIB} MiB"),
    "fork_bomb_py": (CRASH, "more than 64 processes"),
    # its spinning thread also runs in its own turns, which Labyrinth's CPU rule charges:
    # there it is test_threads_count_as_cpu_time's case
    "spin_between_turns": ({**OK, "labyrinth": None}, ""),
    "segv_start": (CRASH, "killed by SIGSEGV"),
    "fork_bomb": (CRASH, "more than 64 processes"),
    "alloc_10gb_c": (CRASH, f"memory limit {MEMORY_MIB} MiB"),
    "spin_child": (TIMEOUT, ""),
    "flood_c": (TOO_LONG, "a reply line longer than 16 MiB"),
}

CASES = [
    (name, game, "")
    for name, (statuses, _) in EXPECTED.items()
    for game in GAMES
    if statuses[game] is not None
]
CASES += [(name, "amazes", "v2") for name in ("double_fork", "setsid_child", "spin_child")]
"""(bot, game, cgroup backend): every case on this machine's choice (v1), and those whose
processes leave the bot's process group again on cgroup v2 (BOTARENA_CGROUPS=v2; never a
bomb: this machine's v2 has no pids controller)."""


@pytest.fixture(scope="module")
def bwrap() -> str:
    return debian_program("bwrap", "bubblewrap")


@pytest.fixture(scope="module")
def c_bots(tmp_path_factory: pytest.TempPathFactory, cc: str) -> dict[str, Path]:
    """The C bots compiled once, each in its own folder."""
    root = tmp_path_factory.mktemp("c_bots")
    binaries = {}
    for name in C_BOTS:
        folder = root / name
        folder.mkdir()
        (folder / "bot.c").write_text(c_source(name))
        subprocess.run(
            [cc, "-O1", "-pthread", "-o", str(folder / "bot"), str(folder / "bot.c")], check=True
        )
        binaries[name] = folder / "bot"
    return binaries


def python_bot(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True)
    path = folder / "bot.py"
    path.write_text(HARNESS + "\n" + body + "\n")
    return path


def spec_of(name: str, game: str, tmp_path: Path, c_bots: dict[str, Path]) -> tuple[str, Path]:
    """The bot spec and its folder."""
    if name in PYTHON_BOTS:
        path = python_bot(tmp_path / "bots" / name, PYTHON_BOTS[name])
        return shlex.join([sys.executable, str(path), game]), path.parent
    return shlex.join([str(c_bots[name]), game]), c_bots[name].parent


def play(game: str, hostile: str, tmp_path: Path, **extra: Any) -> Any:
    setup = GAMES[game]
    bots = list(setup["others"])
    bots.insert(setup["seat"], hostile)
    options = {**setup["options"], "memory": MEMORY_MIB, **extra}
    if game == "ants":
        options["map"] = ANTS_MAP
    return botarena.play(game, bots, seed=3, replay=tmp_path / "game.json", **options)


def cgroups_left() -> list[str]:
    """This process's bot cgroups still present (each bot's are removed after its game)."""
    from botarena.core.cgroups import available

    prefix = f"botarena-{os.getpid()}-"
    return [
        str(path)
        for controller in available().values()
        if controller.path is not None
        for path in controller.path.iterdir()
        if path.name.startswith(prefix)
    ]


def written_outside(token: str, tmp_path: Path) -> list[str]:
    """Files named `token` where a bot might have written, outside its private /tmp."""
    places = [Path("/tmp"), Path("/var/tmp"), Path.home(), tmp_path]
    return [str(place / token) for place in places if (place / token).exists()]


@pytest.mark.parametrize(
    ("name", "game", "cgroups_backend"),
    CASES,
    ids=["-".join(filter(None, case)) for case in CASES],
    indirect=["cgroups_backend"],
)
def test_hostile_bot(
    name: str, game: str, cgroups_backend: str, tmp_path: Path, bwrap: str, c_bots: dict[str, Path]
) -> None:
    statuses, detail = EXPECTED[name]
    hostile, folder = spec_of(name, game, tmp_path, c_bots)
    out_of_time = statuses[game] == "timeout" or statuses is TIMEOUT
    extra = {} if out_of_time else dict(PATIENT[game])
    if name in FORK_BOMBS:
        extra["memory"] = FORK_BOMB_MEMORY_MIB
    result = play(game, hostile, tmp_path, **extra)
    seat = GAMES[game]["seat"]
    assert result.players[seat].status == statuses[game]
    assert result.players[seat].faults == (0 if statuses[game] == "ok" else 1)
    for other, player in enumerate(result.players):
        if other != seat:
            assert (player.status, player.faults) == ("ok", 0)
    if detail:
        assert detail in json.dumps(result.document)
    assert leftovers(folder) == []
    assert cgroups_left() == []
    if name == "flood_stderr":
        assert len(result.stderr[seat]) == STDERR_CAP


@pytest.mark.parametrize("cgroups_backend", ["v1", "v2"], indirect=True)
def test_threads_count_as_cpu_time(
    cgroups_backend: str, tmp_path: Path, bwrap: str, c_bots: dict[str, Path]
) -> None:
    """Four threads spinning 100 ms are far more than generateMaze(3)'s 9 ms of CPU
    (cpuacct.usage in v1, cpu.stat in v2)."""
    hostile, folder = spec_of("threads_cpu", "labyrinth", tmp_path, c_bots)
    patient_wall = {**PATIENT["labyrinth"], "cpu_limits": 1}  # its CPU limit is the point
    result = play("labyrinth", hostile, tmp_path, **patient_wall)
    assert result.players[1].status == "strike"
    assert "generateMaze over its time limit: used" in result.end_reason
    assert "of CPU, limit 9.0 ms" in result.end_reason
    assert leftovers(folder) == []


@pytest.mark.parametrize("game", list(GAMES))
def test_spy_sees_reaches_and_writes_nothing(game: str, tmp_path: Path, bwrap: str) -> None:
    """Another bot's file, the jury's file, a listener on 127.0.0.1, /tmp, /var/tmp, $HOME
    and the game's folder: all out of reach, so the spy plays correctly."""
    token = f"hostile-{os.getpid()}-{tmp_path.name}"
    other = tmp_path / "bots" / "other"
    other.mkdir(parents=True)
    (other / "secret.txt").write_text("the other bot's secret")
    (tmp_path / "jury.txt").write_text("the jury's secret")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        secrets = [
            str(other / "secret.txt"),
            str(tmp_path / "jury.txt"),
            "/etc/shadow",
            "/etc/gshadow",
        ]
        header = (
            f"SECRETS = {secrets!r}\n"
            f"PORT = {port}\nTOKEN = {token!r}\n"
            f"WRITE_TO = {['/tmp', '/var/tmp', str(Path.home()), str(tmp_path)]!r}\n"
        )
        path = python_bot(tmp_path / "bots" / "spy", header + SPY_BODY)
        result = play(
            game, shlex.join([sys.executable, str(path), game]), tmp_path, **PATIENT[game]
        )
        with pytest.raises(BlockingIOError):
            listener.accept()
    seat = GAMES[game]["seat"]
    assert [player.status for player in result.players][seat] == "ok"
    assert "breach" not in json.dumps(result.document)
    assert written_outside(token, tmp_path) == []
    assert leftovers(path.parent) == []


class SlowRandom:
    """An in-process Amazes bot that thinks 40 ms a turn: time the frozen bot must not use."""

    def act(self, observation: Any) -> str:
        import time

        time.sleep(0.04)
        return "T"


@pytest.mark.parametrize(
    ("name", "locked", "cgroups_backend"),
    [
        ("spin_between_turns", True, ""),
        ("changes_pgid", True, ""),
        ("changes_pgid", False, ""),
        ("changes_pgid", False, "v2"),
    ],
    indirect=["cgroups_backend"],
)
def test_busy_loop_gets_no_cpu_while_not_its_turn(
    name: str,
    locked: bool,
    cgroups_backend: str,
    tmp_path: Path,
    bwrap: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spinning thread, or a spinning child in a session of its own, runs only in the
    bot's own turns: over 20 turns of 40 ms of the other bot's thinking (0.8 s) it gets no
    CPU, so the bot's total (the cgroup's: the child's too) stays well below that. Unlocked
    (no seccomp: the child leaves the bot's process group), the cgroup freezer stops it
    (v1's freezer.state, or v2's cgroup.freeze)."""
    if not locked:
        monkeypatch.setattr(sandbox.probes, "group_lock", lambda: (None, "off in this test"))
    path = python_bot(tmp_path / "bots" / name, PYTHON_BOTS[name])
    result = botarena.play(
        "amazes",
        [shlex.join([sys.executable, str(path), "amazes"]), SlowRandom()],
        seed=3,
        turns=20,
        memory=MEMORY_MIB,
        budget_ms=60_000,
    )
    assert result.players[0].status == "ok"
    assert result.players[0].cpu_ms < 400
    assert leftovers(path.parent) == []
