"""The organiser's lists (`/api/admin/bots|users|games|uploads|workers`): every bot with
its owner, versions and the one playing; every user; the games by bot and status with
paging; the upload queue; the workers by their heartbeats. A contestant gets 403."""

from __future__ import annotations

from typing import Any

import pytest

from arena_helpers import (
    BROKEN,
    client,
    good_bot,
    opened_contest,
    organiser,
    register,
    settle,
    upload,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    with opened_contest(tmp_path_factory.mktemp("overview")) as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", BROKEN, name="walker")
        settle(store)
        upload(web, alice, "bot.py", good_bot(), name="walker")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        assert work(store, LocalExecutor(0), ["cup"], games=4, seconds=60, sandbox=False) == 4
        upload(web, bob, "bot.py", good_bot() + "# v2\n", name="runner")  # waits: no worker
        yield store, web, organiser(web), alice


@pytest.mark.slow  # seconds on 2 cores
def test_the_bots_and_users_as_the_organiser_sees_them(site: Any) -> None:
    _, web, admin, alice = site
    bots = {row["bot"]: row for row in web.get("/api/admin/bots", headers=admin).json()}
    assert set(bots) == {"walker", "runner"}
    walker, runner = bots["walker"], bots["runner"]
    assert (walker["owner"], walker["versions"], walker["status"], walker["playing"]) == (
        "alice",
        2,
        "active",
        2,
    )
    assert (runner["versions"], runner["status"], runner["playing"]) == (2, "building", 1)
    standings = {row["bot"]: row for row in web.get("/api/standings").json()}
    assert walker["games"] == standings["walker"]["games"] and walker["rank"] >= 1
    users = {row["user"]: row for row in web.get("/api/admin/users", headers=admin).json()}
    assert {name: (row["organiser"], row["bots"]) for name, row in users.items()} == {
        "admin": (True, 0),
        "alice": (False, 1),
        "bob": (False, 1),
    }
    for path in ("bots", "users", "games", "uploads", "workers"):
        assert web.get(f"/api/admin/{path}", headers=alice).status_code == 403, path
        assert web.get(f"/api/admin/{path}").status_code == 401, path


def test_the_games_filter_by_bot_and_status_and_page(site: Any) -> None:
    _, web, admin, _ = site
    every = web.get("/api/admin/games?limit=100", headers=admin).json()
    ids = [game["id"] for game in every["games"]]
    assert ids == sorted(ids, reverse=True) and every["next"] is None
    assert len(ids) == 4 + 2  # the ladder's four games, two test games (v1 did not build)
    first = web.get("/api/admin/games?limit=3", headers=admin).json()
    rest = web.get(f"/api/admin/games?limit=100&before={first['next']}", headers=admin).json()
    assert [g["id"] for g in first["games"] + rest["games"]] == ids
    walker = web.get("/api/admin/games?bot=walker&limit=100", headers=admin).json()["games"]
    assert walker and all("walker" in game["bots"] for game in walker)
    done = web.get("/api/admin/games?status=done&limit=100", headers=admin).json()["games"]
    assert {game["status"] for game in done} == {"done"}
    wrong = web.get("/api/admin/games?status=lost", headers=admin)
    assert wrong.status_code == 400


def test_the_upload_queue_and_the_workers(site: Any) -> None:
    store, web, admin, _ = site
    queue = web.get("/api/admin/uploads", headers=admin).json()
    assert [(q["bot"], q["version"], q["status"], q["worker"]) for q in queue] == [
        ("runner", 2, "building", None)
    ]
    runner = store.register_runner()
    try:
        workers = web.get("/api/admin/workers", headers=admin).json()
        mine = next(w for w in workers if w["worker"] == runner)
        assert mine["live"] is True and mine["heartbeat_s"] < 5
    finally:
        store.retire_runner(runner)
