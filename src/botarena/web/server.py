"""The local viewer server: one replay (`botarena view`) or a game being played
(`botarena play --watch`, sent to the page as server-sent events), on 127.0.0.1; and the
uvicorn server every botarena site runs on (`Server`)."""

from __future__ import annotations

import asyncio
import base64
import copy
import gzip
import json
import signal
import socket
import threading
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

import uvicorn
import uvicorn.config
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.supervisors.multiprocess import SIGNALS as SUPERVISOR_SIGNALS
from uvicorn.supervisors.multiprocess import Multiprocess

from botarena.web.viewdoc import BotIo, page, renderers, view_document

STATIC = str(resources.files("botarena.web").joinpath("static"))
MAX_ID = 2**63 - 1
"""The largest row id a store holds (SQLite's integer, PostgreSQL's bigint)."""


def _up_to(largest: int) -> str:
    """A regular expression matching the decimal numbers 0 to `largest` (leading zeros
    allowed within its digits' count), nothing larger."""
    digits = str(largest)
    shorter = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    below = [
        f"{digits[:at]}[0-{int(digit) - 1}][0-9]{{{len(digits) - at - 1}}}"
        for at, digit in enumerate(digits)
        if digit != "0"
    ]
    return "|".join([*shorter, *below, digits])


class StoreId(Convertor[int]):
    """`{NAME:id}` in a route's path: a row id, 0 to MAX_ID. A larger number matches no
    route (404) instead of reaching a query that would overflow (a 500)."""

    regex = f"(?:{_up_to(MAX_ID)})"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", StoreId())
LIVE_INTERVAL_S = 0.5
"""How often a watched game's page gets the steps played since the last update."""


class LiveGame:
    """A replay document the referee is still filling: its steps grow, `finish` ends it."""

    def __init__(self) -> None:
        self.document: dict[str, Any] | None = None
        self.finished = threading.Event()
        self.delivered = threading.Event()
        """Set once a page was sent the finished game."""
        self.io: BotIo | None = None
        """The bots' texts of the steps sent so far (made once a step, not per update)."""
        self.io_lock = threading.Lock()  # two pages' streams update `io` from two threads

    def attach(self, document: dict[str, Any]) -> None:
        self.document = document

    def finish(self, document: dict[str, Any]) -> None:
        self.document = document
        self.finished.set()

    def snapshot(self) -> tuple[int, str] | None:
        """(steps so far, the packed view document), or None before the game starts."""
        document = self.document
        if document is None:
            return None
        copy = {**document, "steps": list(document["steps"])}
        # as a replay file holds it (tuples are lists): what the rules re-play and verify read
        copy = json.loads(json.dumps(copy))
        with self.io_lock:
            if copy["steps"]:  # after the handshake, whose faults the re-play starts from
                if self.io is None:
                    self.io = BotIo(copy)
                self.io.add(copy["steps"][len(self.io.steps) :])
            return len(copy["steps"]), _b64(view_document(copy, self.io or BotIo(copy)))


def gzipped(document: dict[str, Any]) -> bytes:
    """A view document as the page fetches it (the page inflates it)."""
    return gzip.compress(json.dumps(document, separators=(",", ":")).encode(), 6, mtime=0)


def renderer(request: Request) -> Response:
    """`static/games/GAME.js`: the game's renderer, served from its own package."""
    code = renderers().get(request.path_params["game"])
    if code is None:
        return Response("no such renderer", status_code=404, media_type="text/plain")
    return Response(code, media_type="text/javascript")


RENDERER_ROUTE = Route("/static/games/{game}.js", renderer)
"""Mounted before `/static` wherever the viewer page is served."""


def _b64(document: dict[str, Any]) -> str:
    return base64.b64encode(gzipped(document)).decode("ascii")


def replay_app(replay: dict[str, Any]) -> Starlette:
    """The viewer page and one replay (its view document, gzip: the page inflates it)."""
    data = gzipped(view_document(replay))

    async def index(_: Request) -> HTMLResponse:
        return HTMLResponse(page({"url": "replay.json.gz"}, inline=False))

    async def document(_: Request) -> Response:
        return Response(data, media_type="application/octet-stream")

    return Starlette(
        routes=[
            Route("/", index),
            Route("/replay.json.gz", document),
            RENDERER_ROUTE,
            Mount("/static", StaticFiles(directory=STATIC)),
        ]
    )


def live_app(game: LiveGame) -> Starlette:
    """The viewer page following `game`: a `doc` event whenever steps were added, `end` once
    the game is over."""

    async def index(_: Request) -> HTMLResponse:
        return HTMLResponse(page({"sse": "events"}, inline=False))

    async def stream() -> AsyncIterator[str]:
        sent = -1
        while True:
            done = game.finished.is_set()
            snapshot = await asyncio.to_thread(game.snapshot)
            if snapshot is not None and snapshot[0] != sent:
                sent = snapshot[0]
                yield f"event: doc\ndata: {snapshot[1]}\n\n"
            if done:
                yield "event: end\ndata: over\n\n"
                game.delivered.set()
                return
            await asyncio.sleep(LIVE_INTERVAL_S)

    async def events(_: Request) -> StreamingResponse:
        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    return Starlette(
        routes=[
            Route("/", index),
            Route("/events", events),
            RENDERER_ROUTE,
            Mount("/static", StaticFiles(directory=STATIC)),
        ]
    )


