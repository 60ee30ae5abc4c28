"""`arena serve --web-workers 2` (#36): two web processes answer on one port over one store
(SQLite, PostgreSQL); a log-in limit counts the attempts of both, a session made on one is
valid (and revoked) on the other, the ladder's worker runs once, and nothing is left when
serve stops."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena_helpers import new_contest
from conftest import alive, fresh_database, processes

pytestmark = pytest.mark.slow


def children(pid: int) -> dict[int, bytes]:
    """The live child processes of `pid` and their command lines."""
    return {p: cmd for p, state, parent, cmd in processes() if parent == pid and state != "Z"}


def web_processes(serve: int) -> set[int]:
    return {p for p, cmd in children(serve).items() if b"spawn_main" in cmd}


def serving_pid(connection: http.client.HTTPConnection, port: int, among: set[int]) -> int:
    """Which of the processes `among` holds the server's end of `connection` (an open TCP
    connection to 127.0.0.1:`port`): its socket's inode, from /proc/net/tcp, found among
    that process's open files."""
    assert connection.sock is not None
    mine = connection.sock.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(f.split(":")[1], 16) for f in fields[1:3])
        if (local, remote) == (port, mine):
            inode = fields[9]
    assert inode is not None, "the server's end of the connection is not in /proc/net/tcp"
    for pid in among:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    raise AssertionError(f"no web process holds socket {inode}")


def call(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    """One request on a kept-alive connection: (status, headers, the JSON answer)."""
    sent = {"Content-Type": "application/json", **(headers or {})}
    connection.request(method, path, None if body is None else json.dumps(body), sent)
    answer = connection.getresponse()
    data = answer.read()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, json.loads(data)


@pytest.fixture(params=["sqlite", "postgresql"])
def site(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """`arena serve cup --web-workers 2 --workers 1` on a SQLite or PostgreSQL store:
    (serve, its port)."""
    if request.param == "sqlite":
        db = f"sqlite:///{tmp_path / 'cup.db'}"
    else:
        db = fresh_database(request.getfixturevalue("postgres_server"))
        monkeypatch.chdir(tmp_path)  # a PostgreSQL contest keeps its replays here
    new_contest(db, tmp_path)
    serve = subprocess.Popen(
        [sys.executable, "-m", "botarena", "arena", "serve", "cup", "--db", db, "--port", "0",
         "--web-workers", "2", "--workers", "1", "--insecure-no-sandbox"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        first = serve.stdout.readline()
        assert " in 2 web processes with 1 local worker(s)" in first, first
        port = int(first.split()[2].rstrip("/").rsplit(":", 1)[1])
        yield serve, port
    finally:
        if serve.poll() is None:
            serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=60)


def test_two_web_processes_serve_one_site(site: tuple[subprocess.Popen[str], int]) -> None:
    serve, port = site
    deadline = time.monotonic() + 120
    while len(web := web_processes(serve.pid)) < 2:
        assert time.monotonic() < deadline, "the web processes never started"
        time.sleep(0.2)
    assert len(web) == 2
    # one connection held open to each process: new connections until both answered one
    held: dict[int, http.client.HTTPConnection] = {}
    while len(held) < 2:
        assert time.monotonic() < deadline, f"only {sorted(held)} of {sorted(web)} answered"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            status, _, contest = call(connection, "GET", "/api/contest")
        except ConnectionError:  # a process still starting
            time.sleep(0.2)
            continue
        assert (status, contest["name"]) == (200, "cup")
        held.setdefault(serving_pid(connection, port, web), connection)
    one, other = held.values()

    # the log-in limit (10 a minute per user and address) counts the attempts of both
    wrong = {"user": "bob", "password": "not-the-password"}
    tries = [call(held_by, "POST", "/api/login", wrong) for held_by in [one, other] * 6]
    assert [status for status, _, _ in tries] == [401] * 10 + [429] * 2
    assert all(1 <= int(headers["retry-after"]) <= 60 for _, headers, _ in tries[10:])

    # a session made on one process is valid on the other, its CSRF token too
    alice = {"user": "alice", "password": "password-1"}
    assert call(one, "POST", "/api/register", alice)[0] == 201
    status, headers, made = call(one, "POST", "/api/session", alice)
    assert status == 200
    cookie = {"Cookie": headers["set-cookie"].split(";")[0]}
    status, _, seen = call(other, "GET", "/api/session", headers=cookie)
    assert (status, seen) == (200, made)
    status, _, ended = call(
        other, "DELETE", "/api/session", headers={**cookie, "X-CSRF-Token": made["csrf"]}
    )
    assert (status, ended) == (200, {"logged_out": True})
    assert call(one, "GET", "/api/session", headers=cookie)[0] == 401  # revoked everywhere

    # the ladder's worker runs once, in serve's own care, never in a web process
    workers = [p for p, cmd in children(serve.pid).items() if b"tournament\0work" in cmd]
    assert len(workers) == 1
    assert not any(children(pid) for pid in web)

    for connection in held.values():
        connection.close()
    serve.send_signal(signal.SIGTERM)
    serve.communicate(timeout=60)
    assert serve.returncode == 128 + signal.SIGTERM  # as one web process ends
    assert not [pid for pid in (*web, *workers) if alive(pid)]
