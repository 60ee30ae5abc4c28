"""The contest site in chromium (Playwright): two contestants sign up; one uploads a source
that does not build (and reads the compiler's message), fixes it, passes the test game,
appears on the ladder and plays; the other sees none of the first one's log or stderr; each
hostile upload is refused on the page; the organiser disables a bot and voids a game and
the standings change. Hostile stderr and file names are shown as text: no script runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import test_arena_api
from arena_helpers import BROKEN, PASSWORD, new_contest, settle
from botarena.core.registry import game_info
from botarena.tournament.store import Store

HOSTILE_TEXT = "<img src=x onerror=alert(1)><script>alert(2)</script>"
LOUD_BOT = f"import sys\nprint({HOSTILE_TEXT!r}, file=sys.stderr, flush=True)\n"


def _loud_bot() -> str:
    from botarena.core.starters import source

    return LOUD_BOT + source("amazes", "bot", "python")


@pytest.fixture
def site(tmp_path: Path) -> Any:
    """The site served in this process on a free port over a fresh contest on SQLite;
    (url, store). The pages over PostgreSQL: tests/test_arena_web_processes.py (this test
    on both stores cost 30 s of CI)."""
    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path)
    store = Store.open(db)
    server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
    stop = server.start()
    try:
        yield server.url, store
    finally:
        stop()
        store.close()


def _page(browser: Any, dialogs: list[str]) -> Any:
    page = browser.new_context().new_page()
    page.set_default_timeout(20_000)

    def dialog(prompt: Any) -> None:
        dialogs.append(prompt.message)
        prompt.dismiss()

    page.on("dialog", dialog)
    return page


def _sign_up(page: Any, url: str, user: str) -> None:
    page.goto(url + "signup")
    page.fill("#signup input[name=user]", user)
    page.fill("#signup input[name=password]", "password-1")
    page.click("#signup button[type=submit]")
    page.wait_for_url(url + "upload")


def _upload(page: Any, url: str, filename: str, data: bytes, name: str = "") -> None:
    page.goto(url + "upload")
    if name:
        page.fill("#upload input[name=name]", name)
    page.set_input_files(
        "#upload input[name=file]",
        {"name": filename, "mimeType": "application/octet-stream", "buffer": data},
    )
    page.click("#upload button[type=submit]")


def _standings(page: Any, url: str) -> dict[str, dict[str, str]]:
    """The ladder page's rows: bot -> {column title: cell}."""
    page.goto(url)
    page.wait_for_selector("#standings, main p.info")
    titles = page.locator("#standings thead th").all_inner_texts()
    rows = page.locator("#standings tbody tr")
    table = {}
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td").all_inner_texts()
        table[cells[1]] = dict(zip(titles, cells, strict=True))
    return table


