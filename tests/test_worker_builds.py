"""Workers build uploads from the store (#36): a worker that claims a game of a version it has
not built builds it into its own content-addressed cache, the artefact is checked against its
key before each game, and a game it cannot set up is given back unplayed, never rated."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from arena_helpers import client, good_bot, new_contest, opened_contest, register, settle, upload
from botarena.tournament.store import Store, games, ladder_bots
from conftest import fresh_database


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with opened_contest(tmp_path, "budget_ms=2000") as opened:
        yield opened


def uploaded(store: Store) -> None:
    """alice's Python bot uploaded, built and tested by the site's worker: on the ladder."""
    with client(store) as web:
        assert upload(web, register(web, "alice"), "bot.py", good_bot()).status_code == 202
    settle(store)


def ladder_games(store: Store) -> list[Any]:
    with store.engine.connect() as conn:
        return conn.execute(
            sa.select(games.c.seats, games.c.status, games.c.statuses)
            .where(games.c.key.like("cup/ladder/%"))
            .order_by(games.c.id)
        ).all()


def ratings(store: Store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return dict(conn.execute(sa.select(ladder_bots.c.label, ladder_bots.c.games)).all())


def play(store: Store, count: int | None = None, seconds: float = 60) -> int:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    return work(store, LocalExecutor(0), ["cup"], games=count, seconds=seconds, sandbox=False)


def check_played_by_another_worker(store: Store, site: Path, worker: Path) -> None:
    """The site's worker built the upload in `site`; that build folder is gone and a worker
    with its own folder `worker` plays: it builds the bot itself, every game is played."""
    shutil.rmtree(site / ".botarena-build")
    assert play(store, 3) == 3
    played = ladder_games(store)
    assert [(status, statuses) for _, status, statuses in played] == [("done", ["ok", "ok"])] * 3
    assert ratings(store) == {"alice": 3, "sample": 3}
    built = [p.parent for p in (worker / ".botarena-build").glob("python-*/.botarena-artefact")]
    assert len(built) == 1 and (built[0] / "bot.py").exists()


@pytest.mark.slow
def test_a_worker_builds_the_upload_it_plays_from_the_store(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite keeps its build cache beside the store, so the second worker there is the
    same folder: its cache is emptied as a new machine's would be."""
    uploaded(store)
    with store.engine.connect() as conn:
        spec = conn.execute(sa.text("SELECT spec FROM bots WHERE name = 'alice'")).scalar()
    assert spec is not None and spec.startswith("upload:")  # no path of the site's machine
    check_played_by_another_worker(store, tmp_path, tmp_path)


@pytest.mark.slow
def test_on_postgresql_a_worker_in_another_folder_builds_it(
    postgres_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: PostgreSQL, the upload built by the site's worker, its build folder
    removed, `tournament work` from another folder: its games were `crashed` and rated."""
    site, worker = tmp_path / "site", tmp_path / "worker"
    site.mkdir()
    worker.mkdir()
    monkeypatch.chdir(site)  # a PostgreSQL contest's worker builds in its working folder
    db = fresh_database(postgres_server)
    new_contest(db, site, "budget_ms=2000")
    store = Store.open(db)
    try:
        uploaded(store)
        monkeypatch.chdir(worker)
        check_played_by_another_worker(store, site, worker)
    finally:
        store.close()


@pytest.mark.slow
def test_a_corrupt_artefact_is_found_before_the_game_and_built_again(
    store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    uploaded(store)
    assert play(store, 1) == 1
    (artefact,) = (tmp_path / ".botarena-build").glob("python-*/bot.py")
    artefact.write_text("raise SystemExit(1)\n")  # changed behind the jury's back
    with caplog.at_level(logging.WARNING, logger="botarena"):
        assert play(store, 1) == 1
    assert "its built folder" in caplog.text and "built again" in caplog.text
    assert [statuses for _, _, statuses in ladder_games(store)] == [["ok", "ok"]] * 2
    assert ratings(store) == {"alice": 2, "sample": 2}


@pytest.mark.slow
def test_a_game_this_worker_cannot_set_up_is_given_back_unplayed_and_unrated(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The upload built where it was tested but does not build on this worker (a compiler
    missing here, say): not charged to the bot, the game left for another worker."""
    from botarena.arena import pipeline
    from botarena.tournament.build import BuildError

    uploaded(store)
    shutil.rmtree(tmp_path / ".botarena-build")

    def fails(*_args: Any) -> Any:
        raise BuildError("bot 'alice' did not build: gcc not found on this worker")

    monkeypatch.setattr(pipeline, "_build", fails)
    with caplog.at_level(logging.WARNING, logger="botarena"):
        assert play(store, seconds=3) == 0
    assert [(status, statuses) for _, status, statuses in ladder_games(store)] == [
        ("pending", None)  # the two games its one slot held (one playing, one queued) given
    ] * 2  # back; the worker then leaves alice's games alone
    assert ratings(store) == {"alice": 0, "sample": 0}
    assert (
        "given back unplayed (a jury failure): upload 1 (alice) does not build on this worker:"
        " bot 'alice' did not build: gcc not found on this worker"
    ) in caplog.text
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert play(store, 1) == 1  # another worker (or this one, fixed) plays the game given back
    assert [status for _, status, _ in ladder_games(store)] == ["done", "pending"]
    assert ratings(store) == {"alice": 1, "sample": 1}


def test_the_cache_key_holds_the_toolchain_and_verify_names_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from botarena.tournament import build

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bot.py").write_text("print('hi')\n")
    _, first = build.built_folder(tmp_path / "src", "bot.py", tmp_path / "cache", name="b")
    assert build.verify(first) == ""
    monkeypatch.setattr(build, "toolchain", lambda language: "Python 9.9")
    _, other = build.built_folder(tmp_path / "src", "bot.py", tmp_path / "cache", name="b")
    assert other != first and build.verify(other) == ""
    (other / "extra.txt").write_text("x")
    assert build.verify(other) == "1 file(s) differ from its manifest: extra.txt"
    (first / ".botarena-artefact").unlink()
    assert build.verify(first).startswith("its manifest cannot be read")
