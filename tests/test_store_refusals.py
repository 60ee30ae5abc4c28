"""A store that is not one (garbage bytes) or of a newer schema: every command that opens it
ends in one line on stderr and exit 2, never a traceback, and writes nothing (#25)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_botarena

COMMANDS = [
    ("tournament", "standings", "cup"),
    ("tournament", "run", "cup"),
    ("tournament", "list"),
    ("tournament", "games", "cup"),
    ("tournament", "work", "--games", "1"),
    ("serve", "--port", "0"),
]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("stores")
    made = run_botarena(
        "tournament", "new", "cup", "--game", "amazes",
        "--bot", "builtin:amazes/random", "--bot", "builtin:amazes/explorer", cwd=folder,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    newer = folder / "newer.db"
    newer.write_bytes((folder / "botarena.db").read_bytes())
    conn = sqlite3.connect(newer)
    with conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00d'")  # a later release's
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file the test compares
    conn.close()
    garbage = folder / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 40)
    made = {"newer": newer, "garbage": garbage, "damaged": folder / "damaged.db"}
    made["damaged"].write_bytes((folder / "botarena.db").read_bytes())
    conn = sqlite3.connect(made["damaged"])
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    roots = conn.execute("SELECT rootpage FROM sqlite_master WHERE tbl_name = 'games'").fetchall()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with open(made["damaged"], "r+b") as file:  # the games' pages and its indexes': the store
        for (root,) in roots:  # opens, its reads fail (a count may read an index alone)
            file.seek((root - 1) * size)
            file.write(bytes(range(256)) * (size // 256))
    return made


@pytest.mark.parametrize("kind", ["newer", "garbage"])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_one_line_and_exit_2(
    stores: dict[str, Path], kind: str, command: tuple[str, ...], tmp_path: Path
) -> None:
    path = stores[kind]
    before = path.read_bytes()
    run = run_botarena(*command, "--db", f"sqlite:///{path}", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("botarena: error: ")
    expected = "newer than this botarena" if kind == "newer" else "file is not a database"
    assert expected in run.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", COMMANDS[:-1], ids=" ".join)
def test_a_store_with_damaged_pages_is_one_line_for_every_command(
    stores: dict[str, Path], command: tuple[str, ...], tmp_path: Path
) -> None:
    """The store opens (its schema page is whole) and breaks at the first read of a game:
    deep inside the command, the same line as at open. (`serve` reads no game before a
    page asks: tests/test_web_server.py shows what a page of a damaged store answers.)"""
    path = stores["damaged"]
    run = run_botarena(*command, "--db", f"sqlite:///{path}", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (
        2,
        f"botarena: error: --db sqlite:///{path}: the store is damaged (database disk image"
        " is malformed); restore it from a backup\n",
    )


@pytest.mark.slow  # seconds on 2 cores
def test_serve_reads_a_store_it_may_not_write(tmp_path: Path) -> None:
    """`serve` only reads: a read-only SQLite URI is served (a writer would fail at its
    first write lock), and the store is left byte for byte as it was."""
    import json
    import re
    import urllib.request

    made = run_botarena(
        "tournament", "new", "cup", "--game", "amazes",
        "--bot", "builtin:amazes/random", "--bot", "builtin:amazes/explorer", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    store = tmp_path / "botarena.db"
    before = store.read_bytes()
    url = f"sqlite:///file:{store}?mode=ro&uri=true"
    server = subprocess.Popen(
        [sys.executable, "-m", "botarena", "serve", "--db", url, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        address = re.search(r"http://\S+/", line)
        assert address, line + server.stderr.read() if server.stderr else line
        with urllib.request.urlopen(address.group(0) + "api/tournaments", timeout=30) as answer:
            listed = json.load(answer)
        assert [(t["name"], t["scheduled"], t["running"]) for t in listed] == [("cup", 2, False)]
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert store.read_bytes() == before
