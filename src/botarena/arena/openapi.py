"""The contest site's OpenAPI 3.1 document, served at `/api/openapi.json`.

Built from the typed shapes (arena/shapes.py) and the table of operations below, so the
document contestants' scripts read is the one the API fuzzer (tests/test_api_fuzz.py)
holds every answer of a live site to. Each operation lists every status it can answer;
links say how a token from signing up is used by the next calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec

from botarena.arena import shapes
from botarena.web.server import MAX_ID

REF = "#/components/schemas/{name}"


BOT_NAME = {"type": "string", "pattern": shapes.NAME_PATTERN}


@dataclass(frozen=True)
class Operation:
    """One method on one path: what it takes, who may call it, what it answers."""

    summary: str
    answers: dict[int, Any]
    """Status -> the shape of the JSON answer, or a media type for other answers."""
    body: Any = None
    auth: bool = False
    tags: tuple[str, ...] = ()
    links: dict[str, dict[str, Any]] = field(default_factory=dict)
    query: tuple[dict[str, Any], ...] = ()
    """The query parameters it reads."""


BEARER = {"header.Authorization": "Bearer {$response.body#/token}"}
TOKEN_LINKS = {
    "Me": {"operationId": "get_me", "parameters": BEARER},
    "Revoke": {"operationId": "delete_token", "parameters": BEARER},
}


def _link(operation: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation, "parameters": parameters}


PAGE = (
    {
        "name": "before",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        "description": "only games with a smaller id (the previous page's `next`)",
    },
    {
        "name": "limit",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
    },
)
"""The query of a list of games a page at a time, newest first."""

OPERATIONS: dict[tuple[str, str], Operation] = {
    ("post", "/api/register"): Operation(
        "Sign up: a new user and its API token",
        {
            201: shapes.Registered,
            409: shapes.Error,
            429: shapes.Error,
            503: shapes.Error,
        },
        body=shapes.NewAccount,
        tags=("accounts",),
        links=TOKEN_LINKS,
    ),
    ("post", "/api/login"): Operation(
        "Log in: a new API token",
        {
            200: shapes.Token,
            429: shapes.Error,
            503: shapes.Error,
        },
        body=shapes.Credentials,
        tags=("accounts",),
        links=TOKEN_LINKS,
    ),
    ("delete", "/api/token"): Operation(
        "Revoke the Bearer token this call is sent with",
        {200: shapes.Revoked, 403: shapes.Error},
        auth=True,
        tags=("accounts",),
    ),
    ("post", "/api/session"): Operation(
        "Log in a browser: sets the session cookie, answers its CSRF token",
        {
            200: shapes.Session,
            429: shapes.Error,
            503: shapes.Error,
        },
        body=shapes.Credentials,
        tags=("accounts",),
    ),
    ("get", "/api/session"): Operation(
        "The browser session's user and CSRF token",
        {200: shapes.Session, 401: shapes.Error},
        auth=True,
        tags=("accounts",),
    ),
    ("delete", "/api/session"): Operation(
        "Log a browser out",
        {200: shapes.LoggedOut, 403: shapes.Error},
        tags=("accounts",),
    ),
    ("get", "/api/contest"): Operation(
        "The contest: its game, languages, deadline and upload limits",
        {200: shapes.Contest, 401: shapes.Error},
        tags=("contest",),
    ),
    ("get", "/api/rules"): Operation(
        "The contest's statement: the game's rules, options and time limits, limits,"
        " how each language is built, the starters",
        {200: shapes.Rules},
        tags=("contest",),
    ),
    ("get", "/api/starters/{language}"): Operation(
        "The game's starter bot in a language (in a role game, `role`'s; default the first)",
        {200: "text/plain", 404: shapes.Error},
        tags=("contest",),
        query=(
            {
                "name": "role",
                "in": "query",
                "required": False,
                "schema": {"type": "string", "maxLength": 100},
                "description": "a role game's role, as in `/api/contest`'s `roles`",
            },
            {
                "name": "download",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "any value: sent as an attachment",
            },
        ),
    ),
    ("get", "/api/standings"): Operation(
        "The ladder's standings, best first (or a stage's, with `tournament`)",
        {200: (list[shapes.Standing], list[shapes.StageStanding]), 404: shapes.Error},
        tags=("contest",),
        links={"Leader": _link("get_bots_bot", **{"path.bot": "$response.body#/0/bot"})},
        query=(
            {
                "name": "tournament",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "the ladder (the default), its finals or a test competition",
            },
        ),
    ),
    ("get", "/api/stages"): Operation(
        "The contest's test competitions and finals, with their progress",
        {200: list[shapes.StageSummary]},
        tags=("contest",),
    ),
    ("get", "/api/stages/{name}"): Operation(
        "A test competition's or the finals' progress and standings",
        {200: shapes.Stage, 404: shapes.Error},
        tags=("contest",),
    ),
    ("post", "/api/bots"): Operation(
        "Upload a bot's source (a new bot, or a new version of one's own)",
        {
            202: shapes.Accepted,
            409: shapes.Error,
            411: shapes.Error,
            429: shapes.Error,
        },
        body="multipart/form-data",
        auth=True,
        tags=("bots",),
        links={"Bot": _link("get_bots_bot", **{"path.bot": "$response.body#/bot"})},
    ),
    ("get", "/api/bots/{bot}"): Operation(
        "A bot: its status and rating (its build log and test game for its owner)",
        {200: shapes.Bot, 404: shapes.Error},
        tags=("bots",),
    ),
    ("get", "/api/bots/{bot}/games"): Operation(
        "A bot's games, newest first, each from its side (won, drew or lost)",
        {200: shapes.BotGames, 404: shapes.Error},
        tags=("bots",),
        query=(
            *PAGE,
            {
                "name": "opponent",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "only games against this bot",
            },
        ),
    ),
    ("post", "/api/bots/{bot}/challenge"): Operation(
        "Play one game now of your bot against another, outside the ladder (not rated)",
        {
            202: shapes.Challenged,
            404: shapes.Error,
            409: shapes.Error,
            429: shapes.Error,
        },
        body=shapes.ChallengeAsked,
        auth=True,
        tags=("bots",),
        links={"Game": _link("get_games_game", **{"path.game": "$response.body#/game"})},
    ),
    ("get", "/api/bots/{bot}/ratings"): Operation(
        "A bot's ladder rating after each rated game, per version",
        {200: shapes.BotRatings, 404: shapes.Error},
        tags=("bots",),
    ),
    ("get", "/api/bots/{bot}/versions/{version}/compare"): Operation(
        "Is this version better than the one it replaced? Its compare games and their SPRT",
        {200: shapes.Comparison, 404: shapes.Error},
        tags=("bots",),
    ),
    ("get", "/api/me"): Operation(
        "The caller's bots and their latest games",
        {200: shapes.Me, 401: shapes.Error},
        auth=True,
        tags=("bots",),
        links={
            "MyBot": _link("get_bots_bot", **{"path.bot": "$response.body#/bots/0/bot"}),
            "MyGame": _link("get_games_game", **{"path.game": "$response.body#/games/0/id"}),
            "MyReplay": _link(
                "get_games_game_replay", **{"path.game": "$response.body#/games/0/id"}
            ),
        },
    ),
    ("get", "/api/games/{game}"): Operation(
        "A game: its seats, scores and result (a seat's stderr for its owner)",
        {200: shapes.Game, 404: shapes.Error},
        tags=("games",),
    ),
    ("get", "/api/games/{game}/replay"): Operation(
        "A game's replay (docs/viewer.md), other owners' stderr emptied",
        {200: shapes.Replay, 404: shapes.Error},
        tags=("games",),
    ),
    ("post", "/api/admin/bots/{bot}/disable"): Operation(
        "Take a bot off the ladder (the organiser)",
        {200: shapes.Disabled, 404: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("post", "/api/admin/bots/{bot}/enable"): Operation(
        "Put a disabled bot back (the organiser)",
        {200: shapes.Disabled, 404: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("post", "/api/admin/games/{game}/void"): Operation(
        "Void a played game; the ladder is rated again without it (the organiser)",
        {
            200: shapes.Voided,
            404: shapes.Error,
            409: shapes.Error,
        },
        auth=True,
        tags=("admin",),
    ),
    ("post", "/api/admin/deadline"): Operation(
        "Set or clear the deadline (the organiser)",
        {200: shapes.Deadline, 403: shapes.Error},
        body=shapes.DeadlineChange,
        auth=True,
        tags=("admin",),
    ),
    ("post", "/api/admin/finals"): Operation(
        "Start the finals over the ladder's best bots (the organiser)",
        {
            200: shapes.Finals,
            409: shapes.Error,
        },
        body=shapes.FinalsChange,
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/admin/bots"): Operation(
        "Every bot: owner, versions, status, the version playing, games (the organiser)",
        {200: list[shapes.AdminBot], 403: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/admin/users"): Operation(
        "Every user and how many bots each owns (the organiser)",
        {200: list[shapes.AdminUser], 403: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/admin/games"): Operation(
        "The contest's games, newest first, by bot and status (the organiser)",
        {200: shapes.AdminGames, 400: shapes.Error, 403: shapes.Error},
        auth=True,
        tags=("admin",),
        query=(
            {"name": "bot", "in": "query", "required": False, "schema": {"type": "string"}},
            {
                "name": "status",
                "in": "query",
                "required": False,
                "schema": {"enum": ["pending", "claimed", "done", "void", "error"]},
            },
            *PAGE,
        ),
    ),
    ("get", "/api/admin/uploads"): Operation(
        "The upload queue: versions being built or tested, oldest first (the organiser)",
        {200: list[shapes.QueuedUpload], 403: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/admin/workers"): Operation(
        "The workers, live or gone by their heartbeats (the organiser)",
        {200: list[shapes.Worker], 403: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/admin/export"): Operation(
        "Every bot's source, the standings and every game, as a tar.gz (the organiser)",
        {200: "application/gzip", 403: shapes.Error},
        auth=True,
        tags=("admin",),
    ),
    ("get", "/api/openapi.json"): Operation(
        "This document",
        {200: "application/json"},
        tags=("contest",),
    ),
}

PARAMETERS = {
    "bot": {"name": "bot", "in": "path", "required": True, "schema": BOT_NAME},
    "name": {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
    "language": {"name": "language", "in": "path", "required": True, "schema": {"type": "string"}},
    "version": {
        "name": "version",
        "in": "path",
        "required": True,
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
    },
    "game": {
        "name": "game",
        "in": "path",
        "required": True,
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
    },
}

UPLOAD_FORM = {
    "type": "object",
    "required": ["file"],
    "properties": {
        "file": {"type": "string", "format": "binary", "description": "the source or archive"},
        "name": {**BOT_NAME, "description": "the bot's name (default: the user's)"},
        "role": {
            "type": "string",
            "maxLength": 100,
            "description": "the role a new bot plays in a role game (one of the contest's"
            " `roles`, hyphens for spaces allowed); later versions keep it",
        },
    },
}


@cache
def document() -> dict[str, Any]:
    """The whole OpenAPI document (made once: it never changes while a site runs)."""
    named = [shapes.Error]
    named += [
        one
        for op in OPERATIONS.values()
        for answer in op.answers.values()
        for one in (answer if isinstance(answer, tuple) else (answer,))
    ]
    named += [op.body for op in OPERATIONS.values()]
    types = list(dict.fromkeys(t for t in named if t is not None and not isinstance(t, str)))
    refs, components = msgspec.json.schema_components(types, ref_template=REF)
    ref_of = dict(zip(types, refs, strict=True))
    paths: dict[str, dict[str, Any]] = {}
    for (method, path), op in OPERATIONS.items():
        paths.setdefault(path, {})[method] = _operation(method, path, op, ref_of)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "botarena contest site",
            "version": "1",
            "description": "The JSON API of a botarena contest (docs/site.md).",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "token": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "botarena_session"},
            },
        },
    }


def _operation(method: str, path: str, op: Operation, ref_of: dict[Any, Any]) -> dict[str, Any]:
    made: dict[str, Any] = {
        "operationId": operation_id(method, path),
        "summary": op.summary,
        "tags": list(op.tags),
        "responses": {
            str(code): _answer(code, shape, ref_of, op)
            for code, shape in sorted({**_common(method), **op.answers}.items())
        },
    }
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    if names or op.query:
        made["parameters"] = [*(PARAMETERS[name] for name in names), *op.query]
    if op.body == "multipart/form-data":
        made["requestBody"] = {
            "required": True,
            "content": {"multipart/form-data": {"schema": UPLOAD_FORM}},
        }
    elif op.body is not None:
        made["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref_of[op.body]}},
        }
    if op.auth:
        made["security"] = [{"token": []}, {"session": []}]
    return made


def operation_id(method: str, path: str) -> str:
    """`get_games_game_replay` for GET /api/games/{game}/replay (links name operations so)."""
    words = path.removeprefix("/api/").replace("{", "").replace("}", "").replace(".", "_")
    return f"{method}_{words.replace('/', '_')}"


def _common(method: str) -> dict[int, Any]:
    """What any operation may answer: a token that is not valid (401), a server fault
    (500, naming its log entry), a store that cannot answer for now (503, arena/guard.py);
    and, for a change, a body that is malformed or too large and a session cookie without
    its CSRF token (403)."""
    common: dict[int, Any] = {401: shapes.Error, 500: shapes.Error, 503: shapes.Error}
    if method != "get":
        common.update({400: shapes.Error, 403: shapes.Error, 413: shapes.Error})
    return common


def _answer(code: int, shape: Any, ref_of: dict[Any, Any], op: Operation) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": _WORDS.get(code, "the answer")}
    if isinstance(shape, str):
        answer["content"] = {shape: {"schema": {}}}
    elif isinstance(shape, tuple):  # one of several shapes
        answer["content"] = {"application/json": {"schema": {"oneOf": [ref_of[s] for s in shape]}}}
    else:
        answer["content"] = {"application/json": {"schema": ref_of[shape]}}
    if code in (429, 503):
        answer["headers"] = {
            "Retry-After": {"required": True, "schema": {"type": "integer", "minimum": 0}}
        }
    if 200 <= code < 300 and op.links:
        answer["links"] = op.links
    return answer


_WORDS = {
    200: "done",
    201: "made",
    202: "accepted: it waits for a worker",
    400: "the request is malformed (the reason says what)",
    401: "not logged in, or a wrong token or password",
    403: "not allowed (the organiser's, another's, or after the deadline)",
    404: "no such thing",
    409: "in conflict with what is there (a name taken, a game not played)",
    411: "an upload without a Content-Length",
    413: "too large",
    429: "too many in a while: wait Retry-After seconds",
    500: "an internal error: the site's log holds it under `id`",
    503: "busy, or the store cannot answer for now: wait Retry-After seconds",
}
