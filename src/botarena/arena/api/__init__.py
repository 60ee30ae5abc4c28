"""The contest site's JSON API and app: accounts, uploads, bots, games, standings, admin.

Every answer is JSON (`{"error": one reason}` on a 4xx) except starters and the export. A
caller is known by `Authorization: Bearer TOKEN` (the API) or by the session cookie (the
pages: HttpOnly, SameSite=Lax, and every change made with it must carry the session's CSRF
token in `X-CSRF-Token`). Build logs and stderr are shown only to the bot's owner and the
organiser, here and in replays. The handlers run in starlette's thread pool (the store is
synchronous); the web process never builds: uploads wait for a worker (arena/pipeline.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from botarena.arena import store as arena
from botarena.arena.api.site import SESSION_COOKIE, ApiError, Call, Site
from botarena.tournament.store import Store
from botarena.web import server as _ids  # noqa: F401 - registers the `{game:id}` path type

__all__ = ["ApiError", "Call", "Site", "api_routes", "arena_app", "endpoint", "parse_body"]

JSON_LIMIT = 16 << 10
"""The largest JSON body read (a log-in is a few dozen bytes)."""
UPLOAD_OVERHEAD = 1 << 20
"""A multipart body may exceed the source limit by this much (archive and form framing)."""


async def api_error(request: Request, exc: Exception) -> Response:
    """An ApiError raised anywhere in a route: `{"error": reason}` with its code and headers.
    A password hash that found no free slot (auth.HashesBusy, on any route that hashes or
    checks one) is a 503 saying when to try again."""
    from botarena.arena.auth import HashesBusy

    if isinstance(exc, HashesBusy):
        exc = ApiError(503, str(exc), exc.retry_after)
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.reason}, exc.status, headers=exc.headers)


# -- the app ----------------------------------------------------------------------------------
Handler = Callable[..., Any]
"""A route's work: (Call, **path parameters) -> a JSON body, (code, body) or a Response."""


def _answer(result: Any) -> Response:
    if isinstance(result, Response):
        return result
    status, body = result if isinstance(result, tuple) else (200, result)
    return JSONResponse(body, status_code=status)


async def _json_body(request: Request) -> Any:
    """The request's JSON body (None for a method that sends none, {} for an empty one),
    read no further than JSON_LIMIT bytes."""
    if request.method in ("GET", "HEAD", "DELETE"):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > JSON_LIMIT:
            raise ApiError(413, f"the request body is larger than {JSON_LIMIT} bytes")
    return parse_body(bytes(body)) if body else {}


def parse_body(data: bytes) -> Any:
    """`data` as strict JSON in UTF-8, or ApiError 400: the one reader of every JSON body, so
    no handler sees what it cannot use. Arrays and objects nest at most MAX_NESTING deep
    (core/reader.py's bound, checked here without recursion; a parse past Python's own
    depth is refused as well), integers fit 64 bits (what the store holds), and every
    string is Unicode text: a lone surrogate such as `\\ud800` is valid JSON but no text
    (no hasher, store or page could encode it)."""
    import msgspec

    from botarena.core.reader import MAX_NESTING

    deep = f"the request body nests arrays or objects more than {MAX_NESTING} deep"
    try:
        value = msgspec.json.decode(data)
    except RecursionError:
        raise ApiError(400, deep) from None
    except ValueError as exc:  # msgspec's DecodeError and UnicodeDecodeError
        raise ApiError(
            400, f"the request body is not JSON of Unicode text in UTF-8 ({exc})"
        ) from None
    stack = [(value, 0)]  # each value and the arrays or objects around it
    while stack:
        node, around = stack.pop()
        if isinstance(node, dict | list):
            if around == MAX_NESTING:
                raise ApiError(400, deep)
            items = node.values() if isinstance(node, dict) else node
            stack.extend((item, around + 1) for item in items)
        elif isinstance(node, int) and not -(2**63) <= node < 2**63:
            raise ApiError(400, "the request body holds an integer beyond 64 bits")
    return value


def endpoint(site: Site, handler: Callable[..., Any]) -> Callable[[Request], Awaitable[Response]]:
    """A route: the JSON body read (bounded), the caller identified, the handler run in the
    thread pool (an ApiError becomes its answer in `api_error`)."""

    async def route(request: Request) -> Response:
        body = await _json_body(request)
        user, session = await run_in_threadpool(site.identify, request)
        call = Call(request, body, user, session)
        return _answer(await run_in_threadpool(handler, call, **request.path_params))

    return route


