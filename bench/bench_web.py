"""Web benchmarks in headless Debian chromium: how fast a long replay opens and plays in the
viewer, the self-contained page's size against the gzipped replay, and the leaderboard's
standings of a 10 000-game tournament."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from tempdirs import readable_tempdir

ANTS_BOTS = ["builtin:ants/greedy"] * 4
ANTS_OPTIONS = {"cutoff_turn": 1001}  # no food cutoff: the game runs its 1000 turns
LABYRINTH_BOTS = ["builtin:labyrinth/wallfollower", "builtin:labyrinth/static"]
PLAY_S = 3.0


def _replays(folder: Path) -> tuple[Path, Path]:
    """A 1000-turn 4-player Ants game and an 18 000-step Labyrinth game (9000 turns)."""
    import botarena

    ants, labyrinth = folder / "ants.json.gz", folder / "labyrinth.json.gz"
    botarena.play("ants", ANTS_BOTS, seed=7, replay=ants, **ANTS_OPTIONS)
    botarena.play("labyrinth", LABYRINTH_BOTS, seed=2, replay=labyrinth, cpu_limits=0)
    return ants, labyrinth


def _open_ms(browser: Any, html: Path, tries: int) -> tuple[float, Any]:
    """The least time from navigation to the first frame drawn (ms), and the last page."""
    from browser import open_viewer

    times, viewer = [], None
    for _ in range(tries):
        if viewer is not None:
            viewer.page.close()
        viewer = open_viewer(browser, html.as_uri())
        times.append(viewer.api("readyMs"))
    return min(times), viewer


def _fps(viewer: Any) -> float:
    """Frames drawn a second while playing at 16x from the start."""
    viewer.api("seek(0)")
    viewer.api("setSpeed(16)")
    viewer.page.keyboard.press("Space")
    before, started = viewer.api("draws"), time.perf_counter()
    viewer.page.wait_for_timeout(PLAY_S * 1000)
    frames, spent = viewer.api("draws") - before, time.perf_counter() - started
    viewer.page.keyboard.press("Space")
    return frames / spent


def _standings_ms(folder: Path, quick: bool) -> tuple[int, float, float, float]:
    """A tournament of 10 000 finished games written straight into a SQLite store; the
    standings API's first answer (computing them), the median of later ones and the answer
    just after one more game finished (the last table, while the new one is computed in
    the background), in ms."""
    import urllib.request

    from botarena.tournament.store import Store, games
    from botarena.web.leaderboard import leaderboard_app
    from botarena.web.server import Server

    count = 1000 if quick else 10_000
    url = f"sqlite:///{folder / 'big.db'}"
    store = Store.open(url)
    from botarena.games import get_game
    from botarena.tournament.manage import BotRequest, Settings, create

    names = [f"bot{index}" for index in range(20)]
    tournament, _ = create(
        store,
        "big",
        get_game("amazes"),
        [BotRequest(name=name, spec="builtin:amazes/random") for name in names],
        Settings(games_per_pair=1, seed=1, replay_dir=folder),
        folder / "build",
        print,
    )
    with store.transaction() as conn:
        conn.execute(games.delete().where(games.c.tournament_id == tournament.id))
        rows = []
        for index in range(count):
            a, b = names[index % 20], names[(index * 7 + 3) % 20]
            if a == b:
                b = names[(index + 1) % 20]
            score = (index * 37) % 1000
            rows.append(
                dict(
                    tournament_id=tournament.id,
                    key=f"big/{index}",
                    round=1,
                    pairing=f"{a}-{b}",
                    idx=index,
                    seed=index,
                    map=None,
                    seats=[a, b],
                    status="done",
                    scores=[score, 1000 - score],
                    ranks=[1, 2] if score >= 500 else [2, 1],
                    statuses=["ok", "ok"],
                    faults=[0, 0],
                    turns=150,
                    end_reason="turns",
                    replay=None,
                    finished_at=float(index),
                )
            )
        conn.execute(games.insert(), rows)
    server = Server(leaderboard_app(store, url, warm=False), "127.0.0.1", 0)
    stop = server.start()
    address = server.url + "api/tournaments/big/standings"
    started = time.perf_counter()
    with urllib.request.urlopen(address) as response:
        assert response.status == 200
    first = (time.perf_counter() - started) * 1000
    later = []
    for _ in range(20):
        started = time.perf_counter()
        with urllib.request.urlopen(address) as response:
            response.read()
        later.append((time.perf_counter() - started) * 1000)
    with store.transaction() as conn:  # one more game finishes: the tournament changed
        conn.execute(games.insert(), [{**rows[0], "key": "big/one-more", "idx": count}])
    started = time.perf_counter()
    with urllib.request.urlopen(address) as response:
        response.read()
    changed = (time.perf_counter() - started) * 1000
    stop()
    store.close()
    return count, first, statistics.median(later), changed


def run(quick: bool) -> list[dict]:
    from playwright.sync_api import sync_playwright

    from botarena.core.replay import load
    from botarena.web.viewdoc import standalone_html, view_document
    from browser import launch
    from conftest import ensure_debian_package

    ensure_debian_package("chromium", "chromium")
    rows = []
    with readable_tempdir() as name:
        folder = Path(name)
        ants, labyrinth = _replays(folder)
        pages = {}
        for replay in (ants, labyrinth):
            pages[replay] = folder / (replay.name.split(".")[0] + ".html")
            pages[replay].write_text(standalone_html(view_document(load(replay))))
        steps = len(load(labyrinth)["steps"])
        tries = 1 if quick else 3
        with sync_playwright() as playwright:
            browser = launch(playwright)
            ants_ms, viewer = _open_ms(browser, pages[ants], tries)
            fps = _fps(viewer)
            labyrinth_ms, _ = _open_ms(browser, pages[labyrinth], tries)
            browser.close()
        ratio = pages[ants].stat().st_size / ants.stat().st_size
        count, first, later, changed = _standings_ms(folder, quick)
    rows += [
        {
            "name": "web: 1000-turn 4-player Ants replay opens (self-contained page)",
            "value": ants_ms,
            "unit": "ms",
            "goal": "<= 1000",
        },
        {
            "name": "web: same replay played at 16x",
            "value": fps,
            "unit": "frames/s",
            "goal": ">= 30",
        },
        {
            "name": f"web: {steps}-step Labyrinth replay opens",
            "value": labyrinth_ms,
            "unit": "ms",
            "goal": "<= 2000",
        },
        {
            "name": "web: self-contained page / gzipped replay (1000-turn Ants)",
            "value": ratio,
            "unit": "x",
            "goal": "<= 10 (each bot's I/O included)",
        },
        {
            "name": f"web: standings API, {count}-game tournament, first answer",
            "value": first,
            "unit": "ms",
            "goal": "",
        },
        {
            "name": f"web: standings API, {count}-game tournament, again (cached)",
            "value": later,
            "unit": "ms",
            "goal": "<= 100",
        },
        {
            "name": f"web: standings API, {count}-game tournament, just after a game finished",
            "value": changed,
            "unit": "ms",
            "goal": "<= 100",
        },
    ]
    return rows
