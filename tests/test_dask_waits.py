"""`tournament run --dask` waits a bounded time and says what it waited for (#34): a port that
accepts and never answers, one that answers HTTP, one that greets in another protocol."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botarena.cli import app

pytest.importorskip("distributed")


@pytest.fixture
def tournament(tmp_path: Path) -> str:
    db = f"sqlite:///{tmp_path / 't.db'}"
    made = CliRunner().invoke(
        app,
        ["tournament", "new", "t", "--game", "amazes", "--db", db,
         "--bot", "builtin:amazes/random", "--bot", "b=builtin:amazes/random"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    return db


def serve(greet: Callable[[socket.socket], None]) -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts and calls `greet` on each connection."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)
            greet(connection)

    threading.Thread(target=accept, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()
    for connection in held:
        connection.close()


@pytest.fixture
def silent() -> Iterator[int]:
    yield from serve(lambda connection: None)


@pytest.fixture
def ssh() -> Iterator[int]:
    yield from serve(lambda connection: connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n"))


@pytest.fixture
def http_port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def run_on(port: int, db: str) -> tuple[int, str, float]:
    started = time.monotonic()
    result = CliRunner().invoke(
        app,
        ["tournament", "run", "t", "--db", db, "--dask", f"tcp://127.0.0.1:{port}",
         "--dask-timeout", "1.5"],
    )  # fmt: skip
    return result.exit_code, result.output, time.monotonic() - started


@pytest.mark.parametrize("kind", ["silent", "http_port"])
@pytest.mark.slow
def test_a_port_that_never_greets_fails_after_the_timeout(
    kind: str, tournament: str, request: pytest.FixtureRequest
) -> None:
    port = request.getfixturevalue(kind)
    code, output, took = run_on(port, tournament)
    assert (code, output) == (
        2,
        f"botarena: error: --dask tcp://127.0.0.1:{port}: waited 1.5 s for the scheduler's"
        " greeting and got none (is it a Dask scheduler? --dask-timeout waits longer)\n",
    )
    assert 1.4 < took < 15


def test_a_port_greeting_in_another_protocol_is_one_line(ssh: int, tournament: str) -> None:
    code, output, took = run_on(ssh, tournament)
    assert (code, output) == (
        2,
        f"botarena: error: --dask tcp://127.0.0.1:{ssh}: the port answers another protocol"
        " (b'SSH-2.0-'...), not a Dask scheduler's\n",
    )
    assert took < 15


def test_the_timeout_is_bounded(tournament: str) -> None:
    result = CliRunner().invoke(
        app,
        ["tournament", "run", "t", "--db", tournament, "--dask", "tcp://127.0.0.1:1",
         "--dask-timeout", "1e9"],
    )  # fmt: skip
    assert (result.exit_code, result.output) == (
        2,
        "botarena: error: --dask-timeout must be above 0 and at most 3600 seconds\n",
    )
