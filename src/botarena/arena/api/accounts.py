"""Accounts and who is signed in: signing up, logging in, API tokens, and the pages' session
(a cookie, and the CSRF token every change made with it carries); the log-in and sign-up
rate limits are applied here."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from starlette.responses import JSONResponse, Response

from botarena.arena import store as arena
from botarena.arena.api.http import Routes
from botarena.arena.api.site import SESSION_COOKIE, ApiError, Call, Site, reserved
from botarena.arena.store import ArenaError, User


def credentials(call: Call) -> tuple[str, str]:
    body = call.body if isinstance(call.body, dict) else {}
    name, password = body.get("user"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise ApiError(400, 'give {"user": NAME, "password": PASSWORD}')
    return name, password


def register(site: Site, call: Call) -> tuple[int, dict[str, Any]]:
    from botarena.arena.auth import hash_password, new_token, valid_password, valid_user

    name, password = credentials(call)
    problem = valid_user(name) or valid_password(password)
    if problem:
        raise ApiError(400, problem)
    if reserved(name):
        raise ApiError(400, f"the user name {name!r} is reserved")
    address = call.request.client.host if call.request.client else "?"
    if not site.signups.allow(address):
        raise ApiError(
            429,
            "too many accounts made from this address: try again later",
            site.signups.retry_after(address),
        )
    hashed = hash_password(password)  # before the write lock: it may wait for a slot
    try:
        with site.store.transaction() as conn:
            user = arena.add_user(conn, site.contest, name, hashed)
    except ArenaError as exc:
        raise ApiError(409, str(exc)) from None
    except sa.exc.IntegrityError:
        raise ApiError(409, f"the user name {name!r} is taken") from None
    token, digest = new_token()
    arena.remember(site.store, user, digest, "token")
    return 201, {"user": user.name, "token": token}


def _limit(site: Site, call: Call, name: str) -> None:
    address = call.request.client.host if call.request.client else "?"
    key = arena.fold(name)  # every spelling of one user shares its limits
    for limiter, limited in ((site.logins, f"{key}|{address}"), (site.per_user, key)):
        if not limiter.allow(limited):
            raise ApiError(
                429,
                "too many attempts: wait a minute and try again",
                limiter.retry_after(limited),
            )


def authenticate(site: Site, call: Call) -> User:
    """The user whose password was given; 401 with the same words for an unknown user."""
    from botarena.arena import auth

    name, password = credentials(call)
    _limit(site, call, name)
    row = arena.user_row(site.reader, site.contest, name)
    # an unknown user is checked against a dummy hash: refused in the same time
    if not auth.check_password(None if row is None else row.password_hash, password):
        raise ApiError(401, "wrong user name or password")
    if auth.needs_rehash(row.password_hash):
        arena.set_password_hash(site.store, row.id, auth.hash_password(password))
    return User(row.id, row.name, bool(row.organiser))


def login(site: Site, call: Call) -> tuple[int, dict[str, Any]]:
    from botarena.arena.auth import new_token

    user = authenticate(site, call)
    token, digest = new_token()
    arena.remember(site.store, user, digest, "token")
    return 200, {"token": token}


def logout_token(site: Site, call: Call) -> tuple[int, dict[str, Any]]:
    from botarena.arena.auth import token_digest

    user = site.needs_user(call)
    token = call.request.headers.get("authorization", "").partition(" ")[2].strip()
    if not token:
        raise ApiError(400, "DELETE /api/token revokes the Bearer token it is sent with")
    arena.revoke(site.store, token_digest(token))
    return 200, {"user": user.name, "revoked": True}


def session_info(site: Site, user: User, digest: str) -> dict[str, Any]:
    from botarena.arena.auth import csrf_token

    return {
        "user": user.name,
        "organiser": user.organiser,
        "csrf": csrf_token(site.contest.secret, digest),
    }


def session_post(site: Site, call: Call) -> Response:
    from botarena.arena.auth import new_token

    user = authenticate(site, call)
    token, digest = new_token()
    arena.remember(site.store, user, digest, "session")
    response = JSONResponse(session_info(site, user, digest))
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


def session_get(site: Site, call: Call) -> dict[str, Any]:
    user = site.needs_user(call)
    if call.session is None:
        raise ApiError(401, "no session: log in")
    return session_info(site, user, call.session)


def session_delete(site: Site, call: Call) -> Response:
    if call.session is not None:
        arena.revoke(site.store, call.session)
    response = JSONResponse({"logged_out": call.session is not None})
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


ROUTES: Routes = {
    ("POST", "/api/register"): register,
    ("POST", "/api/login"): login,
    ("DELETE", "/api/token"): logout_token,
    ("POST", "/api/session"): session_post,
    ("GET", "/api/session"): session_get,
    ("DELETE", "/api/session"): session_delete,
}
