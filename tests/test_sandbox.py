"""The sandbox itself: one-shot commands (the build step's compilers), `doctor`, the
`memory` option and `--no-sandbox`."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import botarena
from botarena.cli import app
from botarena.core import sandbox
from conftest import debian_program, leftovers

PROTECTIONS = [
    "network",
    "PID namespace",
    "filesystem",
    "user",
    "/etc secrets",
    "memory",
    "processes",
    "CPU accounting",
    "freezer",
]


@pytest.fixture(scope="module", autouse=True)
def bwrap() -> str:
    return debian_program("bwrap", "bubblewrap")


def test_a_compiler_builds_in_its_folder_and_nowhere_else(tmp_path: Path, cc: str) -> None:
    build = tmp_path / "build"
    build.mkdir()
    (build / "bot.c").write_text('#include <stdio.h>\nint main(void) { puts("T"); }\n')
    done = sandbox.run(
        [cc, "-o", "bot", "bot.c"], cwd=str(build), writable=[str(build)], timeout=120
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert subprocess.run([str(build / "bot")], capture_output=True).stdout == b"T\n"


def test_a_one_shot_command_sees_only_its_folder(tmp_path: Path) -> None:
    """Its folder is read-only unless writable; the jury's files beside it are not there
    (nothing beside it is); the network is gone."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (tmp_path / "jury.txt").write_text("secret")
    script = (
        "import os, socket\n"
        f"print(os.path.exists({str(tmp_path / 'jury.txt')!r}))\n"
        "try:\n    open('out.txt', 'w')\n    print('wrote')\nexcept OSError:\n"
        "    print('read-only')\n"
        f"print(os.listdir({str(tmp_path)!r}))\n"
        "try:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
        "except OSError:\n    print('no network')\n"
    )
    done = sandbox.run([sys.executable, "-c", script], cwd=str(folder), timeout=60)
    assert done.stdout.decode().split("\n") == ["False", "read-only", "['bot']", "no network", ""]
    assert not (folder / "out.txt").exists()


@pytest.mark.slow
def test_a_one_shot_command_past_its_timeout_is_killed_with_its_children(tmp_path: Path) -> None:
    marker = str(tmp_path / "marker")
    script = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', {marker!r}])"
        "\ntime.sleep(60)\n"
    )
    with pytest.raises(subprocess.TimeoutExpired):
        sandbox.run([sys.executable, "-c", script, marker], cwd=str(tmp_path), timeout=1)
    assert leftovers(marker) == []


def test_a_one_shot_command_over_its_memory_is_killed(tmp_path: Path) -> None:
    done = sandbox.run(
        [sys.executable, "-c", "x = b'm' * (200 << 20)"],
        cwd=str(tmp_path),
        memory_mib=64,
        timeout=60,
    )
    assert done.returncode == -9


