"""The contest and its bots: the contest's facts, the starters, uploads (`POST /api/bots`),
a bot (its build log and test game for its owner and the organiser), `/api/me` and the
standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from botarena.arena import store as arena
from botarena.arena.api.http import Routes, answer, read_upload
from botarena.arena.api.site import ApiError, Call, Site, game_summary, iso, plain, reserved
from botarena.arena.store import (
    ArenaError,
    NameTaken,
    SameSource,
    User,
    arena_bots,
    uploads,
    users,
)
from botarena.core import starters
from botarena.core.registry import game_info
from botarena.core.rules import GameError
from botarena.tournament import stages
from botarena.tournament.store import bots, games

RECENT_GAMES = 20


def contest_info(site: Site, call: Call) -> dict[str, Any]:
    deadline = stages.stored_deadline(site.contest.name, site.ladder().plan)
    settings = site.contest.settings
    return {
        "name": site.contest.name,
        "game": site.contest.ladder.game,
        "languages": [entry["language"] for entry in upload_languages()],
        "starters": starters.languages(site.contest.ladder.game, site.contest.roles),
        "insecure": site.insecure,
        "deadline": iso(deadline),
        "max_source_bytes": settings["max_source_bytes"],
        "uploads_per_hour": settings["uploads_per_hour"],
        "organiser": bool(call.user and call.user.organiser),
        "session": _session_of(site, call),
        "min_seats": game_info(site.contest.ladder.game).min_seats,
        "roles": list(site.contest.roles),
    }


def _session_of(site: Site, call: Call) -> dict[str, Any] | None:
    """The browser session's user and CSRF token (as `GET /api/session`), None without one:
    the pages learn who is logged in without a 401 in the browser's console."""
    from botarena.arena.api.accounts import session_info

    if call.user is None or call.session is None:
        return None
    return session_info(site, call.user, call.session)


def upload_languages() -> list[dict[str, Any]]:
    from botarena.arena.statement import languages

    return languages()


def rules(site: Site, call: Call) -> dict[str, Any]:
    """The contest's statement (arena/statement.py), with its deadline."""
    from botarena.arena.statement import statement

    ladder_now = site.ladder()
    found = statement(site.contest, ladder_now.options)
    return {**found, "deadline": iso(stages.stored_deadline(ladder_now.name, ladder_now.plan))}


def starter_file(site: Site, language: str, role: str | None) -> tuple[str, str]:
    """(file name, text) of the game's starter in `language`; in a role game, of `role`
    (default: the first role)."""
    chosen = starters.LANGUAGES.get(language.lower())
    if chosen is None:
        raise ApiError(404, f"no starter in {language!r}: python, cpp or java")
    game = site.contest.ladder.game
    try:
        played = site.contest.role_named(role)
    except arena.BadRole as exc:
        raise ApiError(404, str(exc)) from None
    if site.contest.roles and played is None:
        played = site.contest.roles[0]
    stem = starters.stem_of(game, played)
    try:
        if stem is None:
            raise KeyError(played)
        return starters.file_name(stem, chosen), starters.source(game, stem, chosen)
    except (OSError, KeyError, GameError):
        for_role = "" if played is None else f" for the {played}"
        raise ApiError(404, f"{game} has no {chosen} starter{for_role}") from None


def upload(
    site: Site, call: Call, filename: str, data: bytes, name: str | None, role: str | None = None
) -> dict[str, Any]:
    from botarena.arena.auth import valid_user
    from botarena.arena.uploads import UploadRefused, check_upload
    from botarena.tournament.manage import TournamentError, refuse_if_frozen

    user = site.needs_user(call)
    name = name or user.name
    problem = valid_user(name)
    if problem:
        raise ApiError(400, f"bot name: {problem}")
    if reserved(name):
        raise ApiError(400, f"the bot name {name!r} is reserved")
    try:
        played = site.contest.role_named(role)
    except arena.BadRole as exc:
        raise ApiError(400, str(exc)) from None
    try:
        refuse_if_frozen(site.ladder())
    except TournamentError:
        raise ApiError(403, "the contest's deadline has passed: no new bots or updates") from None
    try:  # before the archive is read: a user past the bound costs no work
        with site.reader.engine.connect() as conn:
            arena.within_uploads_per_hour(conn, site.contest, user)
    except arena.TooManyUploads as exc:
        raise ApiError(429, str(exc), exc.wait) from None
    try:
        checked = check_upload(
            filename, data, max_source_bytes=int(site.contest.settings["max_source_bytes"])
        )
    except UploadRefused as exc:
        raise ApiError(400, str(exc)) from None
    try:
        bot, version = arena.add_upload(
            site.store, site.contest, user, name, filename, data, checked.language, played
        )
    except arena.BadRole as exc:
        raise ApiError(400, str(exc)) from None
    except (NameTaken, SameSource) as exc:
        raise ApiError(409, str(exc)) from None
    except arena.TooManyUploads as exc:
        raise ApiError(429, str(exc), exc.wait) from None
    except ArenaError as exc:
        raise ApiError(403, str(exc)) from None
    except sa.exc.IntegrityError:  # two first uploads of one name at once
        raise ApiError(409, f"bot {name!r} was just taken or updated: try again") from None
    return {"bot": bot, "version": version, "status": "building"}


def get_bot(site: Site, call: Call, bot: str) -> dict[str, Any]:
    with site.reader.engine.connect() as conn:
        row = arena.bot_row(conn, site.contest, bot)
        if row is None:
            raise ApiError(404, f"no bot {bot!r}")
        versions = conn.execute(
            sa.select(uploads).where(uploads.c.bot_id == row.id).order_by(uploads.c.version)
        ).all()
    return _bot_json(site, call.user, row, versions, site.ratings())


