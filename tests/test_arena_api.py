"""The contest site's JSON API on SQLite (starlette's TestClient): every route and code of
issue #23, accounts, sessions with CSRF, uploads refused whole, the organiser's routes, and
the walk that never shows one user's build log or stderr to another."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest

from arena_helpers import (
    BROKEN,
    BUILD_SECRET,
    CRASH_SECRET,
    CRASHES,
    PASSWORD,
    STDERR_SECRET,
    client,
    game_ids,
    good_bot,
    new_contest,
    opened_contest,
    organiser,
    register,
    settle,
    upload,
)
from botarena.tournament.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with opened_contest(tmp_path, "uploads_per_hour=5", "max_source_bytes=20000") as opened:
        yield opened


@pytest.fixture
def web(store: Store) -> Any:
    with client(store) as made:
        yield made


def test_register_and_login(web: Any) -> None:
    answer = web.post("/api/register", json={"user": "alice", "password": "password-1"})
    assert answer.status_code == 201
    assert set(answer.json()) == {"user", "token"} and answer.json()["user"] == "alice"
    token = answer.json()["token"]
    assert (
        web.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()["user"] == "alice"
    )
    again = web.post("/api/register", json={"user": "alice", "password": "password-2"})
    assert again.status_code == 409
    login = web.post("/api/login", json={"user": "alice", "password": "password-1"})
    assert login.status_code == 200 and set(login.json()) == {"token"}
    wrong = web.post("/api/login", json={"user": "alice", "password": "password-X"})
    unknown = web.post("/api/login", json={"user": "nobody", "password": "password-1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong user name or password"}


def test_the_store_keeps_no_password_nor_token(store: Store, web: Any) -> None:
    import hashlib

    import sqlalchemy as sa

    from botarena.arena.store import credentials, users

    answer = web.post("/api/register", json={"user": "alice", "password": "password-1"})
    token = answer.json()["token"]
    with store.engine.connect() as conn:
        stored = conn.execute(sa.select(users.c.password_hash).where(users.c.name == "alice"))
        digests = conn.execute(sa.select(credentials.c.digest)).scalars().all()
    assert stored.scalar_one().startswith("$argon2id$")
    assert hashlib.sha256(token.encode()).hexdigest() in digests and token not in digests


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"user": ".hidden", "password": "password-1"}, 400),
        ({"user": "-o", "password": "password-1"}, 400),
        ({"user": "a" * 33, "password": "password-1"}, 400),
        ({"user": "<script>", "password": "password-1"}, 400),
        ({"user": "bob", "password": "short"}, 400),
        ({"user": "sample", "password": "password-1"}, 400),
        ({"user": "bob"}, 400),
        ("not an object", 400),
    ],
)
def test_register_refuses(web: Any, body: Any, code: int) -> None:
    answer = web.post("/api/register", json=body)
    assert answer.status_code == code
    assert list(answer.json()) == ["error"]


def test_logins_are_rate_limited(web: Any) -> None:
    register(web, "alice")
    codes = [
        web.post("/api/login", json={"user": "alice", "password": "wrong-pw"}).status_code
        for _ in range(12)
    ]
    assert codes == [401] * 10 + [429] * 2  # 10 attempts a minute for a name from an address
    right = web.post("/api/login", json={"user": "alice", "password": "password-1"})
    assert right.status_code == 429  # even the right password waits
    assert web.post("/api/login", json={"user": "bob", "password": "x" * 8}).status_code == 401


@pytest.mark.slow  # 65 argon2 checks: about 6 s
def test_logins_to_one_user_from_many_addresses_are_limited(store: Store) -> None:
    from starlette.testclient import TestClient

    from botarena.arena.api import arena_app

    app = arena_app(store, "cup")
    codes = []
    for address in range(13):  # 5 attempts from each of 13 addresses: 65 > 60 a minute
        with TestClient(app, client=(f"10.0.0.{address}", 4000)) as guesser:
            for _ in range(5):
                answer = guesser.post("/api/login", json={"user": "admin", "password": "guess-pw"})
                codes.append(answer.status_code)
    assert codes == [401] * 60 + [429] * 5


@pytest.mark.slow  # 20 argon2 hashes: about 2 s
def test_signups_per_address_are_limited(web: Any) -> None:
    codes = [
        web.post("/api/register", json={"user": f"u{i}", "password": "password-1"}).status_code
        for i in range(21)
    ]
    assert codes == [201] * 20 + [429]


def test_sessions_expire(store: Store, web: Any) -> None:
    from botarena.arena.store import credentials

    register(web, "alice")
    answer = web.post("/api/session", json={"user": "alice", "password": "password-1"})
    assert "max-age=1209600" in answer.headers["set-cookie"].lower()  # 14 days
    assert web.get("/api/session").status_code == 200
    with store.transaction() as conn:
        conn.execute(
            credentials.update().values(created_at=credentials.c.created_at - 14 * 86400 - 1)
        )
    assert web.get("/api/session").status_code == 401
    token = register(web, "bob")  # a token made now works; one made long ago too (until revoked)
    with store.transaction() as conn:
        conn.execute(credentials.update().values(created_at=0.0))
    assert web.get("/api/me", headers=token).status_code == 200


def test_tokens_are_revocable(web: Any) -> None:
    alice = register(web, "alice")
    assert web.get("/api/me", headers=alice).status_code == 200
    assert web.delete("/api/token", headers=alice).status_code == 200
    gone = web.get("/api/me", headers=alice)
    assert gone.status_code == 401 and "not valid" in gone.json()["error"]
    assert web.get("/api/me", headers={"Authorization": "Basic abc"}).status_code == 401
    assert web.get("/api/me", headers={"Authorization": "Bearer made-up"}).status_code == 401
    assert web.get("/api/me").status_code == 401


def test_session_cookie_and_csrf(web: Any) -> None:
    register(web, "alice")
    answer = web.post("/api/session", json={"user": "alice", "password": "password-1"})
    assert answer.status_code == 200
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    info = answer.json()
    assert info["user"] == "alice" and info["organiser"] is False and info["csrf"]
    assert web.get("/api/session").json() == info
    files = {"file": ("bot.py", good_bot().encode())}
    refused = web.post("/api/bots", files=files)
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    forged = web.post("/api/bots", files=files, headers={"X-CSRF-Token": "0" * 64})
    assert forged.status_code == 403
    sent = web.post("/api/bots", files=files, headers={"X-CSRF-Token": info["csrf"]})
    assert sent.status_code == 202 and sent.json() == {
        "bot": "alice",
        "version": 1,
        "status": "building",
    }
    assert web.delete("/api/session").status_code == 403  # a log-out is a change: CSRF too
    out = web.delete("/api/session", headers={"X-CSRF-Token": info["csrf"]})
    assert out.status_code == 200
    assert web.get("/api/session").status_code == 401
    web.cookies.set("botarena_session", answer.cookies["botarena_session"])
    assert web.get("/api/session").status_code == 401  # revoked: the old cookie is dead


def test_upload_answers_202_and_versions(web: Any) -> None:
    alice = register(web, "alice")
    first = upload(web, alice, "bot.py", good_bot(), name="walker")
    assert first.status_code == 202
    assert first.json() == {"bot": "walker", "version": 1, "status": "building"}
    second = upload(web, alice, "bot.py", good_bot() + "# v2\n", name="walker")
    assert second.json() == {"bot": "walker", "version": 2, "status": "building"}
    bot = web.get("/api/bots/walker", headers=alice).json()
    assert [v["version"] for v in bot["versions"]] == [1, 2]
    assert (bot["bot"], bot["owner"], bot["version"], bot["status"]) == (
        "walker",
        "alice",
        2,
        "building",
    )
    assert (bot["rating"], bot["rank"], bot["games"]) == (None, None, 0)


def test_a_bot_name_is_its_owners(web: Any) -> None:
    alice, bob = register(web, "alice"), register(web, "bob")
    assert upload(web, alice, "bot.py", good_bot(), name="walker").status_code == 202
    taken = upload(web, bob, "bot.py", good_bot(), name="walker")
    assert taken.status_code == 403 and "another user" in taken.json()["error"]
    assert web.get("/api/bots/walker").json()["version"] == 1


@pytest.mark.parametrize(
    ("filename", "data", "code"),
    [
        ("notes.txt", b"hello", 400),  # not a source
        ("../bot.py", b"print(1)\n", 400),  # a path out of the folder
        ("bot.py", b"#" * 20_001, 400),  # over -o max_source_bytes=20000
        ("bot.py", b"#" * (20_000 + (1 << 20) + 1), 413),  # over the body's limit, unread
    ],
)
def test_bad_uploads_store_nothing(web: Any, filename: str, data: bytes, code: int) -> None:
    alice = register(web, "alice")
    answer = upload(web, alice, filename, data, name="walker")
    assert answer.status_code == code
    assert list(answer.json()) == ["error"] and answer.json()["error"]
    assert web.get("/api/bots/walker").status_code == 404
    assert web.get("/api/me", headers=alice).json()["bots"] == []


def _zip(files: dict[str, bytes]) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def _tgz_link(name: str, target: str, hard: bool = False) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        main = tarfile.TarInfo("bot.py")
        main.size = 9
        archive.addfile(main, io.BytesIO(b"print(1)\n"))
        link = tarfile.TarInfo(name)
        link.type = tarfile.LNKTYPE if hard else tarfile.SYMTYPE
        link.linkname = target
        archive.addfile(link)
    return out.getvalue()


HOSTILE = {
    "a path out of the archive": ("bot.zip", _zip({"bot.py": b"1\n", "../x.py": b"2\n"}), ".."),
    "an absolute path": ("bot.zip", _zip({"bot.py": b"1\n", "/etc/x.py": b"2\n"}), "absolute"),
    "a symbolic link": ("bot.tar.gz", _tgz_link("x.py", "/etc/shadow"), "link"),
    "a hard link": ("bot.tar.gz", _tgz_link("x.py", "bot.py", hard=True), "link"),
    "a zip bomb": ("bot.zip", _zip({"bot.py": b"#" * 10_000_000}), "bytes"),
    "too many files": ("bot.zip", _zip({f"m{i}.py": b"" for i in range(10_000)}), "limit"),
    "two languages": ("bot.zip", _zip({"bot.py": b"1\n", "bot.c": b"int x;\n"}), "C"),
    "an option for a name": ("bot.zip", _zip({"-o.c": b"int main(){}\n"}), "-"),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_uploads_are_refused_whole(web: Any, kind: str) -> None:
    """Each kind of hostile upload of the issue: 400, one reason, nothing stored."""
    filename, data, word = HOSTILE[kind]
    alice = register(web, "alice")
    answer = upload(web, alice, filename, data, name="walker")
    assert answer.status_code in (400, 413), answer.text
    assert list(answer.json()) == ["error"] and word in answer.json()["error"]
    assert "\n" not in answer.json()["error"]
    assert web.get("/api/bots/walker").status_code == 404


def test_upload_needs_a_user_a_file_and_a_good_name(web: Any) -> None:
    assert upload(web, {}, "bot.py", good_bot()).status_code == 401
    alice = register(web, "alice")
    assert web.post("/api/bots", headers=alice, data={"name": "x"}).status_code == 400
    assert upload(web, alice, "bot.py", good_bot(), name="../etc").status_code == 400
    assert upload(web, alice, "bot.py", good_bot(), name="sample").status_code == 400
    assert upload(web, alice, "bot.py", good_bot(), name="Sample-2").status_code == 400


def test_an_upload_of_unknown_length_is_not_read(web: Any) -> None:
    alice = register(web, "alice")

    def chunks() -> Any:
        yield b"--x\r\nContent-Disposition: form-data; name=file; filename=bot.py\r\n\r\n"
        yield b"#" * 100
        yield b"\r\n--x--\r\n"

    answer = web.post(
        "/api/bots",
        headers={**alice, "Content-Type": "multipart/form-data; boundary=x"},
        content=chunks(),
    )
    assert answer.status_code == 411 and "Content-Length" in answer.json()["error"]
    assert web.get("/api/bots/alice").status_code == 404


def test_uploads_per_hour(web: Any) -> None:
    alice = register(web, "alice")
    codes = [upload(web, alice, "bot.py", good_bot() + f"# {n}\n").status_code for n in range(6)]
    assert codes == [202] * 5 + [429]  # -o uploads_per_hour=5
    refused = upload(web, alice, "bot.py", good_bot() + "# 7\n")
    assert refused.json() == {"error": "at most 5 uploads per hour: try again in 60 minutes"}
    assert web.get("/api/bots/alice").json()["version"] == 5


def test_contest_and_starters(web: Any) -> None:
    info = web.get("/api/contest").json()
    assert info == {
        "name": "cup",
        "game": "amazes",
        "languages": ["Python", "C", "C++", "Java", "Rust", "Go"],
        "starters": ["python", "cpp", "java"],
        "insecure": False,
        "deadline": None,
        "max_source_bytes": 20000,
        "uploads_per_hour": 5,
        "organiser": False,
        "session": None,
        "min_seats": 2,
        "roles": [],
    }
    from botarena.core.starters import source

    for language, name in (("python", "bot.py"), ("cpp", "bot.cpp"), ("java", "Bot.java")):
        answer = web.get(f"/api/starters/{language}?download=1")
        assert answer.status_code == 200
        assert answer.text == source("amazes", "bot", language)
        assert answer.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert web.get("/api/starters/cobol").status_code == 404
    assert web.get("/api/starters/python?role=adventurers").json() == {
        "error": "amazes has no roles: leave `role` out"
    }


def test_a_game_without_starters_offers_none(tmp_path: Path) -> None:
    """The upload page lists the languages the game ships starters in: connect4 ships none
    (it once listed all three, each answering 404)."""
    from botarena.core.registry import available

    if "connect4" not in available():
        pytest.skip("connect4 is not installed: pip install --no-deps -e examples/connect4")
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, game="connect4")
    store = Store.open(db)
    try:
        with client(store) as web:
            assert web.get("/api/contest").json()["starters"] == []
            answer = web.get("/api/starters/python")
            assert answer.status_code == 404
            assert answer.json() == {"error": "connect4 has no python starter"}
    finally:
        store.close()


def test_a_contest_of_several_seat_counts(tmp_path: Path) -> None:
    """`arena new --seats 2-4` (#36: an Ants contest of 2 to 4 seats) sets its ladder's
    range; a range outside the game's is refused with the game's own."""
    from typer.testing import CliRunner

    from botarena.arena.cli import app

    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, game="ants")
    wide = CliRunner().invoke(app, ["new", "wide", "--game", "ants", "--db", db, "--seats", "2-4"])
    assert wide.exit_code == 0, wide.output
    store = Store.open(db)
    try:
        assert store.tournament("cup").plan["seats_range"] == [2, 2]  # type: ignore[union-attr]
        assert store.tournament("wide").plan["seats_range"] == [2, 4]  # type: ignore[union-attr]
    finally:
        store.close()
    odd = CliRunner().invoke(app, ["new", "odd", "--game", "amazes", "--db", db, "--seats", "3"])
    assert (odd.exit_code, odd.output) == (
        2,
        "botarena: error: --seats 3: amazes has 2 to 2 seats\n",
    )


def test_organiser_routes_refuse_others(web: Any) -> None:
    alice = register(web, "alice")
    routes = [
        ("post", "/api/admin/bots/alice/disable"),
        ("post", "/api/admin/bots/alice/enable"),
        ("post", "/api/admin/games/1/void"),
        ("post", "/api/admin/deadline"),
        ("post", "/api/admin/finals"),
        ("get", "/api/admin/export"),
    ]
    for method, path in routes:
        assert getattr(web, method)(path).status_code == 401, path
        assert getattr(web, method)(path, headers=alice).status_code == 403, path
    admin = organiser(web)
    assert web.get("/api/contest", headers=admin).json()["organiser"] is True
    assert web.post("/api/admin/bots/nobody/disable", headers=admin).status_code == 404
    assert web.post("/api/admin/bots/sample/disable", headers=admin).json() == {
        "bot": "sample",
        "disabled": True,
    }
    assert web.get("/api/standings").json() == []
    web.post("/api/admin/bots/sample/enable", headers=admin)
    assert [row["bot"] for row in web.get("/api/standings").json()] == ["sample"]
    assert web.post("/api/admin/games/999/void", headers=admin).status_code == 404


def test_deadline_stops_uploads(web: Any) -> None:
    admin, alice = organiser(web), register(web, "alice")
    bad = web.post("/api/admin/deadline", headers=admin, json={"at": "tomorrow"})
    assert bad.status_code == 400
    set_ = web.post("/api/admin/deadline", headers=admin, json={"at": "2020-01-01T00:00"})
    assert set_.json() == {"deadline": "2020-01-01T00:00:00+00:00"}
    assert web.get("/api/contest").json()["deadline"] == "2020-01-01T00:00:00+00:00"
    late = upload(web, alice, "bot.py", good_bot())
    assert late.status_code == 403 and "deadline" in late.json()["error"]
    web.post("/api/admin/deadline", headers=admin, json={"at": None})
    assert upload(web, alice, "bot.py", good_bot()).status_code == 202


def test_unknown_things_are_404(web: Any) -> None:
    assert web.get("/api/bots/nobody").status_code == 404
    assert web.get("/api/games/12345").status_code == 404
    assert web.get("/api/games/12345/replay").status_code == 404
    assert web.get("/api/standings").json() == [
        {
            "rank": 1,
            "bot": "sample",
            "owner": None,
            "language": None,
            "label": "sample",
            "ordinal": pytest.approx(0.0),
            "mu": 25.0,
            "sigma": pytest.approx(25 / 3),
            "games": 0,
            "last_hour": 0,
        }
    ]


# -- with the pipeline: builds, test games, the ladder -------------------------------------
@pytest.fixture
def played(store: Store, web: Any) -> dict[str, Any]:
    """alice: `walker` failed to build, then passed (v2); `crasher` failed its test game.
    Their uploads built and tested in this process; then two ladder games are played."""
    alice = register(web, "alice")
    bob = register(web, "bob")
    upload(web, alice, "bot.py", BROKEN, name="walker")
    settle(store)
    upload(web, alice, "bot.py", good_bot(), name="walker")
    upload(web, alice, "crash.py", CRASHES, name="crasher")
    settle(store)
    _ladder_games(store, 2)
    return {"alice": alice, "bob": bob, "admin": organiser(web)}


def _ladder_games(store: Store, count: int) -> None:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    played = work(store, LocalExecutor(0), ["cup"], games=count, seconds=60, sandbox=False)
    assert played == count


def test_owner_sees_build_log_test_game_and_stderr(web: Any, played: dict[str, Any]) -> None:
    alice = played["alice"]
    walker = web.get("/api/bots/walker", headers=alice).json()
    assert (walker["version"], walker["status"], walker["active_version"]) == (2, "active", 2)
    assert [v["status"] for v in walker["versions"]] == ["build-failed", "active"]
    assert walker["versions"][0]["reason"] == "the source did not build (see the build log)"
    assert walker["build_log"] == "Python source bot.py: built without errors."
    assert walker["test_game"]["result"] == "passed"
    assert STDERR_SECRET in walker["test_game"]["stderr"]
    assert walker["games"] >= 2 and walker["rank"] in (1, 2)
    crasher = web.get("/api/bots/crasher", headers=alice).json()
    assert crasher["status"] == "test-failed"
    assert crasher["test_game"]["result"].startswith("the bot crashed in its test game")
    assert CRASH_SECRET in crasher["test_game"]["stderr"]
    assert crasher["rating"] is None and crasher["rank"] is None
    assert {row["bot"] for row in web.get("/api/standings").json()} == {"walker", "sample"}
    rows = web.get("/api/standings").json()
    assert {row["label"] for row in rows} == {"walker@v2", "sample"}  # the site's v2 is @v2
    assert {row["bot"]: (row["owner"], row["language"]) for row in rows} == {
        "walker": ("alice", "Python"),
        "sample": (None, None),
    }


CHANGED = "upload changed code"


def test_an_upload_identical_to_a_version_is_refused_naming_it(
    store: Store, web: Any, played: dict[str, Any]
) -> None:
    alice = played["alice"]
    again = upload(web, alice, "other-name.py", good_bot(), name="walker")
    assert (again.status_code, again.json()) == (
        409,
        {"error": "bot 'walker' already has this source as version 2 (active): " + CHANGED},
    )
    failed = upload(web, alice, "bot.py", BROKEN, name="walker")
    assert failed.status_code == 409 and "as version 1 (build-failed)" in failed.json()["error"]
    walker = web.get("/api/bots/walker", headers=alice).json()
    assert [v["version"] for v in walker["versions"]] == [1, 2]  # nothing was stored
    assert upload(web, played["bob"], "bot.py", good_bot(), name="bobs").status_code == 202


def test_build_log_of_a_failed_build(store: Store, web: Any) -> None:
    alice = register(web, "alice")
    upload(web, alice, "bot.py", BROKEN, name="walker")
    settle(store)
    bot = web.get("/api/bots/walker", headers=alice).json()
    assert bot["status"] == "build-failed"
    assert bot["reason"] == "the source did not build (see the build log)"
    assert "SyntaxError" in bot["build_log"] and BUILD_SECRET in bot["build_log"]
    assert "bot.py" in bot["build_log"] and "/uploads/" not in bot["build_log"]
    assert bot["test_game"] is None


def test_game_shows_stderr_to_its_owner_only(web: Any, played: dict[str, Any]) -> None:
    walker = web.get("/api/bots/walker", headers=played["alice"]).json()
    test_id = walker["test_game"]["id"]
    mine = web.get(f"/api/games/{test_id}", headers=played["alice"]).json()
    assert mine["kind"] == "test" and mine["bots"][0] == "walker"
    assert STDERR_SECRET in mine["seats"][0]["stderr"]
    assert "stderr" not in mine["seats"][1]  # the sample bot's: the organiser's
    theirs = web.get(f"/api/games/{test_id}", headers=played["bob"]).json()
    assert all("stderr" not in seat for seat in theirs["seats"])
    admin = web.get(f"/api/games/{test_id}", headers=played["admin"]).json()
    assert all("stderr" in seat for seat in admin["seats"])
    replay = web.get(f"/api/games/{test_id}/replay", headers=played["bob"]).json()
    assert replay["stderr"] == ["", ""]
    assert {bot["spec"] for bot in replay["bots"]} == {"walker@test2", "sample"}  # no paths
    own = web.get(f"/api/games/{test_id}/replay", headers=played["alice"]).json()
    assert STDERR_SECRET in own["stderr"][0] and own["stderr"][1] == ""


@pytest.mark.slow
def test_the_walk_never_shows_another_users_logs(
    store: Store, web: Any, played: dict[str, Any]
) -> None:
    """Every route, as bob and as nobody: no build log, no stderr of alice's bots."""
    secrets = (BUILD_SECRET, STDERR_SECRET, CRASH_SECRET)
    paths = [
        "/api/contest",
        "/api/standings",
        "/api/me",
        "/api/session",
        "/api/bots/walker",
        "/api/bots/crasher",
        "/api/admin/export",
        "/",
        "/me",
        "/bots/walker",
    ]
    for game in game_ids(store):
        paths += [
            f"/api/games/{game}",
            f"/api/games/{game}/replay",
            f"/games/{game}",
            f"/games/{game}/view/",
            f"/games/{game}/view/replay.json.gz",
        ]
    seen_by_alice = ""
    for path in paths:
        for who in (played["bob"], {}):
            body = _text(web.get(path, headers=who))
            for secret in secrets:
                assert secret not in body, (path, who, secret)
        seen_by_alice += _text(web.get(path, headers=played["alice"]))
    assert all(secret in seen_by_alice for secret in (STDERR_SECRET, CRASH_SECRET))


def _text(answer: Any) -> str:
    body = answer.content
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    return body.decode(errors="replace")


def test_disable_enable_and_void_change_the_standings(web: Any, played: dict[str, Any]) -> None:
    admin = played["admin"]
    before = {row["bot"]: row for row in web.get("/api/standings").json()}
    assert before["walker"]["games"] == before["sample"]["games"] == 2
    off = web.post("/api/admin/bots/walker/disable", headers=admin)
    assert off.json() == {"bot": "walker", "disabled": True}
    assert [row["bot"] for row in web.get("/api/standings").json()] == ["sample"]
    assert web.get("/api/bots/walker").json()["disabled"] is True
    blocked = upload(web, played["alice"], "bot.py", good_bot(), name="walker")
    assert blocked.status_code == 403 and "disabled" in blocked.json()["error"]
    web.post("/api/admin/bots/walker/enable", headers=admin)
    again = {row["bot"]: row for row in web.get("/api/standings").json()}
    assert again == before  # back, rating as it was
    ladder_game = web.get("/api/me", headers=played["alice"]).json()["games"][0]["id"]
    voided = web.post(f"/api/admin/games/{ladder_game}/void", headers=admin)
    assert voided.json() == {"game": ladder_game, "status": "void"}
    after = {row["bot"]: row for row in web.get("/api/standings").json()}
    assert after["walker"]["games"] == after["sample"]["games"] == 1
    assert web.get(f"/api/games/{ladder_game}").json()["voided"] is True
    twice = web.post(f"/api/admin/games/{ladder_game}/void", headers=admin)
    assert twice.status_code == 409


def test_void_rates_as_if_never_played(store: Store, web: Any, played: dict[str, Any]) -> None:
    """After voiding the first of two games, the ratings are those of the second alone, from
    the prior (openskill's Plackett-Luce on its ranks)."""
    from openskill.models import PlackettLuce

    contest_games = [g for g in store.games(store.tournament("cup")) if g.status == "done"]
    first, second = contest_games[0], contest_games[1]
    web.post(f"/api/admin/games/{first.id}/void", headers=played["admin"])
    model = PlackettLuce()
    teams = [[model.rating(name=label)] for label in second.seats]
    rated = model.rate(teams, ranks=[float(r) for r in second.ranks])
    want = {label: team[0].mu for label, team in zip(second.seats, rated, strict=True)}
    got = {row["label"]: row["mu"] for row in web.get("/api/standings").json()}
    assert got == pytest.approx(want)


def test_finals_and_export(store: Store, web: Any, played: dict[str, Any]) -> None:
    admin = played["admin"]
    upload(web, played["alice"], "bot.py", BROKEN + "# v3\n", name="walker")  # v2 plays on
    settle(store)
    for many in (1001, 10**18):  # bounded as `tournament finals --games-per-pair` is
        refused = web.post("/api/admin/finals", headers=admin, json={"games_per_pair": many})
        assert (refused.status_code, refused.json()) == (
            400,
            {"error": "games_per_pair must be between 1 and 1000"},
        )
    alone = web.post("/api/admin/finals", headers=admin, json={"top": 2})
    assert (alone.status_code, alone.json()) == (
        400,
        {"error": "cup: 1 active bot(s), finals need 2"},  # the sample bot is left out
    )
    finals = web.post("/api/admin/finals", headers=admin, json={"top": 2, "sample": True})
    assert finals.status_code == 200
    ranked = [row["bot"] for row in web.get("/api/standings").json()]
    assert finals.json() == {"tournament": "cup-finals", "bots": ranked, "games": 2}
    assert web.post("/api/admin/finals", headers=admin, json={}).status_code == 409
    assert web.post("/api/admin/finals", headers=admin, json={"top": "x"}).status_code == 400
    late = upload(web, played["alice"], "bot.py", good_bot(), name="walker")
    assert late.status_code == 403  # finals freeze the ladder
    export = web.get("/api/admin/export", headers=admin)
    assert export.status_code == 200 and export.headers["content-type"] == "application/gzip"
    with tarfile.open(fileobj=io.BytesIO(export.content), mode="r:gz") as tar:
        names = set(tar.getnames())
        assert {
            "bots.json",
            "results.json",
            "sources/walker/v1/bot.py",
            "sources/walker/v2/bot.py",
            "sources/walker/v3/bot.py",
            "sources/crasher/v1/crash.py",
        } <= names
        walker = tar.extractfile("sources/walker/v2/bot.py")
        assert walker is not None and walker.read() == good_bot().encode()
        index = json.load(tar.extractfile("bots.json"))  # type: ignore[arg-type]
    assert [(e["bot"], e["version"], e["status"], e["playing"]) for e in index] == [
        ("crasher", 1, "test-failed", False),
        ("walker", 1, "build-failed", False),
        ("walker", 2, "active", True),
        ("walker", 3, "build-failed", False),
    ]
    with tarfile.open(fileobj=io.BytesIO(export.content), mode="r:gz") as tar:
        results = json.load(tar.extractfile("results.json"))  # type: ignore[arg-type]
    assert [row["bot"] for row in results["standings"]] == [
        row["bot"] for row in web.get("/api/standings").json()
    ]
    assert len(results["games"]) >= 4  # 2 test games, 2 ladder games


def test_the_contest_tells_a_browser_its_session_without_a_401(web: Any) -> None:
    register(web, "alice")
    assert web.get("/api/contest").json()["session"] is None  # logged out: 200, no 401
    made = web.post("/api/session", json={"user": "alice", "password": "password-1"}).json()
    assert web.get("/api/contest").json()["session"] == made
    assert made == web.get("/api/session").json()


def test_a_contestant_keeps_as_many_bots_as_the_contest_allows(tmp_path: Path) -> None:
    with opened_contest(tmp_path, "max_bots_per_user=1") as store, client(store) as web:
        alice = register(web, "alice")
        assert upload(web, alice, "bot.py", good_bot(), name="walker").status_code == 202
        second = upload(web, alice, "bot.py", good_bot(), name="runner")
        assert (second.status_code, second.json()) == (
            403,
            {
                "error": "at most 1 bot(s) per contestant: upload a new version of 'walker'"
                " (--name) instead"
            },
        )
        again = upload(web, alice, "bot.py", good_bot() + "# 2\n", name="walker")
        assert again.status_code == 202
        assert upload(web, register(web, "bob"), "bot.py", good_bot()).status_code == 202


def test_arena_new_takes_the_bots_per_user_as_a_flag(tmp_path: Path) -> None:
    """`--max-bots-per-user N` as CodeCup's organiser would write it (default 1)."""
    from typer.testing import CliRunner

    from botarena.arena import store as arena
    from botarena.arena.cli import app

    secret = tmp_path / "admin.pw"
    secret.write_text(PASSWORD + "\n")
    for name, flag, code in (("one", [], 0), ("three", ["3"], 0), ("none", ["0"], 2)):
        db = f"sqlite:///{tmp_path / name}.db"
        args = ["new", "cup", "--game", "amazes", "--db", db, "--admin-password-file", str(secret)]
        done = CliRunner().invoke(app, args + (["--max-bots-per-user", *flag] if flag else []))
        assert done.exit_code == code, done.output
        if code == 0:
            store = Store.open(db)
            contest = arena.contest(store, "cup")
            store.close()
            assert contest is not None
            assert contest.settings["max_bots_per_user"] == (3 if flag else 1)
        else:
            assert "--max-bots-per-user must be between 1 and 1000000" in done.output


def test_the_organiser_resets_a_password_and_old_tokens_die(store: Store, web: Any) -> None:
    from typer.testing import CliRunner

    from botarena.arena.cli import app

    alice = register(web, "alice")
    db = store.engine.url.render_as_string(hide_password=False)
    done = CliRunner().invoke(app, ["passwd", "alice", "--contest", "cup", "--db", db])
    assert done.exit_code == 0, done.output
    password = done.output.strip().splitlines()[-1].rsplit(" ", 1)[-1]
    assert "1 token(s) and session(s) revoked" in done.output
    assert web.get("/api/me", headers=alice).status_code == 401
    assert web.post("/api/login", json={"user": "alice", "password": password}).status_code == 200
    wrong = CliRunner().invoke(app, ["passwd", "nobody", "--contest", "cup", "--db", db])
    assert wrong.exit_code == 2 and "no user 'nobody' in contest 'cup'" in wrong.output


def test_the_rules_page_holds_the_statement(web: Any) -> None:
    """/api/rules: the game's rule text and botarena's notes (shipped in its package), the
    options as the contest sets them, the limits, every language with how it is built."""
    from pathlib import Path as P

    rules = web.get("/api/rules").json()
    from botarena.core.registry import game_info

    title = game_info("amazes").title
    assert (rules["game"], rules["title"], rules["seats"]) == ("amazes", title, [2, 2])
    [text, notes] = rules["rules"]
    docs = P(__file__).parent.parent / "docs"
    assert text["text"] == (docs / "rules" / "amazes.en.txt").read_text()
    assert notes["text"] == (docs / "games" / "amazes.md").read_text()
    options = {option["name"]: option for option in rules["options"]}
    assert options["budget_ms"]["value"] == options["budget_ms"]["default"] == 5000
    # The contest's CPU clock: 5 s of CPU for the game's replies, capped at 2 x 5 + 1 s of wall
    # time; the first exchange (2 s a reply on the rules' clock) the same way.
    assert rules["time"] == [
        {
            "seats": [0, 1],
            "first": {"cpu_reply_s": 2.0, "wall_reply_s": 5.0},
            "turn": {"cpu_budget_s": 5.0, "wall_budget_s": 11.0},
        }
    ]
    assert rules["limits"] == {
        "max_source_bytes": 20000,
        "uploads_per_hour": 5,
        "max_bots_per_user": 10,
        "challenges_per_hour": 20,
        "compare_games": 400,
    }
    by_name = {entry["language"]: entry for entry in rules["languages"]}
    assert set(by_name) == {"Python", "C", "C++", "Java", "Rust", "Go"}
    assert by_name["C++"]["endings"] == [".cpp", ".cc"]
    assert by_name["C"]["build"] == "gcc -O2 -o ./MAIN ./MAIN.c ./OTHER.c -lm"
    assert by_name["Python"]["toolchain"].startswith("Python 3.")
    assert any("Makefile" in line for line in rules["archives"])
    assert rules["starters"] == ["python", "cpp", "java"]


def test_a_game_says_why_it_ended_in_the_games_words(web: Any, played: dict[str, Any]) -> None:
    """The rules' end reason and the game's own words for it (`GameInfo.end_reasons`), as
    the game page shows them: Amazes' games here end when both took all their turns."""
    test_id = web.get("/api/bots/walker", headers=played["alice"]).json()["test_game"]["id"]
    game = web.get(f"/api/games/{test_id}").json()
    assert game["reason"] == "turns"
    assert game["reason_text"] == "both players took all their turns"
