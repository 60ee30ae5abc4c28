"""The command line's one boundary (#34): a user error is one line and exit 2; any other
exception, from a command, a lazily imported command or typer itself, is one line naming a
crash log that holds the traceback, exit 70."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import botarena.cli as cli
from botarena.core import crashlog

LINE = re.compile(
    r"botarena: internal error \(a bug\): (?P<what>.*); the traceback is in (?P<log>/\S+\.log)"
)


def crash_line(stderr: str) -> tuple[str, Path]:
    """The one line's error and log file; the whole stderr must be that line."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    found = LINE.fullmatch(lines[0])
    assert found is not None, stderr
    return found["what"], Path(found["log"])


def test_a_command_s_bug_is_one_line_and_a_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOTARENA_LOG_DIR", str(tmp_path / "logs"))

    def broken() -> None:
        raise ZeroDivisionError("first line\nsecond line")

    monkeypatch.setattr(cli, "all_infos", broken)
    result = CliRunner().invoke(cli.app, ["games"])
    assert result.exit_code == 70
    what, log = crash_line(result.output)
    assert what == "ZeroDivisionError: first line"
    assert log.parent == tmp_path / "logs"
    assert re.fullmatch(rf"botarena-crash-\d{{8}}-\d{{6}}-{os.getpid()}\.log", log.name)
    text = log.read_text()
    assert "Traceback (most recent call last)" in text
    assert "ZeroDivisionError: first line\nsecond line" in text
    assert log.stat().st_mode & 0o777 == 0o600


def test_a_user_error_raised_anywhere_stays_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from botarena.core.errors import UserError

    def refused() -> None:
        raise UserError("--db x.db: the store is damaged")

    monkeypatch.setattr(cli, "all_infos", refused)
    result = CliRunner().invoke(cli.app, ["games"])
    assert (result.exit_code, result.output) == (
        2,
        "botarena: error: --db x.db: the store is damaged\n",
    )


def test_an_unwritable_log_folder_falls_back_to_the_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setenv("BOTARENA_LOG_DIR", str(not_a_folder))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    path = crashlog.write_crash_log(RuntimeError("x"))
    assert path is not None and path.parent == tmp_path


def test_the_default_folder_is_the_xdg_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOTARENA_LOG_DIR", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert crashlog.log_folders()[0] == tmp_path / "state" / "botarena"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert crashlog.log_folders()[0] == tmp_path / ".local" / "state" / "botarena"


def test_a_lazy_command_that_fails_to_import_is_a_crash_not_a_traceback(tmp_path: Path) -> None:
    """A plug-in whose own `cli` module raises at import, run as a process."""
    site = tmp_path / "site"
    (site / "toygame").mkdir(parents=True)
    (site / "toygame" / "__init__.py").write_text(
        "from botarena.core.rules import GameInfo\n"
        'INFO = GameInfo(name="toy", title="Toy", min_seats=2, max_seats=2,'
        ' seat_names=("A", "B"), turn_model="sequential", rules_version="1")\n'
    )
    (site / "toygame" / "cli.py").write_text("raise RuntimeError('the tools are broken')\n")
    metadata = site / "toy_games-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: toy_games\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_text("[botarena.games]\ntoy = toygame\n")
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "toy", "anything"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(site), "BOTARENA_LOG_DIR": str(tmp_path / "logs")},
    )
    assert run.returncode == 70
    what, log = crash_line(run.stderr)
    assert what == "RuntimeError: the tools are broken"
    assert log.parent == tmp_path / "logs"
    assert "toygame/cli.py" in log.read_text()
