"""The contest site's pages: one HTML shell for every page path (the pages draw themselves
from the JSON API), the viewer for a game, and the static files both need."""

from __future__ import annotations

import base64
import hashlib
import re
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
    "/rules",
    "/me",
    "/admin",
    "/bots/{bot:path}",
    "/games/{game:id}",
    "/stages/{name}",
)
VIEWER_PATHS = "/games/[0-9]+/view/"
"""The viewer's page and its replay (a pattern matched at the start of a path)."""


def _policy(scripts: str = "'self'") -> str:
    """The Content-Security-Policy: the site's own scripts only (a name or a log that got
    into the HTML could not run), and no page of the site inside another's frame."""
    return (
        f"default-src 'self'; script-src {scripts}; img-src 'self' data:;"
        " style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
    )


SECURITY_HEADERS = {
    "Content-Security-Policy": _policy(),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""On every answer of the site (guard.SecurityHeaders); `headers_by_path` adds to them."""


def viewer_html() -> str:
    """The viewer's page for a game of the site: it fetches the replay beside it."""
    return page({"url": "replay.json.gz"}, inline=False, static="/static/")


def headers_by_path() -> list[tuple[str, dict[str, str]]]:
    """The API's answers are never cached; the viewer's page runs one inline script (its
    start), allowed by its hash and nothing else."""
    inline = re.findall(r"<script>(.*?)</script>", viewer_html(), re.DOTALL)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()}'"
        for code in inline
    )
    return [
        ("/api/", {"Cache-Control": "no-store"}),
        (VIEWER_PATHS, {"Content-Security-Policy": _policy(f"'self' {hashes}")}),
    ]


ReplayOf = Callable[[Request, int], dict[str, Any]]
"""The replay of a game as the asking user may see it (other owners' stderr removed); raises
starlette's HTTPException(404) for a game that is not there."""


def page_routes(replay_of: ReplayOf) -> list[BaseRoute]:
    """The routes of the pages; the JSON API's routes are the site's own."""
    shell = ASSETS.joinpath("site.html").read_text()
    viewer_page = viewer_html()

    async def html(_: Request) -> HTMLResponse:
        return HTMLResponse(shell)

    def viewer(request: Request) -> HTMLResponse:  # sync: starlette runs it in its threads
        replay_of(request, request.path_params["game"])  # 404 before a page that cannot load
        return HTMLResponse(viewer_page)

    def replay(request: Request) -> Response:  # reads the store: never on the event loop
        document = view_document(replay_of(request, request.path_params["game"]))
        return Response(gzipped(document), media_type="application/octet-stream")

    return [
        *(Route(path, html) for path in PAGE_PATHS),
        Route("/games/{game:id}/view/", viewer),
        Route("/games/{game:id}/view/replay.json.gz", replay),
        RENDERER_ROUTE,
        Mount("/static", StaticFiles(directory=STATIC)),
        Mount("/assets", StaticFiles(directory=str(ASSETS))),
    ]
