"""The leaderboard server (`botarena serve`) over a real SQLite store, in a real browser: the
JSON API, the pages, escaping of a hostile bot name, live updates while a tournament runs,
a game opening in the viewer."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from botarena.games import get_game
from botarena.tournament.executors import LocalExecutor
from botarena.tournament.manage import BotRequest, Settings, create
from botarena.tournament.runner import run
from botarena.tournament.store import Store
from browser import open_viewer

HOSTILE = "<script>alert(1)</script>"


def new_tournament(folder: Path, name: str) -> tuple[str, Store, Any]:
    """An Amazes round robin of explorer, random and a random bot named like a script tag
    (3 pairings, each played in both seatings: 6 games), not yet played; its store URL,
    store and tournament."""
    url = f"sqlite:///{folder / 'board.db'}"
    store = Store.open(url)
    rules = get_game("amazes")
    tournament, _ = create(
        store,
        name,
        rules,
        [
            BotRequest(name=None, spec="builtin:amazes/explorer"),
            BotRequest(name=HOSTILE, spec="builtin:amazes/random"),
            BotRequest(name="plain", spec="builtin:amazes/random"),
        ],
        Settings(games_per_pair=1, seed=5, replay_dir=folder / "replays"),
        folder / "build",
        print,
    )
    return url, store, tournament


def play_all(store: Store, tournament: Any) -> None:
    executor = LocalExecutor(0)
    try:
        run(store, tournament, executor)
    finally:
        executor.shutdown()


@pytest.fixture
def served(tmp_path):
    """`botarena serve` on a free port over a fresh store; yields (url, store, tournament)."""
    url, store, tournament = new_tournament(tmp_path, "cup")
    process = subprocess.Popen(
        [sys.executable, "-m", "botarena", "serve", "--db", url, "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        address = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline()).group(0)
        yield address, store, tournament
    finally:
        process.terminate()
        process.wait(10)
        store.close()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_api_and_pages_of_a_finished_tournament(browser, served, tmp_path):
    address, store, tournament = served
    play_all(store, tournament)
    listing = get_json(address + "api/tournaments")
    assert listing == [
        {
            "name": "cup",
            "game": "amazes",
            "schedule": "round-robin",
            "bots": 3,
            "finished": 6,
            "scheduled": 6,
            "running": False,
        }
    ]
    table = standings_now(address)
    assert table["games"] == 6 and table["rank_by"] == "points"
    assert sorted(row["bot"] for row in table["standings"]) == sorted(
        ["explorer", HOSTILE, "plain"]
    )
    assert all(row["games"] == 4 for row in table["standings"])  # 2 seatings x 2 opponents
    games = get_json(address + "api/tournaments/cup/games")
    assert len(games) == 6 and all(game["status"] == "done" for game in games)
    assert {game["end_reason"] for game in games} <= {"turns", "sudden_death"}  # Amazes' words
    with urllib.request.urlopen(address + "api/tournaments/cup/plot.png") as response:
        assert response.headers["content-type"] == "image/png"
        assert response.read().startswith(b"\x89PNG\r\n\x1a\n")  # and no file left behind
    hostile_games = get_json(
        address + "api/tournaments/cup/games?bot=" + urllib.request.quote(HOSTILE)
    )
    assert len(hostile_games) == 4 and all(HOSTILE in game["bots"] for game in hostile_games)
    for result in ("win", "draw", "loss"):
        part = get_json(address + f"api/tournaments/cup/games?bot=explorer&result={result}")
        expected = sum(
            1
            for game in games
            if "explorer" in game["bots"]
            and _result(game, game["bots"].index("explorer")) == result
        )
        assert len(part) == expected
    wins = {row["bot"]: row["wins"] for row in table["standings"]}
    assert (
        len(get_json(address + "api/tournaments/cup/games?bot=explorer&result=win"))
        == wins["explorer"]
    )

    dialogs: list[str] = []
    page = open_viewer(browser, address + "t/cup", ready=False)
    page.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.page.wait_for_function("window.leaderboardReady === true")
    page.page.wait_for_selector("#games tbody tr")
    standings = page.page.inner_text("#standings")
    assert HOSTILE in standings
    assert page.page.locator("#standings script").count() == 0
    assert page.page.locator("#games tbody tr").count() == 6
    assert HOSTILE in page.page.inner_text("#cross")
    page.page.select_option("#filter-bot", HOSTILE)
    page.page.wait_for_function("document.querySelectorAll('#games tbody tr').length === 4")
    page.page.screenshot(path=str(tmp_path / "leaderboard.png"))

    page.page.click(f"#standings a:text-is('{HOSTILE}')")
    page.page.wait_for_selector("#record")
    assert page.page.inner_text("h2 >> nth=0") == HOSTILE
    assert "stderr of recent games" in page.page.inner_text("main")

    page.page.goto(address + "t/cup")
    page.page.wait_for_selector("#games tbody tr")
    page.page.click("#games tbody tr >> nth=0 >> text=watch")
    page.page.wait_for_function("window.botarenaView !== undefined && !window.botarenaView.error")
    assert page.page.evaluate("window.botarenaView.game") == "amazes"
    assert dialogs == []
    assert page.errors == []


def standings_now(address: str) -> dict[str, Any]:
    """The standings of the tournament as it is: the server may answer the last table while
    it computes the new one, and says which by its version (docs/server.md)."""
    while True:
        table = get_json(address + "api/tournaments/cup/standings")
        if table["version"] == get_json(address + "api/tournaments/cup/version")["version"]:
            return table
        time.sleep(0.05)


def _result(game: dict[str, Any], seat: int) -> str:
    best = min(game["ranks"])
    if game["ranks"][seat] != best:
        return "loss"
    return "draw" if game["ranks"].count(best) > 1 else "win"


@pytest.mark.slow
def test_page_follows_a_running_tournament(browser, served):
    """The tournament page shows games finished after it was opened, without a reload."""
    address, store, tournament = served
    page = open_viewer(browser, address + "t/cup", ready=False)
    page.page.wait_for_function("window.leaderboardReady === true")
    assert "0 games counted" in page.page.inner_text("main")
    page.page.evaluate("window.notReloaded = true")
    play_all(store, tournament)
    page.page.wait_for_function(
        "document.querySelector('main').innerText.includes('6 games counted')", timeout=20000
    )
    assert page.page.evaluate("window.notReloaded") is True
    # Amazes ranks by points: the page shows that column, beside the rating (#22)
    heads = page.page.eval_on_selector_all(
        "#standings th", "cells => cells.map(c => c.textContent)"
    )
    assert heads == [
        "#",
        "bot",
        "points",
        "irregular",
        "rating",
        "games",
        "mean",
        "W-D-L",
        "faults",
    ]
    assert page.errors == []


def test_serve_refuses_a_missing_database(tmp_path):
    missing = tmp_path / "none.db"
    done = subprocess.run(
        [sys.executable, "-m", "botarena", "serve", "--db", f"sqlite:///{missing}"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr == f"botarena: error: --db sqlite:///{missing}: no such database file\n"
    assert not missing.exists()


def test_unknown_tournament_is_404(served):
    address, _, _ = served
    with pytest.raises(urllib.error.HTTPError) as error:
        get_json(address + "api/tournaments/nope/standings")
    assert error.value.code == 404
