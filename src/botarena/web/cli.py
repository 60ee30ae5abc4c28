"""`botarena view`, `botarena play --watch` and `botarena serve`: the commands' work,
imported only when run (starlette and uvicorn stay out of `botarena`'s start-up)."""

from __future__ import annotations

import contextlib
import sys
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.cliparts import fail
from botarena.core.replay import ReplayError, StepMismatch, load
from botarena.core.rules import GameError
from botarena.core.spec import BotSpecError

DELIVERY_WAIT_S = 600
"""After a watched game ends: how long to wait for a page to get its last step."""


def view(
    path: Annotated[Path, typer.Argument(metavar="REPLAY", help="a replay file")],
    html: Annotated[
        Path | None, typer.Option(help="write one self-contained HTML file here instead of serving")
    ] = None,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="print the URL, do not open a browser")
    ] = False,
    host: Annotated[str, typer.Option(help="address to serve on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to serve on (0: any free port)")] = 0,
) -> None:
    """Watch a replay in the browser: served locally (the URL is printed), or written as one
    self-contained HTML file (--html) to share or attach to a bug report."""
    from botarena.web.viewdoc import standalone_html, view_document

    check_port(port)
    try:
        document = load(path)
    except ReplayError as exc:
        fail(str(exc))
    if html is not None:
        try:
            text = standalone_html(view_document(document))
            html.write_text(text, encoding="utf-8")
        except (ReplayError, GameError, StepMismatch) as exc:
            fail(f"{path}: cannot be shown: {exc}")
        except OSError as exc:
            fail(f"--html {html}: cannot write ({exc.strerror or exc})")
        print(f"viewer: {html} ({len(text) // 1024} KiB, self-contained)")
        return
    from botarena.web.server import replay_app

    try:
        app = replay_app(document)
    except (ReplayError, GameError, StepMismatch) as exc:
        fail(f"{path}: cannot be shown: {exc}")
    server = _server(app, host, port)
    print(f"viewer: {server.url} (Ctrl-C to stop)", flush=True)
    if not no_open:
        webbrowser.open(server.url)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()


def check_port(port: int) -> None:
    """A TCP port (0: any free one), else one line and exit 2."""
    if not 0 <= port <= 65535:
        fail(f"--port {port}: a TCP port is between 0 and 65535")


def _server(app: Any, host: str, port: int, processes: int = 1) -> Any:
    from botarena.web.server import Server

    try:
        return Server(app, host, port, processes=processes)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port} ({exc.strerror or exc})")


def watched(
    game: str,
    bots: list[str],
    seed: int | str | None,
    map_file: Path | None,
    replay: Path | None,
    options: dict[str, Any],
    sandbox: bool = True,
) -> Any:
    """Play one game while the viewer shows it; returns the game's result once a page got
    the last step (or on Ctrl-C). `sandbox=False`: process bots run without the sandbox."""
    import botarena
    from botarena.web.server import LIVE_INTERVAL_S, LiveGame, live_app

    live = LiveGame()
    server = _server(live_app(live), "127.0.0.1", 0)
    stop = server.start()
    print(f"watch: {server.url}", file=sys.stderr, flush=True)
    webbrowser.open(server.url)
    try:
        result = botarena._play(
            game,
            bots,
            seed=seed,
            map=map_file,
            replay=replay,
            options=options,
            observe=live.attach,
            sandbox=sandbox,
        )
    except (GameError, BotSpecError, ReplayError, OSError) as exc:
        stop()
        fail(str(exc))
    live.finish(result.document)
    if not live.delivered.wait(0.2 + 2 * LIVE_INTERVAL_S):
        print(
            f"watch: game over; waiting for the viewer at {server.url} (Ctrl-C to stop)",
            file=sys.stderr,
            flush=True,
        )
        with contextlib.suppress(KeyboardInterrupt):
            live.delivered.wait(DELIVERY_WAIT_S)
    stop()
    return result


def serve(
    db: Annotated[
        str,
        typer.Option(help="the tournament store: sqlite:///FILE or postgresql://USER@HOST:PORT/DB"),
    ] = "sqlite:///botarena.db",
    host: Annotated[str, typer.Option(help="address to serve on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to serve on")] = 8000,
) -> None:
    """The leaderboard: tournaments, standings, cross tables, games (each opening in the
    viewer), bot pages, and their JSON API; read-only; live while a tournament runs."""
    from botarena.tournament.store import Store, StoreError, sqlite_path
    from botarena.web.leaderboard import leaderboard_app

    check_port(port)
    path = sqlite_path(db)
    if path is not None and not path.exists():
        fail(f"--db {db}: no such database file")
    try:
        store = Store.open(db, read_only=True)
    except StoreError as exc:
        fail(str(exc))
    server = _server(leaderboard_app(store, db), host, port)
    print(f"leaderboard: {server.url} (Ctrl-C to stop)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    store.close()
