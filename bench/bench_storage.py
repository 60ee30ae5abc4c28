"""What a contest's ladder stores per 1 000 games, with every replay kept and with the
retention rule (`keep_replays`, tournament/retention.py): the replay files and the SQLite
database's live pages, after the same games of the same bots on the same seeds."""

from __future__ import annotations

import sys
from pathlib import Path

import sqlalchemy as sa

from tempdirs import readable_tempdir

BOTS = ("random", "explorer", "random", "explorer", "random", "explorer")
KEEP = 50
"""The contest's default `keep_replays` (arena/cli.py SITE_SETTINGS)."""


def _ladder(folder: Path, keep: int | None) -> str:
    """An Amazes ladder of the built-in bots in `folder`, its replays in `folder/replays`;
    its store URL."""
    from typer.testing import CliRunner

    from botarena.tournament.cli import app
    from botarena.tournament.store import Store, tournaments

    db = f"sqlite:///{folder / 'ladder.db'}"
    replays = folder / "replays"
    args = ["new", "L", "--game", "amazes", "--schedule", "ladder", "--db", db, "--seed", "7"]
    args += ["--replays", str(replays)]
    for index, bot in enumerate(BOTS):
        args += ["--bot", f"{bot}{index}=builtin:amazes/{bot}"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    if keep is not None:
        store = Store.open(db)
        ladder = store.tournament("L")
        assert ladder is not None
        with store.transaction() as conn:
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == ladder.id)
                .values(plan={**ladder.plan, "keep_replays": keep})
            )
        store.close()
    return db


def _stored_bytes(folder: Path, db: str) -> tuple[int, int]:
    """(bytes of replay files, bytes of the database's pages in use)."""
    files = sum(p.stat().st_size for p in (folder / "replays").rglob("*") if p.is_file())
    engine = sa.create_engine(db)
    with engine.connect() as conn:
        size = conn.exec_driver_sql("PRAGMA page_size").scalar_one()
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
        free = conn.exec_driver_sql("PRAGMA freelist_count").scalar_one()
    engine.dispose()
    return files, (pages - free) * size


def stored(games: int, keep: int | None) -> tuple[int, int]:
    """Replay files and database bytes after `games` ladder games (keeping `keep`)."""
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work
    from botarena.tournament.store import Store

    with readable_tempdir() as name:
        folder = Path(name)
        db = _ladder(folder, keep)
        store = Store.open(db)
        try:
            played = work(store, LocalExecutor(0), ["L"], games=games, sandbox=False)
            assert played == games, played
        finally:
            store.close()
        return _stored_bytes(folder, db)


def run(quick: bool) -> list[dict]:
    games = 400 if quick else 1000
    rows = []
    for label, keep in (("every replay kept", None), (f"keep_replays={KEEP}", KEEP)):
        files, database = stored(games, keep)
        per_1000 = 1000 / games / 1e6
        rows += [
            {
                "name": f"storage per 1 000 Amazes ladder games, {label}: replay files",
                "value": files * per_1000,
                "unit": "MB",
                "goal": "",
            },
            {
                "name": f"storage per 1 000 Amazes ladder games, {label}: database pages in use",
                "value": database * per_1000,
                "unit": "MB",
                "goal": "",
            },
        ]
    return rows


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        print(f"{row['value']:10.2f} {row['unit']:3} {row['name']}")
