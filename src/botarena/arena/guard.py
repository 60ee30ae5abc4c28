"""The contest site's edge: the one error boundary and the one place security headers are set.

Every HTTP route of the site (the API, the pages, the viewer, static files) passes through
both. A user's mistake is answered where it is read (`{"error": reason}`, a 4xx); anything
else becomes a 500 `{"error": "internal error", "id": ID}` whose traceback is logged under
the same ID (logger `botarena.arena`), so a stranger never sees a traceback and the site
keeps serving. A store that cannot answer for now (its server restarting or down, out of
connections, a SQLite file busy, or refused as damaged) is no bug: a 503 with Retry-After,
and one line in the log.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

log = logging.getLogger("botarena.arena")

STORE_RETRY_AFTER_S = 5
"""What a 503 for a store that cannot answer tells the client to wait (a server restart)."""


def store_unavailable(exc: BaseException) -> str | None:
    """Why the store cannot answer now, in one line, when `exc` says so: the database's
    server is down, starting or out of connections, a SQLite file is busy (SQLAlchemy's
    OperationalError and InterfaceError: the connection's errors, never a query's own), or
    the store was refused (StoreError: damaged, of another revision). None for any other
    exception, which is a bug: a 500."""
    import sqlalchemy as sa

    from botarena.tournament.store import StoreError

    if isinstance(exc, StoreError):
        return str(exc)
    if isinstance(exc, sa.exc.OperationalError | sa.exc.InterfaceError):
        reason = str(exc.orig if exc.orig is not None else exc).strip().splitlines()
        return reason[0] if reason else exc.__class__.__name__
    return None


class ErrorBoundary:
    """ASGI middleware: an exception no route answered becomes a 500 with an id, logged with
    its traceback. Nothing is re-raised, so the server logs nothing twice and keeps going."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            why = store_unavailable(exc)
            if why is not None:
                log.warning(
                    "the store cannot answer %s %r: %s", scope.get("method"), scope.get("path"), why
                )
                if not started:
                    wait = f"try again in {STORE_RETRY_AFTER_S} s"
                    answer = JSONResponse(
                        {"error": f"the store cannot answer now: {wait}"},
                        status_code=503,
                        headers={"Retry-After": str(STORE_RETRY_AFTER_S)},
                    )
                    await answer(scope, receive, send)
                return
            ident = secrets.token_hex(4)
            log.exception(
                "internal error %s on %s %r", ident, scope.get("method"), scope.get("path")
            )
            if not started:  # else the answer is cut short: the client sees it end early
                answer = JSONResponse({"error": "internal error", "id": ident}, status_code=500)
                await answer(scope, receive, send)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method not allowed): JSON on the API, as
    every API answer is; plain text on the pages."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, exc.status_code, headers=exc.headers)
    return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)


class SecurityHeaders:
    """ASGI middleware: `headers` on every response of the site, each path pattern of
    `by_path` matching at the start of the path replacing or adding its own; a header the
    route set itself is kept."""

    def __init__(
        self, app: Any, headers: dict[str, str], by_path: Sequence[tuple[str, dict[str, str]]]
    ) -> None:
        self.app = app
        self.headers = _raw(headers)
        self.by_path = [(re.compile(pattern), _raw(extra)) for pattern, extra in by_path]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chosen = dict(self.headers)
        for pattern, extra in self.by_path:
            if pattern.match(scope["path"]):
                chosen.update(extra)

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((k, v) for k, v in chosen.items() if k not in present),
                ]
            await send(message)

        await self.app(scope, receive, sending)


def _raw(headers: dict[str, str]) -> dict[bytes, bytes]:
    return {k.lower().encode("latin-1"): v.encode("latin-1") for k, v in headers.items()}
