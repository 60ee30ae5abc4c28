"""A damaged or foreign store ends every command that opens it in one line naming the store
and the problem, exit 2 (#34): pages overwritten in the middle of a real SQLite file, found at
open or mid-query, and schema_version rows no botarena writes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botarena.cli import app
from botarena.tournament.store import Store, StoreError
from conftest import run_botarena

COMMANDS = [
    ("tournament", "list"),
    ("tournament", "standings", "cup"),
    ("tournament", "games", "cup"),
    ("tournament", "cross-table", "cup"),
    ("tournament", "run", "cup", "--workers", "0"),
    ("tournament", "add-bot", "cup", "c=builtin:amazes/random"),
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real store of 600 scheduled games (about 40 pages)."""
    folder = tmp_path_factory.mktemp("store")
    result = CliRunner().invoke(
        app,
        [
            "tournament", "new", "cup", "--game", "amazes", "--games-per-pair", "300",
            "--bot", "builtin:amazes/random", "--bot", "b=builtin:amazes/random",
            "--db", f"sqlite:///{folder / 'cup.db'}",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return folder / "cup.db"


def copy(made: Path, tmp_path: Path) -> Path:
    path = tmp_path / "cup.db"
    shutil.copy(made, path)
    return path


def damaged(made: Path, tmp_path: Path) -> Path:
    """The store with its middle half overwritten: the header and schema pages survive,
    so it opens, and the games' pages are garbage."""
    path = copy(made, tmp_path)
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.seek(size // 4)
        file.write(b"\xa5" * (size // 2))
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_damaged_pages_are_one_line_in_every_command(
    command: tuple[str, ...], made: Path, tmp_path: Path
) -> None:
    path = damaged(made, tmp_path)
    result = CliRunner().invoke(app, [*command, "--db", f"sqlite:///{path}"])
    assert (result.exit_code, result.output) == (
        2,
        f"botarena: error: --db sqlite:///{path}: the store is damaged (database disk image"
        " is malformed); restore it from a backup\n",
    )


def test_damaged_pages_as_a_user_runs_it(made: Path, tmp_path: Path) -> None:
    path = damaged(made, tmp_path)
    run = run_botarena("tournament", "standings", "cup", "--db", f"sqlite:///{path}", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (
        2,
        f"botarena: error: --db sqlite:///{path}: the store is damaged (database disk image"
        " is malformed); restore it from a backup\n",
    )


def test_a_file_that_is_no_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "noise.db"
    path.write_bytes(b"\x13" * 50_000)
    with pytest.raises(StoreError) as raised:
        Store.open(f"sqlite:///{path}")
    assert str(raised.value) == (
        f"--db sqlite:///{path}: the store is damaged (file is not a database); restore it"
        " from a backup"
    )


def test_another_program_s_database_is_not_written_into(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text)")
    with pytest.raises(StoreError) as raised:
        Store.open(f"sqlite:///{path}")
    assert str(raised.value) == (
        f"--db sqlite:///{path}: the database holds tables but no botarena store (no"
        " schema_version table); give another --db"
    )
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


@pytest.mark.parametrize(
    ("rows", "shown"),
    [
        (["0"], "0"),
        (["'abc'"], "'abc'"),
        (["NULL"], "NULL"),
        (["99999999999999999999999"], "1e+23"),
        (["-1"], "-1"),
        (["1001"], "1001"),
        (["x'00ff'"], "b'\\x00\\xff'"),
        ([], "0 rows"),
        (["1", "1"], "2 rows"),
    ],
)
@pytest.mark.parametrize("read_only", [False, True])
def test_a_schema_version_no_botarena_writes_is_one_line(
    rows: list[str], shown: str, read_only: bool, made: Path, tmp_path: Path
) -> None:
    path = copy(made, tmp_path)
    with sqlite3.connect(path) as conn:  # a table without the constraint, as damage leaves it
        conn.execute("DROP TABLE alembic_version")  # a store from before Alembic
        conn.execute("DROP TABLE schema_version")
        conn.execute("CREATE TABLE schema_version (version INTEGER)")
        for row in rows:
            conn.execute(f"INSERT INTO schema_version VALUES ({row})")
    with pytest.raises(StoreError) as raised:
        Store.open(f"sqlite:///{path}", read_only=read_only)
    assert str(raised.value) == (
        f"--db sqlite:///{path}: the store's schema version ({shown}) is not one this"
        " botarena knows (1): the store is damaged or not botarena's; restore it from a backup"
    )
