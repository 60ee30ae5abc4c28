"""The worker-step error boundary: an unexpected error in one step of `work` is logged with
its traceback (one console line naming the log), its claim goes back, and the worker goes on
with the next item; a pool worker killed mid-game costs that game only, in `run` too."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from arena_helpers import client, good_bot, new_contest, register, upload
from botarena.arena import store as arena
from botarena.tournament import ladder
from botarena.tournament.executors import LocalExecutor
from botarena.tournament.runner import run, work
from botarena.tournament.store import Store, games
from test_ladder import make_ladder


def test_a_step_that_raises_is_logged_given_back_and_the_worker_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store, _ = make_ladder(tmp_path, ["a", "b"])
    finish = ladder.finish
    failures = [1]

    def buggy(*args: Any) -> bool:
        if failures[0]:
            failures[0] -= 1
            raise KeyError("a bug in recording a result")
        return finish(*args)

    monkeypatch.setattr(ladder, "finish", buggy)
    assert work(store, LocalExecutor(0), ["L"], games=2, sandbox=False) == 2
    log = tmp_path / "botarena-worker.log"
    assert "KeyError: 'a bug in recording a result'" in log.read_text()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "internal error" in line]
    assert len(lines) == 1 and str(log) in lines[0] and "going on" in lines[0]
    assert "Traceback" not in err
    with store.engine.connect() as conn:
        statuses = sorted(conn.execute(sa.select(games.c.status)).scalars())
    assert statuses == ["done", "done"]  # the failed one went back and was played again


@pytest.mark.slow
def test_a_worker_waits_out_a_store_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store that fails for a moment (PostgreSQL restarted: #36's rehearsal lost every
    worker to one failed read) is waited for, then the worker goes on; one still failing
    after the pauses of STORE_RETRY_S stops it."""
    from botarena.tournament import runner

    store, _ = make_ladder(tmp_path, ["a", "b"])
    tournaments = store.tournaments
    down = [1]

    def restarting() -> Any:
        if down[0]:
            down[0] -= 1
            raise sa.exc.OperationalError("SELECT", {}, Exception("server closed the connection"))
        return tournaments()

    monkeypatch.setattr(runner, "STORE_RETRY_S", (0.01, 0.01))
    monkeypatch.setattr(store, "tournaments", restarting)
    assert work(store, LocalExecutor(0), ["L"], games=2, sandbox=False, idle_exit=False) == 2
    assert "going on" in capsys.readouterr().err
    down[0] = 10**6
    with pytest.raises(sa.exc.OperationalError):
        work(store, LocalExecutor(0), ["L"], games=2, sandbox=False, idle_exit=False)


def test_a_worker_whose_every_step_fails_stops_for_its_supervisor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = make_ladder(tmp_path, ["a", "b"])

    def broken(*args: Any) -> bool:
        raise KeyError("always")

    monkeypatch.setattr(ladder, "finish", broken)
    with pytest.raises(KeyError):
        work(store, LocalExecutor(0), ["L"], games=50, sandbox=False)
    with store.engine.connect() as conn:
        assert "claimed" not in conn.execute(sa.select(games.c.status)).scalars().all()


def test_an_upload_step_that_raises_gives_the_upload_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from botarena.arena.pipeline import Uploads

    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, "budget_ms=500")
    store = Store.open(db)
    with client(store) as web:
        upload(web, register(web, "alice"), "bot.py", good_bot())
    built = Uploads._built
    failures = [1]

    def buggy(self: Uploads, step: Any, result: dict[str, Any]) -> Any:
        if failures[0]:
            failures[0] -= 1
            raise RuntimeError("a bug after the build")
        return built(self, step, result)

    monkeypatch.setattr(Uploads, "_built", buggy)
    work(store, LocalExecutor(0), ["cup"], games=1, sandbox=False)
    with store.engine.connect() as conn:
        status = conn.execute(sa.select(arena.uploads.c.status)).scalar_one()
    assert status == "active"  # given back after the bug, built again and tested
    assert "a bug after the build" in (tmp_path / "botarena-worker.log").read_text()
    store.close()


@pytest.mark.slow
def test_a_pool_whose_worker_was_killed_is_started_again(tmp_path: Path) -> None:
    """`tournament run`'s pool: a worker killed -9 breaks the pool; the runner logs it,
    starts a new one after the back-off and plays every game (it stopped with an error)."""
    import time

    from botarena.games import get_game
    from botarena.tournament.manage import BotRequest, Settings, create
    from botarena.tournament.runner import job_for

    store = Store.open(f"sqlite:///{tmp_path / 'cup.db'}")
    requests = [BotRequest(name, "builtin:amazes/random") for name in ("a", "b")]
    settings = Settings(schedule="round-robin", games_per_pair=3, replay_dir=tmp_path / "r")
    cup, _ = create(store, "cup", get_game("amazes"), requests, settings, tmp_path / "b", print)
    executor = LocalExecutor(1)
    executor.backoff.first = 0.05
    try:
        first = store.games(cup)[0]
        specs = {bot.label: (bot.spec, bot.workdir) for bot in store.bots(cup)}
        assert "scores" in executor.submit(job_for(cup, first, specs)).result()
        assert executor.pool is not None
        (pid,) = executor.pool._processes  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not executor.pool._broken:  # type: ignore[attr-defined]
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert run(store, cup, executor, sandbox=False) == len(store.games(cup))
    finally:
        executor.shutdown()
    assert set(store.counts(cup)) == {"done"}
    store.close()
