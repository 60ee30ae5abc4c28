"""A season moved to a new release mid-contest: `store upgrade` records the release every
worker must be, and a worker of the old release still running stops claiming (docs/store.md)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

import botarena
from botarena.games import get_game
from botarena.tournament import executors, ladder, releases, runner, storeops
from botarena.tournament.manage import BotRequest, Settings, create
from botarena.tournament.migrations import HEAD
from botarena.tournament.store import Store, games, store_meta

OLD = "0.0.1"
"""The release the store is made to name: not this botarena's."""


def made_by(store: Store, release: str) -> None:
    """Make the store name `release` as the one its workers must be."""
    with store.transaction() as conn:
        conn.execute(
            store_meta.update().where(store_meta.c.key == "botarena_version").values(value=release)
        )


def a_ladder(tmp_path: Path) -> tuple[Store, str]:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    store = Store.open(db)
    requests = [BotRequest(name, "builtin:amazes/random") for name in "abc"]
    settings = Settings(
        schedule="ladder", seed=1, replay_dir=tmp_path / "r", options={"turns": "40"}
    )
    create(store, "L", get_game("amazes"), requests, settings, tmp_path / "build", print)
    assert releases.store_version(store) == botarena.__version__  # recorded as it is made
    return store, db


def test_upgrade_moves_the_store_to_this_release_and_says_so(tmp_path: Path) -> None:
    store, db = a_ladder(tmp_path)
    made_by(store, OLD)
    with pytest.raises(ladder.LadderError) as refused:
        releases.check_version(store, db)
    assert str(refused.value) == (
        f"this worker is botarena {botarena.__version__}, the store {db} is botarena {OLD}:"
        f" install botarena {OLD}, or move the store to this release with `botarena store"
        f" upgrade --db {db}` (docs/store.md)"
    )
    assert storeops.upgrade(db) == (
        f"revision {HEAD} (botarena {OLD})",
        f"revision {HEAD} (botarena {botarena.__version__})",
    )
    assert releases.store_version(store) == botarena.__version__
    releases.check_version(store, db)  # this release's workers are taken now
    assert storeops.upgrade(db) == (f"revision {HEAD}", f"revision {HEAD}")
    store.close()


def test_a_store_without_a_release_is_left_without_one(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    Store.open(db).close()
    assert storeops.upgrade(db) == (f"revision {HEAD}", f"revision {HEAD}")
    store = Store.open(db)
    assert releases.store_version(store) is None  # `tournament new` records it
    store.close()


def test_a_worker_of_the_old_release_stops_once_the_store_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It finishes the games it holds, claims no more, and says why in one line."""
    monkeypatch.setattr(runner, "RELEASE_S", 0.2)
    store, _ = a_ladder(tmp_path)
    raised: list[BaseException] = []

    def work() -> None:
        try:
            runner.work(store, executors.LocalExecutor(0), ["L"], idle_exit=False)
        except BaseException as exc:  # handed to the test's thread
            raised.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    made_by(store, "9.9.9")
    worker.join(30)
    assert not worker.is_alive()
    assert len(raised) == 1 and isinstance(raised[0], ladder.LadderError), raised
    assert str(raised[0]).startswith(
        f"the store was upgraded to botarena 9.9.9 while this worker (botarena"
        f" {botarena.__version__}) ran: start the new release's workers; it stopped after"
    )
    with store.engine.connect() as conn:
        claimed = conn.execute(
            sa.select(sa.func.count()).select_from(games).where(games.c.status == "claimed")
        ).scalar()
    assert claimed == 0
    store.close()
