"""`botarena remote` against a live contest site: log in (the token kept mode 0600), upload
and wait for the build log and the test verdict (exit 1 when it fails), list bots and a
bot's games, download a replay that `botarena view` reads offline, read one's own stderr
and not another's; every mistake is one line."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena_helpers import (
    BROKEN,
    STDERR_SECRET,
    client,
    good_bot,
    opened_contest,
    register,
    settle,
    upload,
)
from botarena.cli import app

pytestmark = pytest.mark.slow  # a live site, builds and test games: about 8 s


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A contest served on a free port, a worker settling its uploads meanwhile; bob's bot
    on the ladder."""
    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    folder = tmp_path_factory.mktemp("remote")
    with opened_contest(folder) as store, client(store) as web:
        register(web, "alice")
        bob = register(web, "bob")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
        stop = server.start()
        done = threading.Event()

        def worker() -> None:
            while not done.wait(0.2):
                settle(store)

        thread = threading.Thread(target=worker, daemon=True)
        thread.start()
        try:
            yield server.url, store, folder
        finally:
            done.set()
            thread.join()
            stop()


def _run(*args: str, config: Path) -> Any:
    return CliRunner().invoke(app, list(args), env={"XDG_CONFIG_HOME": str(config)})


def _one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("botarena: error: "), result.output
    return lines[0]


def test_a_contestant_works_the_site_from_the_command_line(site: Any, tmp_path: Path) -> None:
    url, _, _ = site
    config = tmp_path / "config"
    secret = tmp_path / "pw"
    secret.write_text("password-1\n")
    assert "not logged in" in _one_line_error(_run("remote", "bots", config=config))
    logged = _run(
        "remote", "login", url, "--user", "alice", "--password-file", str(secret), config=config
    )
    assert logged.exit_code == 0, logged.output
    saved = config / "botarena" / "remote.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert json.loads(saved.read_text())["url"] == url

    source = tmp_path / "bot.py"
    source.write_text(BROKEN)
    failed = _run("remote", "upload", str(source), "--name", "walker", config=config)
    assert failed.exit_code == 1, failed.output
    assert "SyntaxError" in failed.output and "walker v1: build-failed" in failed.output

    source.write_text(good_bot())
    passed = _run("remote", "upload", str(source), "--name", "walker", config=config)
    assert passed.exit_code == 0, passed.output
    assert "test game" in passed.output and "walker v2: active" in passed.output

    listed = _run("remote", "bots", config=config)
    assert "walker: playing v2" in listed.output and "latest upload v2 active" in listed.output

    games = _run("remote", "games", "walker", config=config)
    assert games.exit_code == 0, games.output
    test_game = int(games.output.split()[0])
    own = _run("remote", "stderr", str(test_game), config=config)
    assert own.exit_code == 0 and STDERR_SECRET in own.output

    replay = tmp_path / "game.json"
    got = _run("remote", "replay", str(test_game), "-o", str(replay), config=config)
    assert got.exit_code == 0, got.output
    from botarena.core.replay import load

    assert load(replay)["game"] == "amazes"
    html = tmp_path / "game.html"
    shown = _run("view", str(replay), "--html", str(html), config=config)
    assert shown.exit_code == 0 and html.stat().st_size > 1000


def test_another_bots_stderr_and_wrong_asks_are_one_line(site: Any, tmp_path: Path) -> None:
    url, store, _ = site
    config = tmp_path / "config"
    secret = tmp_path / "pw"
    secret.write_text("password-1\n")
    _run("remote", "login", url, "--user", "alice", "--password-file", str(secret), config=config)
    tests = store.games(store.tournament("cup-uploads"))
    bobs = [g for g in tests if g.seats[0].startswith("runner@")]
    line = _one_line_error(_run("remote", "stderr", str(bobs[0].id), config=config))
    assert "only your own bots' stderr" in line
    line = _one_line_error(_run("remote", "games", "nobody", config=config))
    assert "404 no bot 'nobody'" in line
    wrong = tmp_path / "wrong"
    wrong.write_text("wrong-password\n")
    line = _one_line_error(
        _run(
            "remote", "login", url, "--user", "alice", "--password-file", str(wrong), config=config
        )
    )
    assert "401 wrong user name or password" in line
    line = _one_line_error(_run("remote", "login", "ftp://x", "--user", "a", config=config))
    assert "not a site's address" in line
    line = _one_line_error(
        _run(
            "remote",
            "login",
            "http://127.0.0.1:9/",
            "--user",
            "a",
            "--password-file",
            str(secret),
            config=config,
        )
    )
    assert "cannot reach http://127.0.0.1:9/" in line
