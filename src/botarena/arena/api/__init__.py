"""The contest site's JSON API and app: accounts, uploads, bots, games, standings, admin.

Every answer is JSON (`{"error": one reason}` on a 4xx) except starters and the export. A
caller is known by `Authorization: Bearer TOKEN` (the API) or by the session cookie (the
pages: HttpOnly, SameSite=Lax, and every change made with it must carry the session's CSRF
token in `X-CSRF-Token`). Build logs and stderr are shown only to the bot's owner and the
organiser, here and in replays. The handlers run in starlette's thread pool (the store is
synchronous); the web process never builds: uploads wait for a worker (arena/pipeline.py).

One module per resource, each with its handlers and its table of routes: accounts.py
(sign-up, log-in, tokens, sessions), bots.py (the contest, starters, uploads, bots, /api/me,
standings), botgames.py (a bot's games and rating history), games.py (a game, its replay),
stages.py (test competitions and finals with their standings), organiser.py (the
organiser's changes and the export), overview.py (the lists the organiser's page shows).
They share the context in site.py (`Site`: the store,
who is asking, the caches; `ApiError`, `Call`); http.py reads requests and answers them. A
new route goes in its resource's ROUTES and in arena/openapi.py's OPERATIONS (a test holds
the two equal).
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route

from botarena.arena.api import (
    accounts,
    botgames,
    bots,
    games,
    organiser,
    overview,
    stages,
)
from botarena.arena.api.http import Handler, Routes, api_error, dispatch, parse_body
from botarena.arena.api.site import ApiError, Call, Site
from botarena.tournament.store import Store
from botarena.web import server as _ids  # noqa: F401 - registers the `{game:id}` path type

__all__ = ["ApiError", "Site", "api_routes", "arena_app", "parse_body"]


def api_routes(site: Site) -> list[Route]:
    """The JSON API's routes (docs/site.md lists them): every resource's, and the document."""
    routes: Routes = {}
    tables = (accounts, botgames, bots, games, stages, organiser, overview)  # botgames before bots'
    # `/api/bots/{bot:path}`, which would take its paths
    for table in (*(module.ROUTES for module in tables), ROUTES):
        for key, handler in table.items():
            if key in routes:
                raise ValueError(f"two handlers for {key[0]} {key[1]}")
            routes[key] = handler
    by_path: dict[str, dict[str, Handler]] = {}
    for (method, path), handler in routes.items():
        by_path.setdefault(path, {})[method] = handler
    made = [bots.upload_route(site)]
    for path, methods in by_path.items():
        made.append(Route(path, dispatch(site, methods), methods=list(methods)))
    return made


def openapi(site: Site, call: Call) -> dict[str, Any]:
    from botarena.arena.openapi import document

    return document()


ROUTES: Routes = {("GET", "/api/openapi.json"): openapi}
"""The API's own route: its OpenAPI document."""


def arena_app(store: Store, name: str, insecure: bool = False) -> Starlette:
    """The whole site: the JSON API and the pages (arena/pages.py's shell and the viewer)."""
    from botarena.arena.auth import HashesBusy
    from botarena.arena.guard import ErrorBoundary, SecurityHeaders, http_error
    from botarena.arena.pages import SECURITY_HEADERS, headers_by_path, page_routes
    from botarena.arena.statement import languages

    site = Site(store, name, insecure)
    # the upload languages' toolchain versions, probed once before the first page asks
    threading.Thread(target=languages, name="toolchains", daemon=True).start()

    def replay_of(request: Request, game_id: int) -> dict[str, Any]:
        try:
            user, _ = site.identify(request)
            return games.replay_for(site, user, game_id)
        except ApiError as exc:
            raise HTTPException(exc.status, exc.reason) from None

    app = Starlette(
        routes=[*api_routes(site), *page_routes(replay_of)],
        exception_handlers={ApiError: api_error, HashesBusy: api_error, HTTPException: http_error},
    )
    app.add_middleware(ErrorBoundary)  # inside the headers: a 500 carries them too
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS, by_path=headers_by_path())
    app.state.site = site
    return app