def _bot_json(
    site: Site, user: User | None, row: Any, versions: Sequence[Any], ratings: dict[str, Any]
) -> dict[str, Any]:
    latest = versions[-1]
    active = next((v for v in reversed(versions) if v.status == "active"), None)
    rank, rating, played = (None, None, 0)
    if active is not None and active.label in ratings and not row.disabled:
        rank, rating, played = ratings[active.label]
    answer: dict[str, Any] = {
        "bot": row.name,
        "owner": row.owner,
        "version": latest.version,
        "status": latest.status,
        "rating": rating,
        "rank": rank,
        "games": played,
        "active_version": None if active is None else active.version,
        "disabled": bool(row.disabled),
        "role": row.role,
    }
    if site.may_see(user, row.owner):
        answer["build_log"] = latest.build_log or ""
        answer["reason"] = latest.reason
        answer["test_game"] = _test_game(latest)
        answer["versions"] = [
            {
                "version": v.version,
                "status": v.status,
                "file": v.filename,
                "language": v.language,
                "uploaded": iso(v.created_at),
                "reason": v.reason,
                "test_game": v.test_game_id,
            }
            for v in versions
        ]
    return answer


def _test_game(version: Any) -> dict[str, Any] | None:
    if version.test_game_id is None:
        return None
    passed = version.status in ("active", "retired") and not version.reason
    return {
        "id": version.test_game_id,
        "result": "passed" if passed else (version.reason or version.status),
        "stderr": version.stderr or "",
    }


def me(site: Site, call: Call) -> dict[str, Any]:
    user = site.needs_user(call)
    ratings = site.ratings()
    with site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(arena_bots, users.c.name.label("owner"))
            .join(users, users.c.id == arena_bots.c.owner_id)
            .where(arena_bots.c.owner_id == user.id)
            .order_by(arena_bots.c.name)
        ).all()
        mine = []
        for row in rows:
            versions = conn.execute(
                sa.select(uploads).where(uploads.c.bot_id == row.id).order_by(uploads.c.version)
            ).all()
            mine.append(_bot_json(site, user, row, versions, ratings))
        labels = (
            conn.execute(
                sa.select(bots.c.label).where(
                    bots.c.tournament_id == site.contest.ladder.id,
                    bots.c.name.in_([row.name for row in rows]),
                )
            )
            .scalars()
            .all()
        )
        recent = _games_with(site, conn, set(labels)) if labels else []
    return {"user": user.name, "organiser": user.organiser, "bots": mine, "games": recent}


def _games_with(site: Site, conn: Any, labels: set[str]) -> list[dict[str, Any]]:
    """The latest ladder games any of `labels` played (newest first), each with its result
    from the side of the first of them in it."""
    from botarena.arena.api.botgames import result_of

    found = []
    query = (
        sa.select(games)
        .where(
            games.c.tournament_id == site.contest.ladder.id,
            games.c.status.in_(("done", "void")),
        )
        .order_by(games.c.id.desc())
        .limit(2000)
    )
    for row in conn.execute(query):
        if labels & set(row.seats):
            seat = next(index for index, label in enumerate(row.seats) if label in labels)
            result = "void" if row.status == "void" else result_of(plain(row.ranks), seat)
            found.append({**game_summary(row), "result": result})
            if len(found) == RECENT_GAMES:
                break
    return found


def starter(site: Site, call: Call, language: str) -> Response:
    name, text = starter_file(site, language, call.request.query_params.get("role"))
    headers = {}
    if call.request.query_params.get("download"):
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return PlainTextResponse(text, headers=headers)


def standings(site: Site, call: Call) -> list[dict[str, Any]]:
    """The ladder's standings; `?tournament=NAME` a stage's (its finals, a test competition)."""
    from botarena.arena.api.stages import get_stage

    name = call.request.query_params.get("tournament")
    if name is None or name == site.contest.name:
        who = _owners_and_languages(site)
        return [
            {"rank": row.rank, "bot": row.bot, **who.get(row.label, NOBODY), **row.to_dict()}
            for row in site.standings()
        ]
    rows: list[dict[str, Any]] = get_stage(site, call, name)["standings"]
    return rows


NOBODY = {"owner": None, "language": None}
"""The owner and language of a bot of the organiser's own (the sample bot)."""


def _owners_and_languages(site: Site) -> dict[str, dict[str, Any]]:
    """Ladder label -> the owner of its bot and the language of that version."""
    with site.reader.engine.connect() as conn:
        rows = conn.execute(
            sa.select(uploads.c.label, uploads.c.language, users.c.name.label("owner"))
            .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
            .join(users, users.c.id == arena_bots.c.owner_id)
            .where(arena_bots.c.contest_id == site.contest.id, uploads.c.label.is_not(None))
        ).all()
    return {row.label: {"owner": row.owner, "language": row.language} for row in rows}


def upload_route(site: Site) -> Route:
    """`POST /api/bots`: the caller known before the multipart body is read (within its
    limit), the upload checked and stored in the thread pool; 202 while it waits to be built."""

    async def post_bot(request: Request) -> Response:
        user, session = await run_in_threadpool(site.identify, request)
        call = Call(request, None, user, session)
        site.needs_user(call)
        filename, data, name, role = await read_upload(request, site)
        return answer(
            (202, await run_in_threadpool(upload, site, call, filename, data, name, role))
        )

    return Route("/api/bots", post_bot, methods=["POST"])


ROUTES: Routes = {
    ("GET", "/api/contest"): contest_info,
    ("GET", "/api/rules"): rules,
    ("GET", "/api/starters/{language}"): starter,
    ("GET", "/api/bots/{bot:path}"): get_bot,
    ("GET", "/api/standings"): standings,
    ("GET", "/api/me"): me,
}
