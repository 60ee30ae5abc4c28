"""The store's schema under Alembic (#36): revisions that make exactly the live tables, a store
of the hand-kept version 1 refused until `botarena store upgrade` brings it up, a revision
added mid-season, and `store backup` and `store check` on SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
import sqlalchemy as sa

from botarena.tournament.migrations import HEAD
from conftest import fresh_database, run_botarena

RANDOM, EXPLORER = "builtin:amazes/random", "builtin:amazes/explorer"
NEXT = f"{int(HEAD) + 1:04d}"
"""A revision a later release would add (HEAD: this botarena's)."""


def ladder(db: str, cwd: Path, games: int = 6) -> None:
    """A ladder of three Amazes bots with `games` played, in the store at `db`."""
    made = run_botarena(
        "tournament", "new", "cup", "--game", "amazes", "--schedule", "ladder",
        "--bot", f"a={RANDOM}", "--bot", f"b={EXPLORER}", "--bot", f"c={RANDOM}",
        "-o", "turns=40", "--db", db, cwd=cwd,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    played = run_botarena("tournament", "run", "cup", "--games", str(games), "--db", db, cwd=cwd)
    assert played.returncode == 0, played.stderr


def engine_of(db: str) -> sa.Engine:
    return sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))


def live_differences(db: str) -> list[object]:
    """What Alembic's autogenerate finds between the store at `db` and the live tables."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import botarena.arena.store  # noqa: F401 - the site's tables join the live metadata
    from botarena.tournament.schema import metadata

    engine = engine_of(db)
    try:
        with engine.connect() as conn:
            found = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()
    return [d for d in found if not (d[0] == "remove_table" and d[1].name == "alembic_version")]


def legacy(db: str) -> None:
    """Make the store at `db` what botarena 0.1 left: hand-kept schema version 1, no Alembic,
    and none of the tables and columns added after the ladder's (the site's came later,
    additively)."""
    engine = engine_of(db)
    with engine.begin() as conn:
        for table in ("alembic_version", "arena_limit_events", "arena_names",
                      "arena_uploads", "arena_bots", "arena_credentials", "arena_users",
                      "arena_contests"):  # fmt: skip
            conn.exec_driver_sql(f"DROP TABLE {table}")
        conn.exec_driver_sql("ALTER TABLE ladder_bots DROP COLUMN role")
        conn.exec_driver_sql("DROP INDEX games_finished")
        conn.exec_driver_sql("UPDATE schema_version SET version = 1")
    engine.dispose()


def test_the_revisions_named_in_the_package_are_alembic_s_chain() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from botarena.tournament import migrations

    config = Config()
    config.set_main_option("script_location", str(migrations.FOLDER))
    script = ScriptDirectory.from_config(config)
    chain = [rev.revision for rev in script.walk_revisions()][::-1]
    assert tuple(chain) == migrations.REVISIONS
    assert script.get_heads() == [migrations.HEAD]


def test_a_new_store_is_made_by_the_revisions_and_equals_the_live_tables(tmp_path: Path) -> None:
    from botarena.tournament.store import Store

    db = f"sqlite:///{tmp_path / 'new.db'}"
    Store.open(db).close()
    assert live_differences(db) == []
    with sqlite3.connect(tmp_path / "new.db") as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(2,)]


COMMANDS = [
    ("tournament", "list"),
    ("tournament", "standings", "cup"),
    ("tournament", "work", "--games", "1"),
    ("arena", "serve", "cup", "--port", "0"),
    ("serve", "--port", "0"),
]


@pytest.mark.slow
def test_a_version_1_store_is_refused_until_upgraded_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = f"sqlite:///{path}"
    ladder(db, tmp_path)
    legacy(db)
    for command in COMMANDS:
        run = run_botarena(*command, "--db", db, cwd=tmp_path)
        assert (run.returncode, run.stderr) == (
            2,
            f"botarena: error: --db {db}: the store's schema is version 1, from before"
            f" migrations: run `botarena store upgrade --db {db}` (after `botarena store"
            " backup`)\n",
        ), command
    upgraded = run_botarena("store", "upgrade", "--db", db, cwd=tmp_path)
    assert (upgraded.returncode, upgraded.stdout) == (
        0,
        f"{db}: schema version 1 (before migrations) -> revision {HEAD}\n",
    )
    assert live_differences(db) == []
    again = run_botarena("store", "upgrade", "--db", db, cwd=tmp_path)
    assert again.stdout == f"{db}: already at revision {HEAD}\n"
    games = run_botarena("tournament", "games", "cup", "--json", "--db", db, cwd=tmp_path)
    assert games.returncode == 0, games.stderr
    assert games.stdout.count('"status": "done"') == 6
    checked = run_botarena("store", "check", "--db", db, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_store_of_an_older_revision_names_the_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from botarena.tournament import migrations
    from botarena.tournament.store import Store, StoreError

    db = f"sqlite:///{tmp_path / 's.db'}"
    Store.open(db).close()
    monkeypatch.setattr(migrations, "REVISIONS", (*migrations.REVISIONS, NEXT))
    monkeypatch.setattr(migrations, "HEAD", NEXT)
    for read_only in (False, True):
        with pytest.raises(StoreError) as raised:
            Store.open(db, read_only=read_only)
        assert str(raised.value) == (
            f"--db {db}: the store's schema is at revision {HEAD}, this botarena's is {NEXT}: run"
            f" `botarena store upgrade --db {db}` (after `botarena store backup`)"
        )


def test_a_store_of_an_unknown_revision_is_refused_as_newer_or_damaged(tmp_path: Path) -> None:
    from botarena.tournament.store import Store, StoreError

    db = f"sqlite:///{tmp_path / 's.db'}"
    Store.open(db).close()
    with sqlite3.connect(tmp_path / "s.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00d'")
    for opener in (Store.open, lambda url: Store.open(url, read_only=True)):
        with pytest.raises(StoreError) as raised:
            opener(db)
        assert str(raised.value) == (
            f"--db {db}: the store's schema revision 'f00d' is newer than this botarena's"
            f" ({HEAD}) or damaged: upgrade botarena, or restore the store from a backup"
        )
    run = run_botarena("store", "upgrade", "--db", db, cwd=tmp_path)
    assert run.returncode == 2 and "newer than this botarena's" in run.stderr


def test_a_store_at_revision_0003_upgrades_its_ladder_versions_to_roles(
    db: str, tmp_path: Path
) -> None:
    """0004 adds `ladder_bots.role` and 0005 `arena_bots.role` (#36): a store of 0003 with a
    ladder upgrades in place, its versions without a role, their ratings kept."""
    from botarena.core.registry import get_game
    from botarena.tournament import storeops
    from botarena.tournament.manage import BotRequest, Settings, create
    from botarena.tournament.store import Store, StoreError

    store = Store.open(db)
    create(
        store,
        "cup",
        get_game("amazes"),
        [BotRequest("a", RANDOM), BotRequest("b", EXPLORER)],
        Settings(schedule="ladder", seed=1, replay_dir=tmp_path),
        tmp_path / "build",
        print,
    )
    store.close()
    engine = engine_of(db)
    with engine.begin() as conn:  # what botarena with revision 0003 left
        conn.exec_driver_sql("UPDATE ladder_bots SET mu = 30 WHERE label = 'a'")
        conn.exec_driver_sql("ALTER TABLE ladder_bots DROP COLUMN role")
        conn.exec_driver_sql("ALTER TABLE arena_bots DROP COLUMN role")  # 0005's
        conn.exec_driver_sql("DROP INDEX games_finished")
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0003'")
    engine.dispose()
    with pytest.raises(StoreError, match=f"at revision 0003, this botarena's is {HEAD}: run"):
        Store.open(db)
    assert storeops.upgrade(db) == ("revision 0003", f"revision {HEAD}")
    assert live_differences(db) == []
    engine = engine_of(db)
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT label, mu, role FROM ladder_bots ORDER BY label")
        found = [tuple(row) for row in rows]
    engine.dispose()
    assert found == [("a", 30.0, None), ("b", 25.0, None)]


ADD_COLUMN = f'''"""For the test: a column added mid-season."""

import sqlalchemy as sa
from alembic import op

revision = "{NEXT}"
down_revision = "{HEAD}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("note", sa.Text, server_default="kept"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("note")
'''


@pytest.mark.slow
def test_a_revision_added_mid_season_upgrades_a_store_with_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release that adds a column: its store upgrades in place, its games kept."""
    from botarena.tournament import migrations, storeops
    from botarena.tournament.store import Store, StoreError

    db = f"sqlite:///{tmp_path / 's.db'}"
    ladder(db, tmp_path, games=3)
    folder = tmp_path / "migrations"
    shutil.copytree(migrations.FOLDER, folder)
    (folder / "versions" / f"{NEXT}_note.py").write_text(ADD_COLUMN)
    monkeypatch.setattr(migrations, "FOLDER", folder)
    monkeypatch.setattr(migrations, "REVISIONS", (*migrations.REVISIONS, NEXT))
    monkeypatch.setattr(migrations, "HEAD", NEXT)
    with pytest.raises(StoreError, match="run `botarena store upgrade"):
        Store.open(db)
    assert storeops.upgrade(db) == (f"revision {HEAD}", f"revision {NEXT}")
    Store.open(db).close()
    with sqlite3.connect(tmp_path / "s.db") as conn:
        notes = conn.execute("SELECT status, note FROM games").fetchall()
    assert notes == [("done", "kept")] * 3


def differ(db: str) -> None:
    """Write one version's game count and another's μ apart from its played games."""
    engine = engine_of(db)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE ladder_bots SET games = games + 1 WHERE label = 'a'")
        conn.exec_driver_sql("UPDATE ladder_bots SET mu = mu + 0.5 WHERE label = 'c'")
    engine.dispose()


def check_and_backup(db: str, out: Path, cwd: Path) -> None:
    """The part of the SQLite and PostgreSQL tests alike: a played ladder checks whole, a
    backup is written once, and two stored values set apart are two lines, exit 1."""
    ladder(db, cwd)
    whole = run_botarena("store", "check", "--db", db, cwd=cwd)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert "3 versions' games, μ and σ against 6 played games" in whole.stdout
    saved = run_botarena("store", "backup", str(out), "--db", db, cwd=cwd)
    assert saved.returncode == 0, saved.stderr
    assert out.stat().st_size > 0
    twice = run_botarena("store", "backup", str(out), "--db", db, cwd=cwd)
    assert (twice.returncode, twice.stderr) == (
        2,
        f"botarena: error: {out}: exists; give a new file (a backup never overwrites)\n",
    )
    differ(db)
    broken = run_botarena("store", "check", "--db", db, cwd=cwd)
    lines = broken.stdout.splitlines()
    assert broken.returncode == 1
    assert len(lines) == 2
    assert lines[0].startswith("cup: a: games ") and lines[0].endswith(" from the played games")
    stored, recomputed = (int(word) for word in lines[0].split()[3:6:2])
    assert stored == recomputed + 1
    assert lines[1].startswith("cup: c: mu ")


@pytest.mark.slow
def test_backup_and_check_on_sqlite(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    check_and_backup(db, tmp_path / "copy.db", tmp_path)
    copied = run_botarena(
        "store", "check", "--db", f"sqlite:///{tmp_path / 'copy.db'}", cwd=tmp_path
    )
    assert copied.returncode == 0, copied.stdout  # the copy is from before the damage


@pytest.mark.slow
def test_backup_and_check_on_postgresql(postgres_server: str, tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is missing: apt-get install postgresql-client")
    db = fresh_database(postgres_server)
    check_and_backup(db, tmp_path / "copy.dump", tmp_path)
    listed = subprocess.run(
        ["pg_restore", "--list", str(tmp_path / "copy.dump")], capture_output=True, text=True
    )
    assert listed.returncode == 0 and "TABLE DATA public ladder_bots" in listed.stdout
    assert live_differences(db) == []


def test_check_names_sqlite_damage_a_line_each(tmp_path: Path) -> None:
    """An index page overwritten: the store still opens, `integrity_check` names it."""
    from botarena.tournament.store import Store

    path = tmp_path / "s.db"
    Store.open(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'ix_games_status'"
        ).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    with open(path, "r+b") as file:
        file.seek((root - 1) * size)
        file.write(bytes(range(256)) * (size // 256))
    run = run_botarena("store", "check", "--db", f"sqlite:///{path}", cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout and all(line.startswith("integrity: ") for line in run.stdout.splitlines())


def test_upgrade_of_a_database_it_cannot_reach_is_one_line(tmp_path: Path) -> None:
    """A server down or still starting is the organiser's to fix, not a crash (#36's
    rehearsal ran `store upgrade` while its PostgreSQL restarted)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = f"postgresql://postgres@127.0.0.1:{port}/cup"
    done = run_botarena("store", "upgrade", "--db", db, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        f"botarena: error: --db postgresql://postgres@127.0.0.1:{port}/cup:"
        " cannot open the database (connection failed: "
    ), done.stderr
    assert len(done.stderr.splitlines()) == 1
