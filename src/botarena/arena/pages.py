"""The contest site's pages: one HTML shell for every page path (the pages draw themselves
from the JSON API), the viewer for a game, and the static files both need."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from botarena.web.server import RENDERER_ROUTE, STATIC, gzipped
from botarena.web.viewdoc import page, view_document

ASSETS = resources.files("botarena.arena").joinpath("static")
PAGE_PATHS = (
    "/",
    "/signup",
    "/login",
    "/upload",
    "/me",
    "/admin",
    "/bots/{bot:path}",
    "/games/{game:int}",
)
SECURITY_HEADERS = {
    # the pages' own scripts only: a name or a log that got into the HTML could not run
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

ReplayOf = Callable[[Request, int], dict[str, Any]]
"""The replay of a game as the asking user may see it (other owners' stderr removed); raises
starlette's HTTPException(404) for a game that is not there."""


def page_routes(replay_of: ReplayOf) -> list[BaseRoute]:
    """The routes of the pages; the JSON API's routes are the site's own."""
    shell = ASSETS.joinpath("site.html").read_text()

    async def html(_: Request) -> HTMLResponse:
        return HTMLResponse(shell, headers=SECURITY_HEADERS)

    def viewer(request: Request) -> HTMLResponse:  # sync: starlette runs it in its threads
        replay_of(request, request.path_params["game"])  # 404 before a page that cannot load
        return HTMLResponse(page({"url": "replay.json.gz"}, inline=False, static="/static/"))

    def replay(request: Request) -> Response:  # reads the store: never on the event loop
        document = view_document(replay_of(request, request.path_params["game"]))
        return Response(gzipped(document), media_type="application/octet-stream")

    return [
        *(Route(path, html) for path in PAGE_PATHS),
        Route("/games/{game:int}/view/", viewer),
        Route("/games/{game:int}/view/replay.json.gz", replay),
        RENDERER_ROUTE,
        Mount("/static", StaticFiles(directory=STATIC)),
        Mount("/assets", StaticFiles(directory=str(ASSETS))),
    ]
