"""Shared by the contest site's tests: a contest in a fresh store, clients, the pipeline run
in this process, and the bots the tests upload."""

from __future__ import annotations

import json
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("botarena.arena.auth", reason="branch upload's auth module is not merged")
pytest.importorskip("botarena.arena.uploads", reason="branch upload's uploads module is not merged")
pytest.importorskip("starlette.testclient", reason="its client is missing (the test extras)")

from starlette.testclient import TestClient
from typer.testing import CliRunner

from botarena.arena import store as arena
from botarena.tournament.store import Store

PASSWORD = "organiser-pw-1"
BUILD_SECRET = "SECRET_BUILD_7431"
STDERR_SECRET = "SECRET_STDERR_2917"
CRASH_SECRET = "SECRET_CRASH_5508"

BROKEN = f"import sys\nx = {BUILD_SECRET} +\n"
"""A Python source that does not build: the compiler's message quotes the secret's line."""
CRASHES = (
    f"import sys\nsys.stderr.write('{CRASH_SECRET}\\n')\nsys.stderr.flush()\nraise SystemExit(3)\n"
)
"""Builds, then dies at once in its test game, its last words on stderr."""


def good_bot(game: str = "amazes") -> str:
    """The game's Python starter (it plays legally), saying a secret on stderr first."""
    from botarena.core.starters import source

    return f"import sys\nprint('{STDERR_SECRET}', file=sys.stderr, flush=True)\n" + source(
        game, "bot", "python"
    )


def new_contest(db: str, tmp_path: Path, *options: str, game: str = "amazes") -> None:
    """`botarena arena new cup` in this process, the organiser's password from a file."""
    from botarena.arena.cli import app

    secret = tmp_path / "admin.pw"
    secret.write_text(PASSWORD + "\n")
    args = ["new", "cup", "--game", game, "--db", db, "--admin-password-file", str(secret)]
    if not any(option.startswith("max_bots_per_user=") for option in options):
        options = (*options, "max_bots_per_user=10")  # the tests' users keep several bots
    for option in options:
        args += ["-o", option]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output


@contextmanager
def opened_contest(tmp_path: Path, *options: str, game: str = "amazes") -> Iterator[Store]:
    """`arena new cup` (with `-o` `options`) in a fresh SQLite store in `tmp_path`, open."""
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, *options, game=game)
    store = Store.open(db)
    try:
        yield store
    finally:
        store.close()


def client(store: Store, insecure: bool = False) -> TestClient:
    from botarena.arena.api import arena_app

    return TestClient(arena_app(store, "cup", insecure))


def register(web: TestClient, user: str, password: str = "password-1") -> dict[str, str]:
    """A new user's Authorization header."""
    answer = web.post("/api/register", json={"user": user, "password": password})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def organiser(web: TestClient) -> dict[str, str]:
    answer = web.post("/api/login", json={"user": "admin", "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def upload(
    web: TestClient,
    headers: dict[str, str],
    filename: str,
    text: str | bytes,
    name: str | None = None,
    role: str | None = None,
) -> Any:
    data = text.encode() if isinstance(text, str) else text
    fields = {key: value for key, value in (("name", name), ("role", role)) if value}
    return web.post(
        "/api/bots", headers=headers, files={"file": (filename, data)}, data=fields or None
    )


def settle(store: Store, sandbox: bool = False) -> None:
    """Build and test every upload waiting, in this process, as a worker does (the same
    `Uploads` steps, each played by the worker's own function)."""
    from botarena.arena.pipeline import Uploads
    from botarena.tournament.worker import play_game

    runner = store.register_runner()
    queue = Uploads(store, runner, None, sandbox)
    try:
        while (step := queue.next()) is not None:
            while step is not None:
                step = queue.done(step, play_game(step.job))
    finally:
        store.retire_runner(runner)


def game_ids(store: Store) -> list[int]:
    """The ids of every game of the contest, oldest first."""
    contest = arena.contest(store, "cup")
    assert contest is not None
    return [g.id for t in (contest.tests, contest.ladder) for g in store.games(t)]


def call_live(url: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """A JSON call to a live site at `url` (GET, or POST with `body`), its answer parsed."""
    request = urllib.request.Request(url.rstrip("/") + path, method="POST" if body else "GET")
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def register_live(url: str, user: str, password: str = "password-1") -> str:
    """A new user's token on a live site."""
    return call_live(url, "/api/register", {"user": user, "password": password})["token"]


def upload_live(url: str, token: str, filename: str, data: bytes) -> int:
    """Upload a source to a live site; the answer's status."""
    body, kind = multipart(filename, data)
    request = urllib.request.Request(url.rstrip("/") + "/api/bots", data=body, method="POST")
    request.add_header("Content-Type", kind)
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status


def multipart(filename: str, data: bytes) -> tuple[bytes, str]:
    """An upload's multipart body and its Content-Type, for a live site."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"'
            "\r\nContent-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"