HEAD_TIMEOUT_S = 10.0
"""How long a connection may take to send a whole request head (its request line and
headers) before it is closed: one that sends half a header and waits holds nothing for long.
The head's size is bounded by uvicorn (h11: 16 KiB)."""


class HeadTimeout(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol, closing a connection that has not sent a whole request head
    within `head_timeout_s` of opening or of its last answer (uvicorn alone waits for a first
    head forever, and a started second head stops its keep-alive timer). A class of this
    module, so a server's worker processes import it by name."""

    head_timeout_s = HEAD_TIMEOUT_S

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.head_wait: asyncio.TimerHandle | None = None
        self.await_head()

    def await_head(self) -> None:
        self.head_wait = self.loop.call_later(self.head_timeout_s, self.head_late)

    def head_late(self) -> None:
        self.head_wait = None
        if self.cycle is None or self.cycle.response_complete:  # no head since
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.head_wait is not None and self.cycle and not self.cycle.response_complete:
            self.head_wait.cancel()  # a whole head arrived: the answer is the app's
            self.head_wait = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        idle = self.cycle is None or self.cycle.response_complete  # not a pipelined next
        if idle and self.head_wait is None and not self.transport.is_closing():
            self.await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_wait is not None:
            self.head_wait.cancel()
        super().connection_lost(exc)


def head_timeout(seconds: float) -> type[asyncio.Protocol]:
    """The HeadTimeout protocol closing a connection after `seconds` without a whole head."""
    if seconds == HEAD_TIMEOUT_S:
        return HeadTimeout
    return type("HeadTimeout", (HeadTimeout,), {"head_timeout_s": seconds})


def _log_config() -> dict[str, Any]:
    """uvicorn's logging, with botarena's own loggers on the same stream and format: the
    contest site's errors (with their id and traceback) show in `arena serve`'s log. Each
    line starts with its time (UTC, ISO 8601), so a log read later says when."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["botarena"] = {"handlers": ["default"], "level": "INFO"}
    for formatter in config["formatters"].values():
        formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
        formatter["datefmt"] = "%Y-%m-%dT%H:%M:%S%z"
    return config


class _Processes(Multiprocess):
    """uvicorn's supervisor of worker processes, ending as uvicorn's one-process server
    does: the signal handlers it replaced are put back, then the signal that stopped it is
    raised again (botarena's own handler: exit status 128 + its number)."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        self.replaced = {sig: signal.getsignal(sig) for sig in SUPERVISOR_SIGNALS}
        self.stopped_by: list[int] = []
        super().__init__(config, sockets)

    def handle_int(self) -> None:
        self.stopped_by.append(signal.SIGINT)
        super().handle_int()

    def handle_term(self) -> None:
        self.stopped_by.append(signal.SIGTERM)
        super().handle_term()

    def run(self) -> None:
        try:
            super().run()
        finally:
            for sig, handler in self.replaced.items():
                if handler is not None:
                    signal.signal(sig, handler)
        for sig in self.stopped_by[:1]:
            signal.raise_signal(sig)


class Server:
    """uvicorn on a socket bound here, so port 0 gets a free port whose URL is known
    before serving starts; a connection slow to send its request head is closed after
    `head_timeout_s`. With `processes` above 1, that many worker processes (uvicorn's own
    supervisor, which starts one again when it dies) accept on the one socket; each imports
    `app`, then an import string (`module:attribute`), since a process cannot be handed an
    app object."""

    def __init__(
        self,
        app: Starlette | str,
        host: str,
        port: int,
        head_timeout_s: float = HEAD_TIMEOUT_S,
        processes: int = 1,
    ) -> None:
        if processes > 1 and not isinstance(app, str):
            raise ValueError("worker processes import their app: give it as 'module:attribute'")
        self.socket = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(128)  # connections made once the URL is printed wait for uvicorn
        bound = self.socket.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{bound}/"
        self.processes = processes
        self.server = uvicorn.Server(
            uvicorn.Config(
                app,
                http=head_timeout(head_timeout_s),
                log_level="warning",
                log_config=_log_config(),
                lifespan="off",
                timeout_graceful_shutdown=1,
                workers=processes,
            )
        )

    def run(self) -> None:
        """Serve in this thread until interrupted (Ctrl-C, or SIGTERM with processes)."""
        if self.processes > 1:
            _Processes(self.server.config, sockets=[self.socket]).run()
        else:
            self.server.run(sockets=[self.socket])

    def start(self) -> Callable[[], None]:
        """Serve in a background thread; returns the function that stops it (one process
        only: the processes' supervisor takes its signals in the main thread)."""
        if self.processes > 1:
            raise ValueError("a server of several processes runs in the main thread")
        thread = threading.Thread(target=self.run, daemon=True)
        thread.start()

        def stop() -> None:
            self.server.should_exit = True
            thread.join(timeout=5)

        return stop