def test_doctor_reports_every_protection_on_this_machine() -> None:
    """This machine type has bubblewrap (installed above) and cgroup v1 as root."""
    result = CliRunner().invoke(app, ["doctor", "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert [item["protection"] for item in report] == PROTECTIONS
    assert [item["on"] for item in report] == [True] * 9
    if os.geteuid() == 0:
        assert report[3]["how"].startswith(f"uid {sandbox.BOT_UID}, gid {sandbox.BOT_GID}")


def test_doctor_says_why_a_protection_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    sandbox.bubblewrap.cache_clear()
    monkeypatch.setenv("PATH", "/nonexistent")
    try:
        found = {item.name: item for item in sandbox.protections()}
    finally:
        sandbox.bubblewrap.cache_clear()
    for name in ("network", "PID namespace", "filesystem"):
        assert not found[name].on
        assert found[name].how == (
            "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
        )


OFF = "cgroups off: BOTARENA_CGROUPS=off"
BOUND = "no cgroup v2 {}: its controller is bound to cgroup v1 here"


@pytest.mark.parametrize(
    ("cgroups_backend", "expected"),
    [
        (
            "v2",
            {
                "memory": (True, f"rlimit RLIMIT_AS per process ({BOUND.format('memory')})"),
                "processes": (False, BOUND.format("pids")),
                "CPU accounting": (True, "cgroup v2 cpu.stat: every process and thread of the bot"),
                "freezer": (
                    True,
                    "cgroup v2 cgroup.freeze: every process of the bot frozen between turns",
                ),
            },
        ),
        (
            "off",
            {
                "memory": (True, f"rlimit RLIMIT_AS per process ({OFF})"),
                "processes": (False, OFF),
                "CPU accounting": (True, f"/proc of the bot's process group ({OFF})"),
                "freezer": (
                    False,
                    f"SIGSTOP reaches only the bot's process group: {OFF}; no seccomp in this test",
                ),
            },
        ),
    ],
    indirect=["cgroups_backend"],
)
def test_doctor_names_the_cgroup_backend(
    cgroups_backend: str, expected: dict[str, tuple[bool, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """v2 forced on this hybrid machine: CPU and the freezer (which joins in where seccomp
    is missing) from cgroup v2; memory and pids are v1's here, so rlimits. Off: the rlimit
    and /proc fallbacks, every reason said."""
    monkeypatch.setattr(sandbox.probes, "group_lock", lambda: (None, "no seccomp in this test"))
    found = {item.name: (item.on, item.how) for item in sandbox.protections()}
    assert {name: found[name] for name in expected} == expected


def test_memory_option_is_checked() -> None:
    with pytest.raises(botarena.core.rules.GameError, match="option memory: 8 MiB is below"):
        botarena.play("amazes", ["builtin:amazes/random"] * 2, memory=8)
    result = CliRunner().invoke(
        app,
        ["play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "-o", "memory=lots"],
    )
    assert result.exit_code == 2


@pytest.mark.slow
def test_no_sandbox_runs_the_bot_as_it_is(tmp_path: Path) -> None:
    """--no-sandbox: the bot writes where it likes (a trusted bot)."""
    bot = tmp_path / "bot.py"
    out = tmp_path / "seen.txt"
    bot.write_text(
        f"import sys\nopen({str(out)!r}, 'w').write('here')\nfor line in sys.stdin:\n    pass\n"
    )
    result = CliRunner().invoke(
        app,
        [
            "play",
            "amazes",
            f"{sys.executable} {bot}",
            "builtin:amazes/random",
            "--no-sandbox",
            "--json",
            "-o",
            "turns=2",
        ],
    )
    assert result.exit_code == 0
    assert out.read_text() == "here"
    os.remove(out)
    result = CliRunner().invoke(
        app,
        [
            "play",
            "amazes",
            f"{sys.executable} {bot}",
            "builtin:amazes/random",
            "--json",
            "-o",
            "turns=2",
        ],
    )
    assert result.exit_code == 0
    assert not out.exists()


@pytest.mark.slow
def test_play_watch_takes_no_sandbox_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --watch --no-sandbox` runs the bot as it is, as `play --no-sandbox` does (no
    viewer here: nothing opens a page, and the game's end is not waited on)."""
    from botarena.web import cli as web_cli

    monkeypatch.setattr(web_cli.webbrowser, "open", lambda url: True)
    monkeypatch.setattr(web_cli, "DELIVERY_WAIT_S", 0)
    bot = tmp_path / "bot.py"
    out = tmp_path / "seen.txt"
    bot.write_text(
        f"import sys\nopen({str(out)!r}, 'w').write('here')\nfor line in sys.stdin:\n    pass\n"
    )
    command = [
        "play",
        "amazes",
        f"{sys.executable} {bot}",
        "builtin:amazes/random",
        "--watch",
        "--json",
        "-o",
        "turns=2",
    ]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    assert not out.exists()
    result = CliRunner().invoke(app, [*command, "--no-sandbox"])
    assert result.exit_code == 0, result.output
    assert out.read_text() == "here"


def test_a_command_naming_the_sandboxs_own_trees_gets_the_sandboxs_own(tmp_path: Path) -> None:
    """/dev, /proc and /etc named on a command line stay the sandbox's: /dev/null is still
    writable (the machine's /dev bound read-only over it made it not), and /etc is still
    the minimal one (the machine's was bound whole)."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import os, sys\n"
        "with open(sys.argv[1], 'w') as sink:\n    sink.write('x')\n"
        "print(os.path.exists('/etc/shadow'), os.path.exists(sys.argv[2]),"
        " os.path.exists(sys.argv[4]))\n"
    )
    tmp_path.chmod(0o755)
    run = next(path for path in ("/run/systemd", "/run/lock", "/run") if os.path.exists(path))
    done = sandbox.run(
        [sys.executable, str(script), "/dev/null", "/etc/passwd", "/proc/self/status", run],
        cwd=str(tmp_path),
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"False True False\n", b"")


def test_a_bot_file_directly_in_tmp_is_shown_alone() -> None:
    """A program in /tmp itself sees itself, not the machine's /tmp, and keeps its own."""
    import uuid

    tag = uuid.uuid4().hex
    script, other = Path(f"/tmp/botarena-bot-{tag}.py"), Path(f"/tmp/botarena-other-{tag}")
    script.write_text(
        "import os\nopen('/tmp/mine', 'w').write('x')\nprint(sorted(os.listdir('/tmp')))\n"
    )
    other.write_text("someone else's")
    try:
        script.chmod(0o644)
        done = sandbox.run([sys.executable, str(script)], cwd="/", timeout=60)
    finally:
        script.unlink()
        other.unlink()
    assert done.returncode == 0, done.stderr
    seen = ast.literal_eval(done.stdout.decode())  # a list of names: its /tmp
    assert {script.name, "mine"} <= set(seen) and other.name not in seen
    # (besides, the way to the jury's Python where it lies under /tmp, as in CI)
    assert all(
        name in (script.name, "mine") or Path(sys.prefix).resolve().is_relative_to(f"/tmp/{name}")
        for name in seen
    )
    assert not Path("/tmp/mine").exists() or Path("/tmp/mine").read_text() != "x"
