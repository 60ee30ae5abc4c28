"""The contest's finals as docs/site.md says: they freeze the ladder (it plays no more games),
leave the sample bot out unless asked, and have their own standings (`/api/stages`, and
`/api/standings?tournament=NAME`), ranked as the game's contest ranked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena_helpers import client, good_bot, opened_contest, organiser, register, settle, upload
from botarena.tournament.store import Store

pytestmark = pytest.mark.slow  # builds, tests and plays about twenty games: 6 s


@pytest.fixture
def contest(tmp_path: Path) -> Any:
    with opened_contest(tmp_path) as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        assert upload(web, alice, "bot.py", good_bot(), name="walker").status_code == 202
        assert upload(web, bob, "bot.py", good_bot(), name="runner").status_code == 202
        settle(store)
        _work(store, 3)
        yield store, web, organiser(web)


def _work(store: Store, games: int) -> int:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    return work(store, LocalExecutor(0), ["cup"], games=games, seconds=30, sandbox=False)


def _ladder_games(store: Store) -> int:
    return len(store.games(store.tournament("cup")))


def test_finals_leave_the_sample_out_freeze_the_ladder_and_rank_their_own_games(
    contest: Any,
) -> None:
    store, web, admin = contest
    assert {row["bot"] for row in web.get("/api/standings").json()} == {
        "walker",
        "runner",
        "sample",
    }
    finals = web.post("/api/admin/finals", headers=admin, json={"games_per_pair": 2})
    assert finals.status_code == 200, finals.text
    assert sorted(finals.json()["bots"]) == ["runner", "walker"]
    assert finals.json()["games"] == 4  # each seat order, twice
    before = _ladder_games(store)
    ladder_table = web.get("/api/standings").json()
    assert _work(store, 4) == 4  # the finals' games, and no ladder game
    assert _ladder_games(store) == before
    assert web.get("/api/standings").json() == ladder_table
    stages = web.get("/api/stages").json()
    assert [(s["tournament"], s["stage"], s["games"], s["played"]) for s in stages] == [
        ("cup-finals", "finals", 4, 4)
    ]
    stage = web.get("/api/stages/cup-finals").json()
    rows = stage["standings"]
    assert sorted(row["bot"] for row in rows) == ["runner", "walker"]
    assert [row["games"] for row in rows] == [4, 4]
    assert sum(row["wins"] for row in rows) == sum(row["losses"] for row in rows)
    assert web.get("/api/standings?tournament=cup-finals").json() == rows
    missing = web.get("/api/stages/cup-semis")
    assert missing.status_code == 404
    assert missing.json() == {"error": "no stage 'cup-semis' of cup (its stages: cup-finals)"}
    assert web.get("/api/standings?tournament=nope").status_code == 404


def test_the_sample_bot_plays_the_finals_when_asked(contest: Any) -> None:
    _, web, admin = contest
    finals = web.post("/api/admin/finals", headers=admin, json={"sample": True})
    assert sorted(finals.json()["bots"]) == ["runner", "sample", "walker"]
    assert finals.json()["games"] == 6  # three pairs, each seat order
    wrong = web.post("/api/admin/finals", headers=admin, json={"sample": "yes"})
    assert wrong.status_code == 400