def test_two_contestants_and_the_organiser(browser: Any, site: Any) -> None:
    url, store = site
    dialogs: list[str] = []
    alice = _page(browser, dialogs)
    _sign_up(alice, url, "alice")
    assert "def " in alice.inner_text("#starter-code")  # the Python starter, on the page
    assert alice.is_hidden("#insecure")

    # a source that does not build: the compiler's message on the bot's page
    _upload(alice, url, "bot.py", BROKEN.encode())
    alice.wait_for_url(url + "bots/alice")
    settle(store)
    alice.wait_for_selector("#build-log:has-text('SyntaxError')")
    assert "build-failed" in alice.inner_text("#bot")

    # fixed: built, passes its test game, on the ladder, plays
    _upload(alice, url, "bot.py", _loud_bot().encode())
    alice.wait_for_url(url + "bots/alice")
    settle(store)
    alice.wait_for_selector("#bot:has-text('active')")
    alice.wait_for_selector("#test-stderr")
    assert HOSTILE_TEXT in alice.inner_text("#test-stderr")  # shown as text
    versions = alice.locator("#versions tbody tr td:nth-child(2)").all_inner_texts()
    assert versions == ["build-failed", "active"]
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    assert work(store, LocalExecutor(0), ["cup"], games=2, seconds=60, sandbox=False) == 2
    table = _standings(alice, url)
    assert set(table) == {"alice", "sample"}
    alice.goto(url + "me")
    alice.wait_for_selector("#games tbody tr")
    game_links = alice.locator("#games tbody tr td:first-child a").all_inner_texts()
    assert len(game_links) == 2
    alice.goto(url + "bots/alice")
    test_id = alice.get_attribute("main section a[href^='/games/']", "href")
    assert test_id is not None  # the test game, linked from the bot's page
    alice.goto(url + test_id.lstrip("/"))
    alice.wait_for_selector("#stderr-0")
    assert HOSTILE_TEXT in alice.inner_text("#stderr-0")
    worded = {f"Ended: {text}" for _, text in game_info("amazes").end_reasons}
    assert alice.inner_text("#game-end") in worded  # the game's words, not its raw reason

    # a ladder game in the viewer, for alice with her stderr, for bob without
    from browser import open_viewer

    watched = open_viewer(browser, f"{url}games/{game_links[0]}/view/")
    assert watched.api("game") == "amazes" and watched.errors == []
    watched.page.close()

    # bob sees no log nor stderr of alice's, anywhere
    bob = _page(browser, dialogs)
    _sign_up(bob, url, "bob")
    theirs = open_viewer(browser, f"{url}games/{game_links[0]}/view/")
    assert theirs.api("game") == "amazes" and theirs.errors == []
    assert "onerror" not in theirs.page.inner_text("body")
    theirs.page.close()
    for path in ("bots/alice", test_id.lstrip("/"), f"games/{game_links[0]}", "me", ""):
        bob.goto(url + path)
        bob.wait_for_selector("main > *")
        bob.wait_for_timeout(300)
        text = bob.inner_text("body")
        assert "SyntaxError" not in text and "onerror" not in text, path
        assert bob.locator("#build-log, #test-stderr, #stderr-0, #stderr-1").count() == 0, path

    # each hostile upload is refused on the page, one reason, nothing stored
    for kind, (filename, data, word) in test_arena_api.HOSTILE.items():
        _upload(bob, url, filename, data, name="evil")
        alert = bob.wait_for_selector("#upload [role=alert]")
        assert word in alert.inner_text(), kind
        assert bob.url == url + "upload", kind
    _upload(bob, url, HOSTILE_TEXT + ".txt", b"x", name="evil2")
    assert HOSTILE_TEXT in bob.wait_for_selector("#upload [role=alert]").inner_text()
    assert "evil" not in _standings(bob, url)

    # the organiser: disable, enable, void
    admin = _page(browser, dialogs)
    admin.goto(url + "login")
    admin.fill("#login input[name=user]", "admin")
    admin.fill("#login input[name=password]", PASSWORD)
    admin.click("#login button[type=submit]")
    admin.wait_for_url(url + "me")
    admin.goto(url + "admin")
    admin.wait_for_selector("#admin-bots tbody tr")
    owners = admin.locator("#admin-bots tbody tr td:nth-child(2)").all_inner_texts()
    assert owners == ["alice"]  # the sample bot is the organiser's, not a contestant's
    users = admin.locator("#admin-users tbody tr td:first-child").all_inner_texts()
    assert sorted(users) == ["admin", "alice", "bob"]
    assert admin.locator("#admin-games tbody tr").count() >= 2
    admin.fill("#admin-bot input[name=bot]", "alice")
    admin.select_option("#admin-bot select", "disable")
    admin.click("#admin-bot button[type=submit]")
    admin.wait_for_selector("#admin-bot .form-status:has-text('disabled')")
    assert set(_standings(admin, url)) == {"sample"}
    admin.goto(url + "admin")
    admin.fill("#admin-bot input[name=bot]", "alice")
    admin.select_option("#admin-bot select", "enable")
    admin.click("#admin-bot button[type=submit]")
    admin.wait_for_selector("#admin-bot .form-status:has-text('enabled')")
    before = _standings(admin, url)
    assert before["alice"]["games"] == before["sample"]["games"] == "2"
    admin.goto(url + "admin")
    admin.fill("#admin-void input[name=game]", game_links[0])
    admin.click("#admin-void button[type=submit]")
    admin.wait_for_selector("#admin-void .form-status:has-text('voided')")
    after = _standings(admin, url)
    assert after["alice"]["games"] == after["sample"]["games"] == "1"
    assert after["alice"]["rating (μ − 3σ)"] != before["alice"]["rating (μ − 3σ)"]

    assert dialogs == []  # no script from a name, a file name or stderr ever ran


