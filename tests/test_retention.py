"""A contest keeps what matters (tournament/retention.py): every result, and the replays of
each version's last `keep_replays` ladder games; the test games keep theirs; the standings
do not move; a dropped replay is a 404 that says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from arena_helpers import client, good_bot, opened_contest, register, settle, upload
from botarena.tournament.store import games, replays


def _with_replays(store: Any) -> set[int]:
    with store.engine.connect() as conn:
        return set(conn.execute(sa.select(replays.c.game_id)).scalars())


@pytest.mark.slow  # ten ladder games: 5 s
def test_prune_keeps_each_versions_last_games_and_every_result(tmp_path: Path) -> None:
    from botarena.arena.cli import app
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    with opened_contest(tmp_path, "keep_replays=2") as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", good_bot(), name="walker")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        assert work(store, LocalExecutor(0), ["cup"], games=10, seconds=60, sandbox=False) == 10
        ladder = store.tournament("cup")
        played = [g for g in store.games(ladder) if g.status == "done"]
        tests = [g.id for g in store.games(store.tournament("cup-uploads"))]
        standings = web.get("/api/standings").json()
        files = {g.id: Path(g.replay) for g in played}
        assert all(path.exists() for path in files.values())
        want: set[int] = set()  # each version's two newest games, from the rules' words
        for label in {label for g in played for label in g.seats}:
            want |= set([g.id for g in sorted(played, key=lambda g: -g.id) if label in g.seats][:2])
        db = store.engine.url.render_as_string(hide_password=False)
        done = CliRunner().invoke(app, ["prune", "cup", "--db", db])
        assert done.exit_code == 0, done.output
        assert f"{len(played) - len(want)} replays dropped" in done.output
        kept = _with_replays(store)
        assert kept == want | set(tests)
        assert {i for i, path in files.items() if path.exists()} == want
        assert web.get("/api/standings").json() == standings
        with store.engine.connect() as conn:
            statuses = conn.execute(
                sa.select(games.c.status).where(games.c.tournament_id == ladder.id)
            ).scalars()
            assert list(statuses) == ["done"] * len(played)  # every result kept
        gone = min(set(files) - want)
        answer = web.get(f"/api/games/{gone}/replay")
        assert (answer.status_code, answer.json()) == (
            404,
            {"error": f"game {gone}'s replay was not kept (its result was)"},
        )
        again = CliRunner().invoke(app, ["prune", "cup", "--db", db])
        assert "0 replays dropped" in again.output


@pytest.mark.slow  # ten ladder games: 5 s
def test_workers_prune_as_they_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from botarena.tournament import retention
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    monkeypatch.setattr(retention, "PRUNE_EVERY", 5)
    with opened_contest(tmp_path, "keep_replays=1") as store, client(store) as web:
        upload(web, register(web, "alice"), "bot.py", good_bot(), name="walker")
        settle(store)
        assert work(store, LocalExecutor(0), ["cup"], games=10, seconds=60, sandbox=False) == 10
        ladder = [g.id for g in store.games(store.tournament("cup"))]
        assert _with_replays(store) & set(ladder) == {max(ladder)}  # walker-sample, last one


def test_a_game_voided_before_it_was_played_has_no_replay_to_keep(tmp_path: Path) -> None:
    """A pending game whose seat's version was replaced is void unplayed (#36's rehearsal
    read one): its 404 says so, not that a result was kept."""
    with opened_contest(tmp_path) as store, client(store) as web:
        ladder = store.tournament("cup")
        assert ladder is not None
        with store.transaction() as conn:
            game = conn.execute(
                games.insert()
                .values(tournament_id=ladder.id, key="cup/void", round=0, pairing="a-b", idx=0,
                        seed=1, seats=["a", "b"], status="void")
                .returning(games.c.id)
            ).scalar_one()  # fmt: skip
        answer = web.get(f"/api/games/{game}/replay")
        assert (answer.status_code, answer.json()) == (
            404,
            {"error": f"game {game} was void before it was played: it has no replay"},
        )
