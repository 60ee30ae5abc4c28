"""Takes the contest site's screenshots in this folder (docs/site.md shows them).

A contest of Amazes in a temporary SQLite store, two contestants (alice's `walker`, bob's
`runner`), a few dozen ladder games and a challenge, then the finals; every page as a
contestant, a stranger, the organiser, and the ladder on a phone's 390 px. Run it again after
changing a page: `python docs/img/screenshots.py` (chromium and the test extras installed).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))  # the tests' contest and browser helpers

from playwright.sync_api import sync_playwright  # noqa: E402

from arena_helpers import (  # noqa: E402
    PASSWORD,
    client,
    good_bot,
    opened_contest,
    organiser,
    register,
    settle,
    upload,
)
from botarena.arena.api import arena_app  # noqa: E402
from botarena.core import starters  # noqa: E402
from botarena.tournament.executors import LocalExecutor  # noqa: E402
from botarena.tournament.runner import work  # noqa: E402
from botarena.web.server import Server  # noqa: E402
from browser import launch  # noqa: E402

WIDTH, HEIGHT = 1100, 760


def log_in(page, url: str, user: str, password: str) -> None:
    page.goto(url + "login")
    page.fill("#login input[name=user]", user)
    page.fill("#login input[name=password]", password)
    page.click("#login button[type=submit]")
    page.wait_for_url(url + "me")


def shoot(page, url: str, path: str, name: str, ready: str) -> None:
    page.goto(url + path)
    page.wait_for_selector(ready)
    page.wait_for_timeout(300)  # the polls' first answers drawn
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=False)
    print(f"docs/img/{name}.png")


def play_a_contest(store, web) -> int:
    """Two contestants' bots through their tests, 30 ladder games and a challenge: the id of
    walker's newest game."""
    alice, bob = register(web, "alice"), register(web, "bob")
    upload(web, alice, "bot.py", starters.source("amazes", "bot", "python"), name="walker")
    upload(web, bob, "bot.py", good_bot(), name="runner")
    settle(store)
    work(store, LocalExecutor(0), ["cup"], games=30, seconds=120, sandbox=False)
    web.post("/api/bots/walker/challenge", headers=alice, json={"opponent": "runner"})
    work(store, LocalExecutor(0), ["cup"], games=1, seconds=60, sandbox=False)
    return web.get("/api/bots/walker/games?limit=1").json()["games"][0]["id"]


def shoot_every_page(browser, url: str, store, web, game: int) -> None:
    screen = {"width": WIDTH, "height": HEIGHT}
    page = browser.new_context(viewport=screen).new_page()
    shoot(page, url, "rules", "rules", "#rules-languages tbody tr")
    log_in(page, url, "alice", "password-1")
    shoot(page, url, "", "ladder", "#standings tbody tr.mine")
    shoot(page, url, "me", "me", "main table tbody tr")
    shoot(page, url, "upload", "upload", "#upload")
    shoot(page, url, "bots/walker", "bot", "#rating-chart polyline")
    shoot(page, url, f"games/{game}", "game", "main")
    phone = browser.new_context(viewport={"width": 390, "height": HEIGHT}).new_page()
    shoot(phone, url, "", "ladder-phone", "#standings tbody tr")
    admin = browser.new_context(viewport=screen).new_page()
    log_in(admin, url, "admin", PASSWORD)
    shoot(admin, url, "admin", "admin", "#admin-bots tbody tr")
    web.post("/api/admin/finals", headers=organiser(web), json={})
    work(store, LocalExecutor(0), ["cup"], games=2, seconds=60, sandbox=False)
    stage = web.get("/api/stages").json()[-1]["tournament"]
    shoot(admin, url, f"stages/{stage}", "finals", "#stage-standings tbody tr")


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        opened_contest(Path(folder)) as store,
        client(store) as web,
    ):
        game = play_a_contest(store, web)
        server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
        stop = server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                shoot_every_page(browser, server.url, store, web, game)
                browser.close()
        finally:
            stop()


if __name__ == "__main__":
    main()
