"""Reading a request and answering it, for every route of the site's API: JSON bodies read
bounded and strictly, uploads read within their limit, the caller identified, the handler
run in the thread pool, and an ApiError turned into its answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from botarena.arena.api.site import ApiError, Call, Site

JSON_LIMIT = 16 << 10
"""The largest JSON body read (a log-in is a few dozen bytes)."""

UPLOAD_OVERHEAD = 1 << 20
"""A multipart body may exceed the source limit by this much (archive and form framing)."""


Handler = Callable[..., Any]
"""A route's work: (Site, Call, **path parameters) -> a JSON body, (code, body) or a
Response."""
Routes = dict[tuple[str, str], Handler]
"""(method, path) -> its handler: a resource's part of the API."""


async def api_error(request: Request, exc: Exception) -> Response:
    """An ApiError raised anywhere in a route: `{"error": reason}` with its code and headers.
    A password hash that found no free slot (auth.HashesBusy, on any route that hashes or
    checks one) is a 503 saying when to try again."""
    from botarena.arena.auth import HashesBusy

    if isinstance(exc, HashesBusy):
        exc = ApiError(503, str(exc), exc.retry_after)
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.reason}, exc.status, headers=exc.headers)


def answer(result: Any) -> Response:
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

    from botarena.core.bounds import MAX_NESTING

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


def endpoint(site: Site, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A route: the JSON body read (bounded), the caller identified, the handler run in the
    thread pool (an ApiError becomes its answer in `api_error`)."""

    async def route(request: Request) -> Response:
        body = await _json_body(request)
        user, session = await run_in_threadpool(site.identify, request)
        call = Call(request, body, user, session)
        return answer(await run_in_threadpool(handler, site, call, **request.path_params))

    return route


def dispatch(site: Site, methods: dict[str, Handler]) -> Callable[[Request], Awaitable[Response]]:
    routes = {method: endpoint(site, handler) for method, handler in methods.items()}

    async def route(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        return await routes[method](request)

    return route


async def read_upload(request: Request, site: Site) -> tuple[str, bytes, str | None, str | None]:
    """The multipart form's `file` (its name and bytes), `name` and `role` (a role game's),
    read within the limit before anything is checked or stored."""
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
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "no file: send the source in the field `file`")
        data = await upload.read(cap + 1)
        if len(data) > cap:
            raise ApiError(413, f"the upload is larger than {cap} bytes")
        texts: dict[str, str | None] = {}
        for field in ("name", "role"):
            value = form.get(field)
            if value is not None and not isinstance(value, str):
                raise ApiError(400, f"the field `{field}` is text")
            texts[field] = (value or "").strip() or None
        return upload.filename or "", data, texts["name"], texts["role"]
    finally:
        await form.close()
