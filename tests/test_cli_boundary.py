"""The command line's one boundary: a user's mistake is one line and exit 2, anything
unforeseen one line naming the log file that holds its traceback and exit 70; names that
cannot name a file are refused before any path is built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import botarena
from botarena.cli import app
from botarena.core import crashlog
from botarena.core.names import MAX_PART_BYTES, MAX_PATH_BYTES, name_problem
from botarena.core.reader import Kind, ReadError, read_bytes
from test_registry import TOY, install

BOOM = """
import typer
app = typer.Typer()

@app.command()
def boom() -> None:
    raise RuntimeError("the plug-in's bug\\nsecond line")

@app.command()
def other() -> None:
    pass
"""


def test_an_unforeseen_error_is_one_line_naming_its_log_and_exit_70(tmp_path: Path) -> None:
    install(tmp_path, "toy_games", "1.2", "toy = toygame")
    (tmp_path / "toygame").mkdir()
    (tmp_path / "toygame" / "__init__.py").write_text(TOY)
    (tmp_path / "toygame" / "cli.py").write_text(BOOM)
    logs = tmp_path / "logs"
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "toy", "boom"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "BOTARENA_LOG_DIR": str(logs)},
    )
    assert run.returncode == 70
    (log,) = logs.iterdir()
    assert run.stderr == (
        "botarena: internal error (RuntimeError: the plug-in's bug second line); the"
        f" traceback is in {log}\n"
    )
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "toygame/cli.py" in text
    assert "'toy', 'boom'" in text or "toy boom" in text


def test_the_log_falls_back_to_the_temporary_folder(tmp_path: Path, monkeypatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file, not a folder")
    monkeypatch.setenv("BOTARENA_LOG_DIR", str(blocked / "logs"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    try:
        raise ValueError("x")
    except ValueError as exc:
        path = crashlog.write(exc)
    assert path.parent == tmp_path and "ValueError: x" in path.read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["labyrinth", "check-post", "a\x00b"],
        ["play", "labyrinth", "post:a\x00b", "post:c"],
        ["verify", "game\x00.json"],
        ["play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "--replay", "r\x00"],
        ["tournament", "standings", "cup", "--db", "sqlite:///x\x00.db"],
    ],
    ids=lambda args: args[0] + " " + args[1],
)
def test_a_nul_byte_in_any_argument_is_one_line_and_exit_2(args: list[str]) -> None:
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    assert done.output.splitlines()[-1].startswith("botarena: error: the argument ")
    assert done.output.splitlines()[-1].endswith(" holds a NUL byte")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("a" * (MAX_PART_BYTES + 1), f"has a part longer than {MAX_PART_BYTES} bytes"),
        ("é" * 128, f"has a part longer than {MAX_PART_BYTES} bytes"),  # 256 bytes
        ("a/" * (MAX_PATH_BYTES // 2 + 1), f"is longer than {MAX_PATH_BYTES} bytes"),
        ("a\x00", "holds a NUL byte"),
        ("\ud800.txt", "is not valid text (a lone surrogate)"),
    ],
)
def test_a_file_name_no_filesystem_takes_is_refused_by_every_reader(
    name: str, problem: str
) -> None:
    with pytest.raises(ReadError) as refused:
        read_bytes(name, Kind("maze", 1 << 20))
    assert str(refused.value).endswith(f": the maze's file name {problem}")
    done = CliRunner().invoke(
        app, ["play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "--map", name]
    )
    assert done.exit_code == 2 and done.output.rstrip().endswith(problem)


@given(st.text(max_size=300))
def test_a_name_is_refused_exactly_when_open_could_not_take_it(name: str) -> None:
    problem = name_problem(name)
    try:
        encoded = os.fsencode(name)
    except UnicodeEncodeError:
        assert problem == "is not valid text (a lone surrogate)"
        return
    fits = b"\x00" not in encoded and all(len(p) <= MAX_PART_BYTES for p in encoded.split(b"/"))
    assert (problem is None) == fits


def test_the_version_is_still_printed_with_the_boundary() -> None:
    assert CliRunner().invoke(app, ["--version"]).output == f"botarena {botarena.__version__}\n"
