"""The contest site under readers while its workers play: `arena serve --workers 2` over a
SQLite contest with bots on the ladder, and 200 concurrent readers (pages and API) for a
while; the latency of their requests (issue #23: p95 <= 100 ms)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tempdirs import readable_tempdir

READERS = 200
POLL_S = 2.0
"""A reader's wait between requests: the pages poll the API every 2 s (site.js POLL_MS)."""
BOTS = 6


def _contest(folder: Path) -> tuple[str, list[tuple[str, str]]]:
    """A contest with BOTS Python starter bots built and on the ladder; its store URL and
    (user, token) of each owner."""
    from starlette.testclient import TestClient
    from typer.testing import CliRunner

    from botarena.arena import store as arena  # noqa: F401  (its tables)
    from botarena.arena.api import arena_app
    from botarena.arena.cli import app
    from botarena.arena.pipeline import Uploads
    from botarena.core.starters import source
    from botarena.tournament.store import Store
    from botarena.tournament.worker import play_game

    db = f"sqlite:///{folder / 'cup.db'}"
    (folder / "pw").write_text("organiser-pw\n")
    done = CliRunner().invoke(
        app,
        ["new", "cup", "--game", "amazes", "--db", db, "--admin-password-file", str(folder / "pw")],
    )
    assert done.exit_code == 0, done.output
    store = Store.open(db)
    owners = []
    with TestClient(arena_app(store, "cup")) as web:
        for index in range(BOTS):
            user = f"user{index}"
            answer = web.post("/api/register", json={"user": user, "password": "password-1"})
            token = answer.json()["token"]
            code = source("amazes", "bot", "python") + f"\n# bot {index}\n"
            web.post(
                "/api/bots",
                headers={"Authorization": f"Bearer {token}"},
                files={"file": ("bot.py", code.encode())},
            )
            owners.append((user, token))
    runner = store.register_runner()
    queue = Uploads(store, runner, None, sandbox=False)
    while (step := queue.next()) is not None:
        while step is not None:
            step = queue.done(step, play_game(step.job))
    store.retire_runner(runner)
    store.close()
    return db, owners


async def _get(host: str, port: int, path: str, token: str | None) -> float:
    """One GET on a fresh connection (as a browser's first request); its time in ms."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Connection: close\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readline()
    await reader.read()
    writer.close()
    assert b" 200 " in head, (path, head)
    return (time.perf_counter() - started) * 1000


async def _readers(url: str, owners: list[tuple[str, str]], seconds: float) -> list[float]:
    host, port = re.match(r"http://([\d.]+):(\d+)/", url).groups()  # type: ignore[union-attr]
    paths = ["/api/standings", "/", "/api/contest", "/assets/site.js", "/api/me", "/api/bots/user0"]
    times: list[float] = []
    until = time.monotonic() + seconds

    async def reader(index: int) -> None:
        _, token = owners[index % len(owners)]
        turn = index
        while time.monotonic() < until:
            path = paths[turn % len(paths)]
            times.append(await _get(host, int(port), path, token if path == "/api/me" else None))
            turn += 1
            await asyncio.sleep(POLL_S)

    async def staggered(index: int) -> None:
        await asyncio.sleep(POLL_S * index / READERS)  # readers come in over one period
        await reader(index)

    await asyncio.gather(*(staggered(i) for i in range(READERS)))
    return times


def run(quick: bool) -> list[dict]:
    from botarena.core.sandbox import confinement_missing

    seconds = 10.0 if quick else 30.0
    insecure = ["--insecure-no-sandbox"] if confinement_missing() else []
    with readable_tempdir() as name:
        folder = Path(name)
        db, owners = _contest(folder)
        serve = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "botarena",
                "arena",
                "serve",
                "cup",
                "--db",
                db,
                "--port",
                "0",
                "--workers",
                "2",
                *insecure,
            ],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            assert serve.stdout is not None
            url = serve.stdout.readline().split()[2]
            time.sleep(2.0)  # the workers start playing
            times = asyncio.run(_readers(url, owners, seconds))
        finally:
            serve.send_signal(signal.SIGINT)
            serve.wait(60)
        from botarena.tournament.store import Store

        store = Store.open(db)
        played = sum(1 for g in store.games(store.tournament("cup")) if g.status == "done")  # type: ignore[arg-type]
        store.close()
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    return [
        {
            "name": f"site: p95 of {READERS} readers' requests, 2 workers playing",
            "value": p95,
            "unit": "ms",
            "goal": "<= 100",
        },
        {
            "name": "site: median request",
            "value": statistics.median(times),
            "unit": "ms",
            "goal": "",
        },
        {
            "name": "site: requests answered",
            "value": len(times) / seconds,
            "unit": "/s",
            "goal": "",
        },
        {"name": "site: games played meanwhile", "value": played, "unit": "games", "goal": "> 0"},
    ]


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        print(row)
