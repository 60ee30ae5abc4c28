"""A contest of a role game on the site: the sample bot of each role, uploads naming their
role, each tested against the other role's sample bot, one table a role, challenges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena_helpers import client, opened_contest, register, settle, upload
from botarena.arena import store as arena
from botarena.core.starters import source
from botarena.tournament.store import Store, bots, ladder_bots

FAST = "max_rounds=3"
"""Mazes n = 3, 4, 5: a game of a few hundred turns."""


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with opened_contest(tmp_path, FAST, "max_bots_per_user=1", game="labyrinth") as opened:
        yield opened


def master_bot(mark: str = "") -> str:
    return source("labyrinth", "master", "python") + f"\n# {mark}\n"


def adventurers_bot(mark: str = "") -> str:
    return source("labyrinth", "adventurers", "python") + f"\n# {mark}\n"


def ladder_roles(store: Store) -> dict[str, str | None]:
    contest = arena.contest(store, "cup")
    assert contest is not None
    with store.engine.connect() as conn:
        rows = conn.execute(
            bots.select().where(bots.c.tournament_id == contest.ladder.id, bots.c.active)
        ).all()
    return {row.name: row.role for row in rows}


def test_a_new_contest_has_a_sample_bot_for_each_role(store: Store) -> None:
    contest = arena.contest(store, "cup")
    assert contest is not None
    assert contest.roles == ("adventurers", "maze master")
    assert contest.sample("maze master") == ("sample-maze-master", "builtin:labyrinth/static")
    assert ladder_roles(store) == {
        "sample-adventurers": "adventurers",
        "sample-maze-master": "maze master",
    }
    info = client(store).get("/api/contest").json()
    assert info["roles"] == ["adventurers", "maze master"]
    assert info["starters"] == ["python", "cpp", "java"]


def test_starters_are_the_roles(store: Store) -> None:
    web = client(store)
    assert web.get("/api/starters/python").text == source("labyrinth", "adventurers", "python")
    answer = web.get("/api/starters/java?role=Maze-Master&download=1")
    assert answer.text == source("labyrinth", "master", "java")
    assert answer.headers["content-disposition"] == 'attachment; filename="Master.java"'
    assert web.get("/api/starters/python?role=wizard").json() == {
        "error": "no role 'wizard': the roles are adventurers and maze-master"
    }


def test_an_upload_names_its_role_and_keeps_it(store: Store) -> None:
    web = client(store)
    alice = register(web, "alice")
    refused = upload(web, alice, "bot.py", master_bot(), name="walls")
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "a new labyrinth bot names the role it plays (`role`):"
        " the roles are adventurers and maze-master"
    }
    wrong = upload(web, alice, "bot.py", master_bot(), name="walls", role="wizard")
    assert wrong.json() == {"error": "no role 'wizard': the roles are adventurers and maze-master"}
    taken = upload(web, alice, "bot.py", master_bot(), name="walls", role="maze_master")
    assert taken.status_code == 202
    short = upload(web, register(web, "bob"), "bot.py", master_bot(), name="bricks", role="Master")
    assert short.status_code == 202  # the last word, as the role's starters are named
    assert web.get("/api/bots/bricks").json()["role"] == "maze master"
    assert web.get("/api/bots/walls").json()["role"] == "maze master"
    kept = upload(web, alice, "bot.py", master_bot("v2"), name="walls")
    assert kept.status_code == 202 and kept.json()["version"] == 2
    changed = upload(web, alice, "bot.py", master_bot("v3"), name="walls", role="adventurers")
    assert changed.json() == {
        "error": "bot 'walls' plays the maze master, and every version keeps its role:"
        " upload the adventurers as another bot (`name`)"
    }


def test_one_bot_a_role_per_contestant(store: Store) -> None:
    web = client(store)
    alice = register(web, "alice")
    for name, role, text in (
        ("walls", "maze master", master_bot()),
        ("runner", "adventurers", adventurers_bot()),
    ):
        assert upload(web, alice, "bot.py", text, name=name, role=role).status_code == 202
    second = upload(web, alice, "bot.py", master_bot("b"), name="bricks", role="maze master")
    assert second.status_code == 403
    assert second.json() == {
        "error": "at most 1 bot(s) playing the maze master per contestant: upload a new version"
        " of 'walls' (--name) instead"
    }


def test_each_upload_is_tested_in_its_roles_seat_and_joins_its_table(store: Store) -> None:
    web = client(store)
    alice, bob = register(web, "alice"), register(web, "bob")
    upload(web, alice, "bot.py", master_bot(), name="walls", role="maze master")
    upload(web, bob, "bot.py", adventurers_bot(), name="runner", role="adventurers")
    settle(store)
    walls, runner = (
        web.get("/api/bots/walls", headers=alice).json(),
        web.get("/api/bots/runner", headers=bob).json(),
    )
    assert (walls["status"], runner["status"]) == ("active", "active"), (walls, runner)
    games = {
        name: web.get(f"/api/games/{bot['test_game']['id']}").json()
        for name, bot in (("walls", walls), ("runner", runner))
    }
    assert games["walls"]["bots"] == ["sample-adventurers", "walls"]
    assert games["runner"]["bots"] == ["runner", "sample-maze-master"]
    assert ladder_roles(store) == {
        "sample-adventurers": "adventurers",
        "sample-maze-master": "maze master",
        "walls": "maze master",
        "runner": "adventurers",
    }
    contest = arena.contest(store, "cup")
    assert contest is not None
    with store.engine.connect() as conn:
        roles = dict(
            conn.execute(
                ladder_bots.select()
                .with_only_columns(ladder_bots.c.name, ladder_bots.c.role)
                .where(ladder_bots.c.tournament_id == contest.ladder.id)
            ).all()
        )
    assert roles["walls"] == "maze master" and roles["runner"] == "adventurers"
    table = web.get("/api/standings").json()
    assert [(row["role"], row["rank"]) for row in table] == [
        ("adventurers", 1),
        ("adventurers", 2),
        ("maze master", 1),
        ("maze master", 2),
    ]


@pytest.mark.slow
def test_a_challenge_seats_each_role(store: Store) -> None:
    web = client(store)
    alice, bob, carol = register(web, "alice"), register(web, "bob"), register(web, "carol")
    upload(web, alice, "bot.py", master_bot(), name="walls", role="maze master")
    upload(web, bob, "bot.py", adventurers_bot(), name="runner", role="adventurers")
    upload(web, carol, "bot.py", master_bot("c"), name="bricks", role="maze master")
    settle(store)
    asked = web.post("/api/bots/walls/challenge", headers=alice, json={"opponent": "runner"})
    assert asked.status_code == 202, asked.text
    game = web.get(f"/api/games/{asked.json()['game']}").json()
    assert [seat["bot"] for seat in game["seats"]] == ["runner", "walls"]
    alone = web.post("/api/bots/walls/challenge", headers=alice, json={"opponents": []})
    assert alone.status_code == 400
    both = web.post("/api/bots/walls/challenge", headers=alice, json={"opponent": "bricks"})
    assert both.status_code == 409
    assert both.json() == {
        "error": "walls and bricks both play the maze master: a game has one bot of each role"
    }
    # two versions of one role never meet: a new version has no compare games
    upload(web, alice, "bot.py", master_bot("v2"), name="walls")
    settle(store)
    compared = web.get("/api/bots/walls/versions/2/compare").json()
    assert (compared["state"], compared["against"], compared["games"]) == ("none", None, [])


@pytest.mark.slow
def test_the_pages_of_a_role_contest(browser: Any, store: Store) -> None:
    """In chromium: the upload page asks for the role and shows that role's starter; the
    ladder shows a table for each role."""
    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
    stop = server.start()
    try:
        url = server.url
        page = browser.new_context().new_page()
        page.set_default_timeout(20_000)
        page.goto(url + "signup")
        page.fill("#signup input[name=user]", "alice")
        page.fill("#signup input[name=password]", "password-1")
        page.click("#signup button[type=submit]")
        page.wait_for_url(url + "upload")
        page.wait_for_selector("#starter-code")
        assert "adventurers" in page.inner_text("#starter-code").lower()
        page.select_option("#upload-role", "maze master")
        page.wait_for_selector("#starter-download[href*='role=maze']")
        page.fill("#upload input[name=name]", "walls")
        page.set_input_files(
            "#upload input[name=file]",
            {"name": "bot.py", "mimeType": "text/plain", "buffer": master_bot().encode()},
        )
        page.click("#upload button[type=submit]")
        page.wait_for_url(url + "bots/walls")
        page.wait_for_selector("h2:has-text('walls (maze master)')")
        settle(store)
        page.goto(url)
        page.wait_for_selector("#standings-maze-master")
        headings = page.locator("h3.role-heading").all_inner_texts()
        assert headings == ["Adventurers", "Maze master"]
        masters = page.locator("#standings-maze-master tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(masters) == ["sample-maze-master", "walls"]
        adventurers = page.locator("#standings-adventurers tbody tr td:nth-child(2)")
        assert adventurers.all_inner_texts() == ["sample-adventurers"]
    finally:
        stop()