def api_routes(site: Site) -> list[Route]:
    """The JSON API's routes (docs/site.md lists them)."""

    async def post_bot(request: Request) -> Response:
        user, session = await run_in_threadpool(site.identify, request)
        call = Call(request, None, user, session)
        site.needs_user(call)
        filename, data, name = await _read_upload(request, site)
        return _answer((202, await run_in_threadpool(site.upload, call, filename, data, name)))

    def session_post(call: Call) -> Response:
        from botarena.arena.auth import new_token

        user = site.authenticate(call)
        token, digest = new_token()
        arena.remember(site.store, user, digest, "session")
        response = JSONResponse(site.session_info(user, digest))
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=arena.SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            path="/",
            secure=call.request.url.scheme == "https",
        )
        return response

    def session_get(call: Call) -> dict[str, Any]:
        user = site.needs_user(call)
        if call.session is None:
            raise ApiError(401, "no session: log in")
        return site.session_info(user, call.session)

    def session_delete(call: Call) -> Response:
        if call.session is not None:
            arena.revoke(site.store, call.session)
        response = JSONResponse({"logged_out": call.session is not None})
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    def starter(call: Call, language: str) -> Response:
        name, text = site.starter(language)
        headers = {}
        if call.request.query_params.get("download"):
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return PlainTextResponse(text, headers=headers)

    def standings(call: Call) -> list[dict[str, Any]]:
        return [row.to_dict() for row in site.standings()]

    def replay(call: Call, game: int) -> dict[str, Any]:
        return site.replay_for(call.user, game)

    def openapi(call: Call) -> dict[str, Any]:
        from botarena.arena.openapi import document

        return document()

    routes: dict[tuple[str, str], Handler] = {
        ("POST", "/api/register"): site.register,
        ("POST", "/api/login"): site.login,
        ("DELETE", "/api/token"): site.logout_token,
        ("POST", "/api/session"): session_post,
        ("GET", "/api/session"): session_get,
        ("DELETE", "/api/session"): session_delete,
        ("GET", "/api/contest"): site.contest_info,
        ("GET", "/api/starters/{language}"): starter,
        ("GET", "/api/bots/{bot:path}"): lambda call, bot: site.bot(call, bot),
        ("GET", "/api/games/{game:id}"): lambda call, game: site.game(call, game),
        ("GET", "/api/games/{game:id}/replay"): replay,
        ("GET", "/api/standings"): standings,
        ("GET", "/api/me"): site.me,
        ("POST", "/api/admin/bots/{bot}/disable"): lambda call, bot: site.set_disabled(
            call, bot, True
        ),
        ("POST", "/api/admin/bots/{bot}/enable"): lambda call, bot: site.set_disabled(
            call, bot, False
        ),
        ("POST", "/api/admin/games/{game:id}/void"): lambda call, game: site.void(call, game),
        ("POST", "/api/admin/deadline"): site.deadline,
        ("POST", "/api/admin/finals"): site.finals,
        ("GET", "/api/admin/export"): site.export,
        ("GET", "/api/openapi.json"): openapi,
    }
    by_path: dict[str, dict[str, Handler]] = {}
    for (method, path), handler in routes.items():
        by_path.setdefault(path, {})[method] = handler
    made = [Route("/api/bots", post_bot, methods=["POST"])]
    for path, methods in by_path.items():
        made.append(Route(path, _dispatch(site, methods), methods=list(methods)))
    return made


def _dispatch(site: Site, methods: dict[str, Handler]) -> Callable[[Request], Awaitable[Response]]:
    routes = {method: endpoint(site, handler) for method, handler in methods.items()}

    async def route(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        return await routes[method](request)

    return route


async def _read_upload(request: Request, site: Site) -> tuple[str, bytes, str | None]:
    """The multipart form's `file` (its name and bytes) and `name`, read within the limit
    before anything is checked or stored."""
    cap = int(site.contest.settings["max_source_bytes"]) + UPLOAD_OVERHEAD
    declared = request.headers.get("content-length", "")
    if not declared.isdigit():  # with one, the server reads no more than it says
        raise ApiError(411, "send the upload with a Content-Length")
    if int(declared) > cap:
        raise ApiError(413, f"the upload is larger than {cap} bytes")
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise ApiError(400, "send the source as multipart/form-data with a field `file`")
    try:
        form = await request.form(max_files=1, max_fields=4)
    except HTTPException as exc:
        raise ApiError(400, f"the form cannot be read: {exc.detail}") from None
    try:
        upload = form.get("file")
        name = form.get("name")
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "no file: send the source in the field `file`")
        data = await upload.read(cap + 1)
        if len(data) > cap:
            raise ApiError(413, f"the upload is larger than {cap} bytes")
        if name is not None and not isinstance(name, str):
            raise ApiError(400, "the field `name` is text")
        return upload.filename or "", data, (name or "").strip() or None
    finally:
        await form.close()


def arena_app(store: Store, name: str, insecure: bool = False) -> Starlette:
    """The whole site: the JSON API and the pages (arena/pages.py's shell and the viewer)."""
    from botarena.arena.auth import HashesBusy
    from botarena.arena.guard import ErrorBoundary, SecurityHeaders, http_error
    from botarena.arena.pages import SECURITY_HEADERS, headers_by_path, page_routes

    site = Site(store, name, insecure)

    def replay_of(request: Request, game_id: int) -> dict[str, Any]:
        try:
            user, _ = site.identify(request)
            return site.replay_for(user, game_id)
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
