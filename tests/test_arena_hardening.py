"""The contest site against a stranger's input (issue 34): one error boundary for every route,
bounded JSON bodies, ids beyond the store, deadlines out of range, the security headers on
every answer, Retry-After on every 429 and 503, look-alike names, bounded password hashing."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from arena_helpers import (
    client,
    game_ids,
    good_bot,
    new_contest,
    register,
    settle,
    upload,
)
from botarena.tournament.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Any:
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, "uploads_per_hour=2")
    opened = Store.open(db)
    yield opened
    opened.close()


@pytest.fixture
def web(store: Store) -> Any:
    with client(store) as made:
        yield made


def _broken(*_: Any, **__: Any) -> Any:
    raise RuntimeError("a bug the site did not foresee")


# -- one error boundary ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "patched"),
    [
        ("GET", "/api/contest", "ladder"),
        ("POST", "/api/login", "authenticate"),
        ("GET", "/api/games/1", "game"),
        ("GET", "/games/1/view/", "replay_for"),
        ("GET", "/games/1/view/replay.json.gz", "replay_for"),
    ],
)
def test_an_unexpected_error_is_a_500_with_an_id_and_a_logged_traceback(
    web: Any, caplog: Any, method: str, path: str, patched: str
) -> None:
    setattr(web.app.state.site, patched, _broken)
    with caplog.at_level(logging.ERROR, logger="botarena.arena"):
        answer = web.request(method, path, json={})
    assert answer.status_code == 500
    body = answer.json()
    assert set(body) == {"error", "id"} and body["error"] == "internal error"
    assert re.fullmatch(r"[0-9a-f]{8}", body["id"])
    assert answer.headers["x-content-type-options"] == "nosniff"
    [record] = [r for r in caplog.records if r.name == "botarena.arena"]
    assert body["id"] in record.getMessage() and path in record.getMessage()
    assert record.exc_info is not None and "did not foresee" in str(record.exc_info[1])
    assert web.get("/api/starters/python").status_code == 200  # the site goes on


def test_starlettes_own_refusals_are_json_on_the_api(web: Any) -> None:
    missing = web.get("/api/nothing-here")
    assert (missing.status_code, missing.json()) == (404, {"error": "Not Found"})
    wrong = web.delete("/api/contest")
    assert (wrong.status_code, wrong.json()) == (405, {"error": "Method Not Allowed"})
    assert wrong.headers["allow"] == "GET, HEAD"
    page = web.get("/nothing-here")
    assert (page.status_code, page.text) == (404, "Not Found")


# -- the security headers on every answer ------------------------------------------------------
@pytest.fixture
def a_game(store: Store, web: Any) -> int:
    """A played game (an upload's test game)."""
    assert upload(web, register(web, "alice"), "bot.py", good_bot()).status_code == 202
    settle(store)
    return game_ids(store)[0]


def _assert_guarded(answer: Any) -> None:
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]


def test_every_answer_carries_the_security_headers(web: Any, a_game: int) -> None:
    paths = {
        "/": 200,
        "/bots/alice": 200,
        "/static/viewer.css": 200,
        "/assets/site.js": 200,
        "/static/games/amazes.js": 200,
        "/api/contest": 200,
        f"/api/games/{a_game}": 200,
        f"/games/{a_game}/view/": 200,
        f"/games/{a_game}/view/replay.json.gz": 200,
        "/games/999999/view/": 404,
        "/api/nothing": 404,
        "/nothing": 404,
    }
    for path, code in paths.items():
        answer = web.get(path)
        assert answer.status_code == code, path
        _assert_guarded(answer)
        assert ("no-store" in answer.headers.get("cache-control", "")) == path.startswith("/api/")


def test_the_viewer_may_run_its_own_start_script_only(web: Any, a_game: int) -> None:
    answer = web.get(f"/games/{a_game}/view/")
    [inline] = re.findall(r"<script>(.*?)</script>", answer.text, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    scripts = answer.headers["content-security-policy"].split("script-src ")[1].split(";")[0]
    assert scripts == f"'self' 'sha256-{digest}'"
    assert web.get("/").headers["content-security-policy"].count("script-src 'self';") == 1


# -- Retry-After on every 429 ------------------------------------------------------------------
def test_every_429_says_when_to_retry(web: Any) -> None:
    from botarena.arena.auth import RateLimiter

    site = web.app.state.site
    site.logins = RateLimiter(1, 60, clock=lambda: 100.0)
    site.signups = RateLimiter(1, 3600, clock=lambda: 100.0)
    tries = [web.post("/api/login", json={"user": "bob", "password": "password-1"}) for _ in "ab"]
    assert [a.status_code for a in tries] == [401, 429]
    assert tries[1].headers["retry-after"] == "60"
    alice = register(web, "alice")
    again = web.post("/api/register", json={"user": "bob", "password": "password-1"})
    assert (again.status_code, again.headers["retry-after"]) == (429, "3600")
    for name in ("a", "b"):
        assert upload(web, alice, "bot.py", good_bot(), name=name).status_code == 202
    third = upload(web, alice, "bot.py", good_bot(), name="c")
    assert third.status_code == 429
    assert 3590 <= int(third.headers["retry-after"]) <= 3600


def test_a_429_without_its_wait_is_a_bug() -> None:
    from botarena.arena.api import ApiError

    with pytest.raises(ValueError, match="429"):
        ApiError(429, "slow down")
    assert ApiError(503, "busy", 0.2).headers == {"Retry-After": "1"}
    assert ApiError(429, "slow down", 59.01).headers == {"Retry-After": "60"}
