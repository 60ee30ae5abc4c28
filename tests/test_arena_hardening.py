"""The contest site against a stranger's input (issue 34): one error boundary for every route,
bounded JSON bodies, ids beyond the store, deadlines out of range, the security headers on
every answer, Retry-After on every 429 and 503, look-alike names, bounded password hashing."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_helpers import (
    client,
    game_ids,
    good_bot,
    opened_contest,
    organiser,
    register,
    settle,
    upload,
)
from botarena.tournament.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with opened_contest(tmp_path, "uploads_per_hour=2") as opened:
        yield opened


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
        ("GET", "/api/contest", "botarena.tournament.stages.stored_deadline"),
        ("POST", "/api/login", "botarena.arena.store.user_row"),
        ("GET", "/api/games/1", "botarena.arena.store.game_row"),
        ("GET", "/games/1/view/", "botarena.arena.store.game_row"),
        ("GET", "/games/1/view/replay.json.gz", "botarena.arena.store.game_row"),
    ],
)
def test_an_unexpected_error_is_a_500_with_an_id_and_a_logged_traceback(
    web: Any, caplog: Any, monkeypatch: Any, method: str, path: str, patched: str
) -> None:
    monkeypatch.setattr(patched, _broken)  # a reader the route calls fails as a bug would
    with caplog.at_level(logging.ERROR, logger="botarena.arena"):
        answer = web.request(method, path, json={"user": "bob", "password": "password-1"})
    assert answer.status_code == 500
    body = answer.json()
    assert set(body) == {"error", "id"} and body["error"] == "internal error"
    assert re.fullmatch(r"[0-9a-f]{8}", body["id"])
    assert answer.headers["x-content-type-options"] == "nosniff"
    [record] = [r for r in caplog.records if r.name == "botarena.arena"]
    assert body["id"] in record.getMessage() and path in record.getMessage()
    assert record.exc_info is not None and "did not foresee" in str(record.exc_info[1])
    assert web.get("/api/starters/python").status_code == 200  # the site goes on


def _store_down(*_: Any, **__: Any) -> Any:
    import sqlalchemy as sa

    raise sa.exc.OperationalError(
        "SELECT 1", {}, Exception("connection refused\n\tIs the server running?")
    )


def _store_refused(*_: Any, **__: Any) -> Any:
    from botarena.tournament.store import StoreDamaged

    raise StoreDamaged("--db sqlite:///s.db: the store is damaged (disk I/O error)")


@pytest.mark.parametrize("fault", [_store_down, _store_refused])
@pytest.mark.parametrize(
    ("method", "path", "patched"),
    [
        ("GET", "/api/contest", "botarena.tournament.stages.stored_deadline"),
        ("POST", "/api/login", "botarena.arena.store.user_row"),
        ("GET", "/games/1/view/", "botarena.arena.store.game_row"),
    ],
)
def test_a_store_that_cannot_answer_is_a_503_and_one_log_line(
    web: Any, caplog: Any, monkeypatch: Any, method: str, path: str, patched: str, fault: Any
) -> None:
    """Its server restarting, down or refused as damaged is no bug: try again later."""
    monkeypatch.setattr(patched, fault)
    with caplog.at_level(logging.WARNING, logger="botarena.arena"):
        answer = web.request(method, path, json={"user": "bob", "password": "password-1"})
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "5")
    assert answer.json() == {"error": "the store cannot answer now: try again in 5 s"}
    [record] = [r for r in caplog.records if r.name == "botarena.arena"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    said = "connection refused" if fault is _store_down else "the store is damaged (disk I/O"
    assert record.getMessage().startswith(f"the store cannot answer {method} {path!r}: ")
    assert said in record.getMessage() and "\n" not in record.getMessage()


def test_starlettes_own_refusals_are_json_on_the_api(web: Any) -> None:
    missing = web.get("/api/nothing-here")
    assert (missing.status_code, missing.json()) == (404, {"error": "Not Found"})
    wrong = web.delete("/api/contest")
    assert (wrong.status_code, wrong.json()) == (405, {"error": "Method Not Allowed"})
    assert set(wrong.headers["allow"].split(", ")) == {"GET", "HEAD"}
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
    from botarena.arena.limits import RateLimiter

    site = web.app.state.site
    site.logins = RateLimiter(site.store, "cup/logins", 1, 60, clock=lambda: 100.0)
    site.signups = RateLimiter(site.store, "cup/signups", 1, 3600, clock=lambda: 100.0)
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


# -- JSON bodies: bounded depth, Unicode text ---------------------------------------------------
POSTS = [
    "/api/register",
    "/api/login",
    "/api/session",
    "/api/admin/bots/sample/disable",
    "/api/admin/bots/sample/enable",
    "/api/admin/games/1/void",
    "/api/admin/deadline",
    "/api/admin/finals",
]
DEEP = "the request body nests arrays or objects more than 64 deep"


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("depth", [65, 5000])
def test_a_deep_body_is_a_400_on_every_post(web: Any, path: str, depth: int) -> None:
    body = '{"user": ' + "[" * depth + "]" * depth + ', "password": "password-1"}'
    answer = web.post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()) == (400, {"error": DEEP})


@pytest.mark.parametrize("number", [2**63, -(2**63) - 1, 10**30])
def test_an_integer_beyond_64_bits_is_a_400(web: Any, number: int) -> None:
    answer = web.post("/api/admin/finals", json={"top": number})
    assert (answer.status_code, answer.json()) == (
        400,
        {"error": "the request body holds an integer beyond 64 bits"},
    )


def test_a_body_64_deep_is_read(web: Any) -> None:
    body = b'{"user": ' + b"[" * 63 + b"]" * 63 + b', "password": "password-1"}'
    answer = web.post("/api/login", content=body)
    assert (answer.status_code, answer.json()) == (
        400,
        {"error": 'give {"user": NAME, "password": PASSWORD}'},
    )


@pytest.mark.parametrize(
    "body",
    [
        b'{"user": "bob", "password": "\\ud800-password"}',
        b'{"user": "bob\\udfff", "password": "password-1"}',
        b'{"user": "bob", "password": "password-1", "x": {"\\ud800": 1}}',
        b'{"user": "bob", "password": "password-1\xff"}',
    ],
)
@pytest.mark.parametrize("path", ["/api/register", "/api/login", "/api/session"])
def test_text_that_is_not_unicode_never_reaches_the_hasher(
    store: Store, web: Any, path: str, body: bytes
) -> None:
    import sqlalchemy as sa

    from botarena.arena.store import users

    answer = web.post(path, content=body)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("the request body is not JSON of Unicode text")
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(users)).scalar() == 1


TEXT = st.text() | st.text(st.sampled_from(["a", "\u00e9", "\ud800", "\udfff", "\U0001f600"]))
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=20,
)


def _readable(value: Any) -> bool:
    """What the body reader takes: text that encodes, integers within 64 bits."""
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return True
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    if isinstance(value, dict):
        return all(_readable(k) and _readable(v) for k, v in value.items())
    return all(_readable(item) for item in value)


@settings(max_examples=300, deadline=None)
@given(VALUES)
@pytest.mark.slow
def test_the_body_reader_takes_text_and_64_bit_integers_only(value: Any) -> None:
    from botarena.arena.api import ApiError, parse_body

    body = json.dumps(value).encode()
    expected = json.loads(body)  # an escaped surrogate pair is one character
    if _readable(expected):
        assert parse_body(body) == expected
    else:
        with pytest.raises(ApiError) as refused:
            parse_body(body)
        assert refused.value.status == 400


@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), max_size=3000))
def test_the_body_reader_takes_64_levels_of_nesting(kinds: list[bool]) -> None:
    from botarena.arena.api import ApiError, parse_body

    body = "".join('{"k": ' if is_object else "[" for is_object in kinds) + "1"
    body += "".join("}" if is_object else "]" for is_object in reversed(kinds))
    if len(kinds) <= 64:
        assert parse_body(body.encode()) == json.loads(body)
    else:
        with pytest.raises(ApiError, match="more than 64 deep"):
            parse_body(body.encode())


# -- ids beyond the store ------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["9" * 20, str(2**63), "1" + "0" * 30, "9" * 5000])
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/{}"),
        ("GET", "/api/games/{}/replay"),
        ("GET", "/games/{}/view/"),
        ("GET", "/games/{}/view/replay.json.gz"),
        ("GET", "/games/{}"),
        ("POST", "/api/admin/games/{}/void"),
    ],
)
def test_an_id_beyond_the_store_is_a_404(web: Any, method: str, path: str, game: str) -> None:
    answer = web.request(method, path.format(game), headers=organiser(web))
    assert answer.status_code == 404
    if path.startswith("/api/"):
        assert answer.json() == {"error": "Not Found"}


def test_the_largest_id_is_looked_up(web: Any) -> None:
    largest = 2**63 - 1
    answer = web.get(f"/api/games/{largest}")
    assert (answer.status_code, answer.json()) == (404, {"error": f"no game {largest}"})
    void = web.post(f"/api/admin/games/{largest}/void", headers=organiser(web))
    assert (void.status_code, void.json()) == (404, {"error": f"no game {largest}"})


@given(st.integers(min_value=0, max_value=2**70), st.integers(min_value=0, max_value=3))
def test_the_id_path_type_takes_0_to_2_63_minus_1(number: int, zeros: int) -> None:
    from botarena.web.server import MAX_ID, StoreId

    text = "0" * zeros + str(number)
    matched = re.fullmatch(StoreId.regex, text) is not None
    assert matched == (number <= MAX_ID and len(text) <= 19)
    if matched:
        assert StoreId().convert(text) == number


# -- deadlines: checked before they are written, shown or ignored after -------------------------
FORM = (
    "a deadline is an ISO time such as 2026-12-01T18:00 (UTC unless it says) or epoch"
    " seconds, from 1970-01-01T00:00:00 to 9999-12-31T23:59:59 UTC"
)


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        (b'{"at": 1893456000000}', "1893456000000"),
        (b'{"at": "9999-12-31T23:00:00-05:00"}', "'9999-12-31T23:00:00-05:00'"),
        (b'{"at": 1e300}', "1e+300"),
        (b'{"at": -1e300}', "-1e+300"),
        (b'{"at": -1}', "-1"),
        (b'{"at": true}', "True"),
        (b'{"at": "tomorrow"}', "'tomorrow'"),
        (b'{"at": [2030]}', "[2030]"),
        (b'{"deadline": 253402300800}', "253402300800"),
    ],
)
def test_a_deadline_out_of_range_is_refused_before_it_is_written(
    web: Any, body: bytes, shown: str
) -> None:
    admin = organiser(web)
    answer = web.post("/api/admin/deadline", headers=admin, content=body)
    assert (answer.status_code, answer.json()) == (
        400,
        {"error": f"not an ISO time or epoch seconds in range: {shown}; {FORM}"},
    )
    assert web.get("/api/contest").json()["deadline"] is None


@pytest.mark.parametrize("body", [b'{"at": NaN}', b'{"at": Infinity}', b'{"at": -Infinity}'])
def test_nan_and_infinity_are_not_json(web: Any, body: bytes) -> None:
    answer = web.post("/api/admin/deadline", headers=organiser(web), content=body)
    assert answer.status_code == 400
    assert web.get("/api/contest").json()["deadline"] is None


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("9999-12-31T23:59:59", "9999-12-31T23:59:59+00:00"),
        ("2030-01-01T05:00:00+05:00", "2030-01-01T00:00:00+00:00"),
        (0, "1970-01-01T00:00:00+00:00"),
        (1893456000.5, "2030-01-01T00:00:00+00:00"),
    ],
)
def test_a_deadline_in_range_is_set_and_cleared(web: Any, given: Any, shown: str) -> None:
    admin = organiser(web)
    answer = web.post("/api/admin/deadline", headers=admin, json={"deadline": given})
    assert (answer.status_code, answer.json()) == (200, {"deadline": shown})
    assert web.get("/api/contest").json()["deadline"] == shown
    cleared = web.post("/api/admin/deadline", headers=admin, json={"deadline": None})
    assert (cleared.status_code, cleared.json()) == (200, {"deadline": None})
    assert web.get("/api/contest").json()["deadline"] is None


def test_a_deadline_body_names_one_time(web: Any) -> None:
    admin = organiser(web)
    for body in ({}, {"when": 5}, {"at": 5, "deadline": 6}):
        answer = web.post("/api/admin/deadline", headers=admin, json=body)
        assert answer.status_code == 400
        assert answer.json()["error"].startswith('give {"at": TIME}, or {"at": null} for none')


@pytest.mark.parametrize("stored", [1e300, -1e300, 1893456000000, "2030-01-01", True, [1]])
def test_a_bad_stored_deadline_never_takes_the_site_down(
    store: Store, web: Any, caplog: Any, stored: Any
) -> None:
    import sqlalchemy as sa

    from botarena.tournament.store import tournaments

    ladder = store.tournament("cup")
    assert ladder is not None
    with store.transaction() as conn:
        conn.execute(
            tournaments.update()
            .where(tournaments.c.id == ladder.id)
            .values(plan={**ladder.plan, "deadline": stored})
        )
        assert conn.execute(sa.select(tournaments.c.plan)).first() is not None
    with caplog.at_level(logging.WARNING):
        contest = web.get("/api/contest")
        assert (contest.status_code, contest.json()["deadline"]) == (200, None)
        alice = register(web, "alice")
        assert upload(web, alice, "bot.py", good_bot()).status_code == 202
    assert any("cup: its stored deadline is ignored" in r.getMessage() for r in caplog.records)
    fixed = web.post("/api/admin/deadline", headers=organiser(web), json={"at": None})
    assert fixed.status_code == 200


@given(
    st.floats()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**400)
    | st.datetimes(timezones=st.timezones())
)
def test_deadline_at_takes_exactly_1970_to_9999_utc(value: Any) -> None:
    import math
    from datetime import UTC, datetime

    from botarena.tournament.stages import deadline_at

    if isinstance(value, datetime):
        seconds = value.timestamp() if value.tzinfo else value.replace(tzinfo=UTC).timestamp()
        value = value.isoformat()
    else:
        seconds = float(value) if abs(value) < 10**308 else math.inf
    if not math.isnan(seconds) and 0 <= seconds <= 253402300799:
        assert deadline_at(value) == seconds
    else:
        with pytest.raises(ValueError, match="not an ISO time or epoch seconds in range"):
            deadline_at(value)


# -- names: one per spelling ---------------------------------------------------------------------
ONE = "names differing in case or width are one"


@pytest.mark.parametrize(("taken", "again"), [("alice", "ALICE"), ("Bob", "bob"), ("x.y", "X.Y")])
def test_a_user_name_differing_only_in_case_is_taken(web: Any, taken: str, again: str) -> None:
    register(web, taken)
    answer = web.post("/api/register", json={"user": again, "password": "password-2"})
    assert (answer.status_code, answer.json()) == (
        409,
        {"error": f"the user name {again!r} is taken as {taken!r} ({ONE})"},
    )


def test_the_organisers_and_the_sites_names_in_any_case_or_width(web: Any) -> None:
    answer = web.post("/api/register", json={"user": "Admin", "password": "password-2"})
    assert answer.status_code == 409
    alice = register(web, "alice")
    for name in ("Sample", "SAMPLE-2", "\uff33\uff21\uff2d\uff30\uff2c\uff25"):
        answer = web.post("/api/register", json={"user": name, "password": "password-2"})
        assert answer.status_code == 400
        assert upload(web, alice, "bot.py", good_bot(), name=name).status_code == 400


def test_a_user_logs_in_with_any_case_of_their_name(web: Any) -> None:
    register(web, "Alice")
    for spelling in ("Alice", "alice", "ALICE"):
        answer = web.post("/api/login", json={"user": spelling, "password": "password-1"})
        assert answer.status_code == 200, spelling
        me = web.get("/api/me", headers={"Authorization": f"Bearer {answer.json()['token']}"})
        assert me.json()["user"] == "Alice"  # shown as written
    session = web.post("/api/session", json={"user": "aLiCe", "password": "password-1"})
    assert session.json()["user"] == "Alice"


def test_a_bot_name_differing_only_in_case_is_taken(web: Any) -> None:
    alice, bob = register(web, "alice"), register(web, "bob")
    assert upload(web, alice, "bot.py", good_bot(), name="bot").status_code == 202
    for who in (bob, alice):
        answer = upload(web, who, "bot.py", good_bot(), name="Bot")
        assert (answer.status_code, answer.json()) == (
            409,
            {"error": "the bot name 'Bot' is taken as 'bot' (" + ONE + ")"},
        )
    assert upload(web, alice, "bot.py", good_bot() + "# 2\n", name="bot").status_code == 202


def test_the_store_key_refuses_a_racing_second_spelling(store: Store, web: Any) -> None:
    import sqlalchemy as sa

    from botarena.arena import store as arena

    contest = arena.contest(store, "cup")
    assert contest is not None
    with pytest.raises(sa.exc.IntegrityError), store.transaction() as conn:
        conn.execute(
            arena.names.insert().values(
                contest_id=contest.id, kind="user", folded="admin", name="ADMIN"
            )
        )


def test_names_of_an_older_store_are_filled_in(store: Store) -> None:
    """Users made before the names table (an older store) get their folded names when the
    site opens; of two that already fold alike, the older keeps the name."""
    import time

    import sqlalchemy as sa

    from botarena.arena import store as arena
    from botarena.arena.auth import hash_password

    contest = arena.contest(store, "cup")
    assert contest is not None
    with store.transaction() as conn:
        conn.execute(arena.names.delete())
        for name in ("dave", "DAVE", "Erin"):
            conn.execute(
                arena.users.insert().values(
                    contest_id=contest.id,
                    name=name,
                    password_hash=hash_password(f"{name}-password"),
                    organiser=False,
                    created_at=time.time(),
                )
            )
    with client(store) as web:
        for name in ("erin", "Admin", "Dave"):
            answer = web.post("/api/register", json={"user": name, "password": "password-2"})
            assert answer.status_code == 409, name
        assert (
            web.post("/api/login", json={"user": "dAvE", "password": "dave-password"}).status_code
            == 200
        )
        assert (
            web.post("/api/login", json={"user": "DAVE", "password": "DAVE-password"}).status_code
            == 200
        )
        assert (
            web.post("/api/login", json={"user": "erin", "password": "Erin-password"}).status_code
            == 200
        )
    with store.engine.connect() as conn:
        kept = conn.execute(sa.select(arena.names.c.name).order_by(arena.names.c.name)).scalars()
        assert list(kept) == ["Erin", "admin", "dave"]


@given(st.text(max_size=8), st.text(max_size=8))
def test_fold_is_a_key(a: str, b: str) -> None:
    import unicodedata

    from botarena.arena.store import fold

    assert fold(fold(a)) == fold(a)
    assert fold(unicodedata.normalize("NFKD", a)) == fold(a)
    if a.casefold() == b.casefold():
        assert fold(a) == fold(b)


# -- password hashes: bounded at once ------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/login", "/api/register", "/api/session"])
def test_a_hash_with_no_free_slot_is_a_503_with_retry_after(
    web: Any, monkeypatch: Any, path: str
) -> None:
    from botarena.arena import auth

    register(web, "alice")
    slots = auth.HashSlots(1, wait_s=0.05)
    monkeypatch.setattr(auth, "hash_slots", slots)
    body = {"user": "alice" if path != "/api/register" else "bob", "password": "password-1"}
    with slots.held():
        busy = web.post(path, json=body)
    assert (busy.status_code, busy.json(), busy.headers["retry-after"]) == (
        503,
        {"error": "the server is busy checking passwords: try again in a moment"},
        "1",
    )
    assert web.post(path, json=body).status_code in (200, 201)


@pytest.mark.real_hasher  # the slots are sized by the site's own hash cost
@pytest.mark.parametrize(
    ("cores", "memory", "slots"),
    [(2, 8 << 30, 4), (64, 1 << 30, 4), (1, 100 << 20, 1), (16, 16 << 30, 32), (0, 0, 1)],
)
def test_hash_slots_follow_cores_and_memory(cores: int, memory: int, slots: int) -> None:
    from botarena.arena.auth import slots_for

    assert slots_for(cores, memory) == slots


# -- connections that send half a header ---------------------------------------------------------
def _closed_after(sock: Any, limit: float = 5.0) -> float:
    """Seconds until the server closes `sock` (reading whatever it sent first)."""
    import time

    sock.settimeout(limit)
    began = time.monotonic()
    while sock.recv(4096):
        pass
    return time.monotonic() - began


@pytest.mark.slow
def test_a_connection_that_sends_half_a_header_is_closed(store: Store, caplog: Any) -> None:
    import socket
    import time

    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    server = Server(arena_app(store, "cup"), "127.0.0.1", 0, head_timeout_s=0.5)
    stop = server.start()
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    try:
        with socket.create_connection(("127.0.0.1", port)) as half:
            half.sendall(b"GET /api/contest HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            assert 0.3 < _closed_after(half) < 3
        with socket.create_connection(("127.0.0.1", port)) as silent:
            assert 0.3 < _closed_after(silent) < 3
        with socket.create_connection(("127.0.0.1", port)) as polite:
            polite.sendall(b"GET /api/contest HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.1)
            assert polite.recv(65536).startswith(b"HTTP/1.1 200 ")
            polite.sendall(b"GET /api/contest HTTP/1.1\r\nHo")  # a second head, never ended
            assert 0.3 < _closed_after(polite) < 3
    finally:
        stop()


def test_the_served_site_logs_an_error_with_its_id_and_traceback(store: Store, capfd: Any) -> None:
    import urllib.error
    import urllib.request

    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    app = arena_app(store, "cup")
    app.state.site.ladder = _broken
    server = Server(app, "127.0.0.1", 0)
    stop = server.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(server.url + "api/contest", timeout=10)
    finally:
        stop()
    assert failed.value.code == 500
    ident = json.loads(failed.value.read())["id"]
    err = capfd.readouterr().err
    assert f"internal error {ident} on GET '/api/contest'" in err
    assert "Traceback" in err and "RuntimeError: a bug the site did not foresee" in err