def test_a_contestant_follows_a_bots_games_its_rating_and_the_finals(
    browser: Any, tmp_path: Path
) -> None:
    """alice's bot page lists its games from its side (won, drew or lost, against whom),
    pages and filters them, draws its rating after each game; the finals have their page."""
    from arena_helpers import client, good_bot, opened_contest, organiser, register, upload
    from botarena.arena.api import arena_app
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work
    from botarena.web.server import Server

    with opened_contest(tmp_path) as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", good_bot(), name="walker")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        assert work(store, LocalExecutor(0), ["cup"], games=6, seconds=60, sandbox=False) == 6
        listed = web.get("/api/bots/walker/games?limit=100").json()["games"]
        server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
        stop = server.start()
        try:
            url = server.url
            stranger = _page(browser, [])
            console: list[str] = []
            stranger.on("console", lambda line: console.append(f"{line.type}: {line.text}"))
            for path in ("", "upload", "bots/walker", "me", "rules"):
                stranger.goto(url + path)
                stranger.wait_for_selector("main > *")
            stranger.wait_for_selector("#rules-languages tbody tr")
            assert stranger.locator("#rules-languages tbody tr").count() == 6
            assert stranger.locator("#rules-time tbody tr td").all_inner_texts() == [
                "0, 1",
                "2 s of CPU a reply; wall time capped at 5 s a reply",
                "5 s of CPU in all the game; wall time capped at 11 s in all the game",
            ]
            assert "Rules of the game Amazes" in stranger.inner_text("pre.rules-text")
            stranger.goto(url)
            stranger.wait_for_selector("#standings tbody tr")
            owners = stranger.locator("#standings td.column-owner").all_inner_texts()
            versions = stranger.locator("#standings td.column-label").all_inner_texts()
            assert sorted(owners) == ["", "alice", "bob"]  # the sample bot has no owner
            assert sorted(versions) == ["runner", "sample", "walker"]
            phone = browser.new_context(viewport={"width": 390, "height": 800}).new_page()
            phone.goto(url)
            phone.wait_for_selector("#standings tbody tr")
            widths = phone.evaluate(
                "() => [document.documentElement.scrollWidth,"
                " document.querySelector('main').scrollWidth]"
            )
            assert widths == [390, 390]  # the ladder fits a phone: no column cut off
            shown = phone.locator("#standings thead th:visible").all_inner_texts()
            assert shown == ["#", "bot", "owner", "version", "rating (μ − 3σ)", "games"]
            stranger.goto(url + "upload")
            stranger.click("#signup-hint a")
            stranger.wait_for_url(url + "signup")
            assert [line for line in console if line.startswith("error")] == []
            page = _page(browser, [])
            page.goto(url + "bots/walker")
            page.wait_for_selector("#bot-games-table tbody tr")
            rows = page.locator("#bot-games-table tbody tr")
            shown = [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]
            assert [int(row[0]) for row in shown] == [g["id"] for g in listed][:20]
            assert [row[3] for row in shown] == [g["result"] for g in listed][:20]
            assert {row[3] for row in shown} <= {"won", "drew", "lost"}
            assert page.locator("#rating-chart polyline").count() == 1
            assert "playing version" in page.inner_text("#bot")
            page.fill("#opponent", "runner")
            page.press("#opponent", "Enter")
            page.wait_for_function(
                "() => [...document.querySelectorAll('#bot-games-table tbody tr')]"
                ".every((row) => row.cells[6].innerText.includes('runner'))"
            )
            owner = _page(browser, [])  # alice logs in and challenges runner from her page
            owner.goto(url + "login")
            owner.fill("#login input[name=user]", "alice")
            owner.fill("#login input[name=password]", "password-1")
            owner.click("#login button[type=submit]")
            owner.wait_for_url(url + "me")
            owner.goto(url + "bots/walker")
            owner.fill("#challenge input[name=opponent]", "runner")
            owner.click("#challenge button[type=submit]")
            owner.wait_for_url(re.compile(r".*/games/\d+$"))
            assert work(store, LocalExecutor(0), ["cup"], games=1, seconds=60, sandbox=False)
            challenged = web.get(f"/api/games/{owner.url.rsplit('/', 1)[1]}").json()
            assert (challenged["kind"], challenged["status"]) == ("challenge", "done")
            assert sorted(challenged["bots"]) == ["runner", "walker"]
            admin = organiser(web)
            assert web.post("/api/admin/finals", headers=admin, json={}).status_code == 200
            work(store, LocalExecutor(0), ["cup"], games=2, seconds=60, sandbox=False)
            page.goto(url)
            page.click("nav a:has-text('finals')")
            page.wait_for_selector("#stage-standings tbody tr")
            assert "2 of 2 games played" in page.inner_text("#stage-progress")
            names = page.locator("#stage-standings tbody tr td:nth-child(2)").all_inner_texts()
            assert sorted(names) == ["runner", "walker"]
        finally:
            stop()
