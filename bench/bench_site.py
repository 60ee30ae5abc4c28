"""The contest site under readers while its workers play: `arena serve --workers 2` over a
contest with bots on the ladder (a SQLite file, then PostgreSQL with 1 and 2 web processes),
and 200 concurrent readers (pages and API) for a while; the latency of their requests
(issue #23: p95 <= 100 ms; #36: past about 540 requests a second one web process's p95 went
to 385 ms). `--web-workers N` (or BENCH_SITE_WEB_WORKERS=1,2) chooses the PostgreSQL runs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tempdirs import readable_tempdir

READERS = 200
POLL_S = 2.0
"""A reader's wait between requests: the pages poll the API every 2 s (site.js POLL_MS)."""
FLOOD_S = 0.2
"""A flooding reader's wait: about 1 000 requests a second wanted from 200 readers."""
BOTS = 6


def _contest(db: str, folder: Path) -> list[tuple[str, str]]:
    """A contest at `db` with BOTS Python starter bots built and on the ladder; the (user,
    token) of each owner."""
    from starlette.testclient import TestClient
    from typer.testing import CliRunner

    from botarena.arena import store as arena  # noqa: F401  (its tables)
    from botarena.arena.api import arena_app
    from botarena.arena.cli import app
    from botarena.arena.pipeline import Uploads
    from botarena.core.starters import source
    from botarena.tournament.store import Store
    from botarena.tournament.worker import play_game

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
    return owners


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


PATHS = ("/api/standings", "/", "/api/contest", "/assets/site.js", "/api/me", "/api/bots/user0")
"""What the readers ask for in turn; `/api/me` with its reader's token."""


async def readers(
    url: str,
    owners: list[tuple[str, str]],
    keep_going: Callable[[], bool],
    *,
    paths: tuple[str, ...] = PATHS,
    poll_s: float = POLL_S,
    failures: list[str] | None = None,
) -> list[float]:
    """READERS readers, each asking for the next of `paths` every `poll_s` while
    `keep_going()`: the times (ms) of their requests. A request that fails ends the run,
    or is listed in `failures` when given (a season that kills web processes)."""
    host, port = re.match(r"http://([\d.]+):(\d+)/", url).groups()  # type: ignore[union-attr]
    times: list[float] = []

    async def reader(index: int) -> None:
        _, token = owners[index % len(owners)]
        turn = index
        while keep_going():
            path = paths[turn % len(paths)]
            try:
                times.append(
                    await _get(host, int(port), path, token if path == "/api/me" else None)
                )
            except (OSError, AssertionError):
                if failures is None:
                    raise
                failures.append(path)
            turn += 1
            await asyncio.sleep(poll_s)

    async def staggered(index: int) -> None:
        await asyncio.sleep(poll_s * index / READERS)  # readers come in over one period
        await reader(index)

    await asyncio.gather(*(staggered(i) for i in range(READERS)))
    return times


def _web_workers() -> tuple[int, ...]:
    """The web processes of the PostgreSQL runs: `--web-workers N` on the command line,
    else BENCH_SITE_WEB_WORKERS (`1,2`), else 1 and 2."""
    if "--web-workers" in sys.argv:
        return (int(sys.argv[sys.argv.index("--web-workers") + 1]),)
    chosen = os.environ.get("BENCH_SITE_WEB_WORKERS", "1,2")
    return tuple(int(word) for word in chosen.split(","))


def _measure(db: str, folder: Path, web: int, seconds: float, poll_s: float) -> dict:
    """`arena serve` (`web` web processes, 2 workers) over the contest at `db`, read by
    READERS readers for `seconds`: p95, median, requests a second, games played."""
    from botarena.core.sandbox import confinement_missing

    with contextlib.chdir(folder):  # a PostgreSQL contest builds in the current folder
        owners = _contest(db, folder)
    insecure = ["--insecure-no-sandbox"] if confinement_missing() else []
    serve = subprocess.Popen(
        [sys.executable, "-m", "botarena", "arena", "serve", "cup", "--db", db, "--port", "0",
         "--workers", "2", "--web-workers", str(web), *insecure],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        url = serve.stdout.readline().split()[2]
        time.sleep(2.0 + web)  # the workers start playing, the web processes start
        until = time.monotonic() + seconds
        times = asyncio.run(readers(url, owners, lambda: time.monotonic() < until, poll_s=poll_s))
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(60)
    from botarena.tournament.store import Store

    store = Store.open(db)
    played = sum(1 for g in store.games(store.tournament("cup")) if g.status == "done")  # type: ignore[arg-type]
    store.close()
    times.sort()
    return {
        "p95": times[int(len(times) * 0.95)],
        "median": statistics.median(times),
        "rate": len(times) / seconds,
        "played": played,
    }


def run(quick: bool) -> list[dict]:
    seconds = 10.0 if quick else 30.0
    with readable_tempdir() as name:
        folder = Path(name) / "sqlite"
        folder.mkdir()
        found = _measure(f"sqlite:///{folder / 'cup.db'}", folder, 1, seconds, POLL_S)
        rows = [
            {
                "name": f"site: p95 of {READERS} readers' requests, 2 workers playing",
                "value": found["p95"],
                "unit": "ms",
                "goal": "<= 100",
            },
            {"name": "site: median request", "value": found["median"], "unit": "ms", "goal": ""},
            {"name": "site: requests answered", "value": found["rate"], "unit": "/s", "goal": ""},
            {
                "name": "site: games played meanwhile",
                "value": found["played"],
                "unit": "games",
                "goal": "> 0",
            },
        ]
        rows += _postgres_rows(Path(name), seconds)
    return rows


def _postgres_rows(folder: Path, seconds: float) -> list[dict]:
    """p95 and requests a second over PostgreSQL with each number of web processes, the
    readers at the pages' pace and as a flood (0.2 s between a reader's requests)."""
    import pgserver
    from bench_claims import _fresh_database

    if pgserver.bindir() is None:
        return []
    rows = []
    with pgserver.running() as server:
        for web in _web_workers():
            for pace, poll_s in (("paced", POLL_S), ("flood", FLOOD_S)):
                home = folder / f"pg-{web}-{pace}"
                home.mkdir()
                db = _fresh_database(server, f"site_{web}_{pace}")
                found = _measure(db, home, web, seconds, poll_s)
                name = f"site over PostgreSQL, {web} web process(es), readers {pace}"
                rows.append({"name": f"{name}: p95", "value": found["p95"], "unit": "ms",
                             "goal": "<= 100" if pace == "paced" else ""})  # fmt: skip
                rows.append({"name": f"{name}: answered", "value": found["rate"], "unit": "/s",
                             "goal": ""})  # fmt: skip
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # pgserver
    for row in run("--quick" in sys.argv):
        print(row)
