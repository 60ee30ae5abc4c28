"""From upload to ladder: the test game's verdicts, a worker's claims, `arena new` and
`arena serve` as a user runs them, and the whole path on PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena_helpers import (
    BROKEN,
    CRASHES,
    PASSWORD,
    call_live,
    client,
    good_bot,
    new_contest,
    opened_contest,
    organiser,
    register,
    settle,
    upload,
    upload_live,
)
from botarena.arena import store as arena
from botarena.tournament.store import Store
from conftest import fresh_database

SLEEPS = "import time\ntime.sleep(60)\n"
"""Never answers: out of its 500 ms budget (-o budget_ms=500) at its first move."""
BABBLES = "import sys\nfor line in sys.stdin:\n    print('FLY AWAY', flush=True)\n"
"""Answers every turn with a move Amazes has no word for."""


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with opened_contest(tmp_path, "budget_ms=500") as opened:
        yield opened


@pytest.mark.parametrize(
    ("source", "status", "reason"),
    [
        (CRASHES, "crashed", "the bot crashed in its test game against the sample bot"),
        pytest.param(
            SLEEPS,
            "timeout",
            "the bot ran out of time in its test game against the sample bot",
            marks=pytest.mark.slow,  # about 5 s: the jury waits out its budget, then a grace
        ),
        (
            BABBLES,
            "invalid",
            "the bot made an illegal move in its test game against the sample bot",
        ),
    ],
)
def test_a_failed_test_game_keeps_the_bot_out(
    store: Store, source: str, status: str, reason: str
) -> None:
    with client(store) as web:
        alice = register(web, "alice")
        upload(web, alice, "bot.py", source)
        settle(store)
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert bot["status"] == "test-failed"
        assert bot["test_game"]["result"].startswith(reason)
        assert bot["rank"] is None
        assert [row["bot"] for row in web.get("/api/standings").json()] == ["sample"]
        game = web.get(f"/api/games/{bot['test_game']['id']}", headers=alice).json()
        assert game["seats"][0]["status"] == status


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("amazes", ["alice", "sample"]),
        ("ants", ["alice", "sample"]),
        ("falldown", ["alice", "sample-1", "sample-2", "sample-3"]),
    ],
)
def test_each_games_starter_passes_its_test_game(
    tmp_path: Path, game: str, seats: list[str]
) -> None:
    """A contest of each game a ladder takes: its Python starter (what the upload page
    offers) passes the test game, against as many sample seats as the game needs."""
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path, game=game)
    store = Store.open(db)
    try:
        with client(store) as web:
            alice = register(web, "alice")
            upload(web, alice, "bot.py", good_bot(game))
            settle(store)
            bot = web.get("/api/bots/alice", headers=alice).json()
            assert (bot["status"], bot["test_game"]["result"]) == ("active", "passed")
            game_row = web.get(f"/api/games/{bot['test_game']['id']}").json()
            assert game_row["bots"] == seats and game_row["kind"] == "test"
    finally:
        store.close()


@pytest.mark.slow  # a compiler and a JVM in the sandbox: about 1 s each, more under load
@pytest.mark.parametrize(("language", "filename"), [("cpp", "bot.cpp"), ("java", "Bot.java")])
def test_the_compiled_starters_pass_too(store: Store, language: str, filename: str) -> None:
    from botarena.core.starters import source
    from conftest import debian_program

    debian_program("g++" if language == "cpp" else "javac", "g++ or default-jdk-headless")
    with client(store) as web:
        alice = register(web, "alice")
        upload(web, alice, filename, source("amazes", "bot", language))
        settle(store)
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert (bot["status"], bot["test_game"]["result"]) == ("active", "passed"), bot


def test_the_failure_names_the_fault() -> None:
    from botarena.arena.pipeline import failure

    document = {
        "handshake_faults": {},
        "steps": [
            {
                "acts": [
                    {"seat": 1, "reply": "T"},
                    {"seat": 0, "fault": ["invalid", "'FLY AWAY' is no move"]},
                ]
            }
        ],
    }
    assert failure(document, "invalid") == (
        "the bot made an illegal move in its test game against the sample bot:"
        " 'FLY AWAY' is no move"
    )
    assert failure(
        {"handshake_faults": {"0": ["crashed", "exit status 3"]}, "steps": []}, "crashed"
    ) == ("the bot crashed in its test game against the sample bot: exit status 3")
    assert (
        failure(None, "timeout")
        == "the bot ran out of time in its test game against the sample bot"
    )


def test_a_dead_workers_upload_is_built_again(store: Store) -> None:
    from botarena.arena.pipeline import Uploads

    with client(store) as web:
        upload(web, register(web, "alice"), "bot.py", good_bot())
    gone = Uploads(store, "a-runner-that-died", None, sandbox=False)
    step = gone.next()
    assert step is not None and step.bot == "alice" and step.phase == "build"
    live = store.register_runner()
    again = Uploads(store, live, None, sandbox=False)
    taken = again.next()  # the dead claim (no runners row) is handed back, then claimed
    assert taken is not None and taken.upload_id == step.upload_id
    assert again.next() is None
    assert again.done(taken, None) is None  # its worker process died: back in the queue
    assert again.next() is not None
    store.retire_runner(live)


def test_a_test_game_the_worker_could_not_record_gives_the_upload_back(store: Store) -> None:
    """A jury failure in the test game (its replay written nowhere) is not the bot's: the
    upload waits for a build again, not `test-failed`."""
    from botarena.arena.pipeline import Uploads
    from botarena.tournament.worker import play_game

    with client(store) as web:
        upload(web, register(web, "alice"), "bot.py", good_bot())
    runner = store.register_runner()
    queue = Uploads(store, runner, None, sandbox=False)
    built = queue.next()
    assert built is not None
    test = queue.done(built, play_game(built.job))
    assert test is not None and test.phase == "test"
    assert queue.done(test, {"jury": "the replay could not be written: read-only"}) is None
    with store.engine.connect() as conn:
        row = conn.execute(arena.uploads.select()).one()
    assert (row.status, row.claimed_by, row.test_game_id) == ("building", None, None)
    store.retire_runner(runner)


@pytest.mark.slow
def test_a_worker_builds_tests_and_plays(store: Store) -> None:
    """Through `runner.work` (what `tournament work` and `arena serve` run), sandboxed: a
    source that does not build, its fix, the test game, the ladder's games."""
    from botarena.core.sandbox import confinement_missing
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    if confinement_missing():
        pytest.skip("the sandbox cannot confine bots here: " + "; ".join(confinement_missing()))
    with client(store) as web:
        alice = register(web, "alice")
        upload(web, alice, "bot.py", BROKEN)
        upload(web, alice, "bot.py", good_bot())
        assert work(store, LocalExecutor(0), ["cup"], games=3, seconds=60) == 3
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert [v["status"] for v in bot["versions"]] == ["build-failed", "active"]
        standings = {row["bot"]: row for row in web.get("/api/standings").json()}
        assert standings["alice"]["games"] == standings["sample"]["games"] == 3
        recent = web.get("/api/me", headers=alice).json()["games"]
        assert len(recent) == 3 and all(sorted(g["bots"]) == ["alice", "sample"] for g in recent)


@pytest.mark.slow
def test_a_pass_retires_the_previous_version(store: Store) -> None:
    with client(store) as web:
        alice = register(web, "alice")
        upload(web, alice, "bot.py", good_bot())
        settle(store)
        upload(web, alice, "bot.py", good_bot() + "\n# v2\n")
        settle(store)
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert [v["status"] for v in bot["versions"]] == ["retired", "active"]
        standings = web.get("/api/standings").json()
        assert [row["label"] for row in standings if row["bot"] == "alice"] == ["alice@v2"]
        # a failing third version leaves v2 on the ladder
        upload(web, alice, "bot.py", CRASHES)
        settle(store)
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert [v["status"] for v in bot["versions"]] == ["retired", "active", "test-failed"]
        assert bot["active_version"] == 2


def test_an_archive_of_sources_is_built_whole(store: Store) -> None:
    """A zip of a Python bot in a folder, importing a module of its own: built with its
    module, it passes its test game."""
    import io
    import zipfile

    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("mybot/bot.py", "import helper\n" + good_bot())
        archive.writestr("mybot/helper.py", "WORDS = 'mine'\n")
    with client(store) as web:
        alice = register(web, "alice")
        assert upload(web, alice, "mybot.zip", data.getvalue()).status_code == 202
        settle(store)
        bot = web.get("/api/bots/alice", headers=alice).json()
        assert bot["status"] == "active", bot
        assert bot["build_log"] == "Python source bot.py and 1 other file: built without errors."
        assert bot["versions"][0]["file"] == "mybot.zip"


# -- the command line -------------------------------------------------------------------
def test_arena_new_prints_the_organisers_login(tmp_path: Path) -> None:
    from botarena.arena.cli import app

    db = f"sqlite:///{tmp_path / 'c.db'}"
    done = CliRunner().invoke(app, ["new", "cup", "--game", "amazes", "--db", db])
    assert done.exit_code == 0, done.output
    line = next(x for x in done.output.splitlines() if x.startswith("organiser:"))
    password = line.split("password ")[1].split()[0]
    store = Store.open(db)
    with client(store) as web:
        answer = web.post("/api/login", json={"user": "admin", "password": password})
        assert answer.status_code == 200
    store.close()
    again = CliRunner().invoke(app, ["new", "cup", "--game", "amazes", "--db", db])
    assert again.exit_code == 2 and "already exists" in again.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "chess"], "chess"),
        (["--game", "amazes", "-o", "max_source_bytes=lots"], "max_source_bytes"),
        (["--game", "amazes", "-o", "deadline=soon"], "deadline"),
        (["--game", "amazes", "-o", "nonsense=1"], "nonsense"),
        (["--game", "amazes", "--sample-bot", "builtin:amazes/random", "--sample-bot", "x"], "one"),
        (["--game", "labyrinth", "--sample-bot", "builtin:amazes/random"], "--sample-bot"),
    ],
)
def test_arena_new_refuses(tmp_path: Path, args: list[str], words: str) -> None:
    from botarena.arena.cli import app

    db = f"sqlite:///{tmp_path / 'c.db'}"
    done = CliRunner().invoke(app, ["new", "cup", "--db", db, *args])
    assert done.exit_code == 2
    assert words in done.output and "Traceback" not in done.output
    assert not (tmp_path / "c.db").exists()  # a mistake leaves no file


def test_serve_refuses_without_the_sandbox(tmp_path: Path, monkeypatch: Any) -> None:
    from botarena.arena.cli import app
    from botarena.core import sandbox

    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path)
    monkeypatch.setattr(
        sandbox,
        "confinement_missing",
        lambda: ["bubblewrap (not installed)", "the pids cgroup (off)"],
    )
    done = CliRunner().invoke(app, ["serve", "cup", "--db", db])
    assert done.exit_code == 2
    line = done.output.strip()
    assert "\n" not in line
    assert "bubblewrap (not installed)" in line and "the pids cgroup (off)" in line
    assert "botarena doctor" in line and "--insecure-no-sandbox" in line
    unknown = CliRunner().invoke(app, ["serve", "nope", "--db", db, "--insecure-no-sandbox"])
    assert unknown.exit_code == 2 and "no contest 'nope'" in unknown.output
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    gone = CliRunner().invoke(app, ["serve", "cup", "--db", missing, "--insecure-no-sandbox"])
    assert gone.exit_code == 2 and "no such database file (arena new makes one)" in gone.output
    assert not (tmp_path / "none.db").exists()


def test_insecure_site_says_so(store: Store) -> None:
    with client(store, insecure=True) as web:
        assert web.get("/api/contest").json()["insecure"] is True
        page = web.get("/").text
        assert 'id="insecure"' in page and "without a sandbox" in page


@pytest.mark.slow
def test_serve_with_its_workers(tmp_path: Path) -> None:
    """`arena new` and `arena serve --port 0 --workers 1` as a user runs them: an upload over
    HTTP is built and tested by serve's worker and plays on the ladder; Ctrl-C stops both."""
    from botarena.core.sandbox import confinement_missing

    insecure = ["--insecure-no-sandbox"] if confinement_missing() else []
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    (tmp_path / "pw").write_text(PASSWORD)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "arena",
            "new",
            "cup",
            "--game",
            "amazes",
            "--db",
            db,
            "--admin-password-file",
            str(tmp_path / "pw"),
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env=env,
    )
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "botarena",
            "arena",
            "serve",
            "cup",
            "--db",
            db,
            "--port",
            "0",
            "--workers",
            "1",
            *insecure,
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert serve.stdout is not None
        first = serve.stdout.readline()
        url = first.split()[2]
        assert url.startswith("http://127.0.0.1:"), first
        token = call_live(url, "/api/register", {"user": "alice", "password": "password-1"})[
            "token"
        ]
        assert upload_live(url, token, "bot.py", good_bot().encode()) == 202
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            table = {row["bot"]: row for row in call_live(url, "/api/standings")}
            if table.get("alice", {}).get("games", 0) >= 2:
                break
            time.sleep(0.5)
        assert table["alice"]["games"] >= 2
        assert call_live(url, "/api/bots/alice", token=token)["status"] == "active"
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=60)
    assert serve.returncode == 128 + signal.SIGINT  # Ctrl-C's status, as every command's
    assert serve.stderr is not None
    assert "stopping: the games in progress finish" in serve.stderr.read()  # its worker too


@pytest.mark.slow
def test_postgresql_store(postgres_server: str, tmp_path: Path, monkeypatch: Any) -> None:
    """The same path on PostgreSQL: contest, accounts, uploads, test games, ladder games,
    void and disable."""
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    monkeypatch.chdir(tmp_path)  # a PostgreSQL contest builds and keeps replays here
    db = fresh_database(postgres_server)
    new_contest(db, tmp_path)
    store = Store.open(db)
    try:
        with client(store) as web:
            alice, bob = register(web, "alice"), register(web, "bob")
            upload(web, alice, "bot.py", BROKEN)
            upload(web, bob, "crash.py", CRASHES)
            upload(web, alice, "bot.py", good_bot())
            settle(store)
            assert work(store, LocalExecutor(0), ["cup"], games=2, seconds=60, sandbox=False) == 2
            assert [
                v["status"] for v in web.get("/api/bots/alice", headers=alice).json()["versions"]
            ] == [
                "build-failed",
                "active",
            ]
            assert web.get("/api/bots/bob", headers=bob).json()["status"] == "test-failed"
            assert "test_game" not in web.get("/api/bots/bob", headers=alice).json()
            admin = organiser(web)
            game = web.get("/api/me", headers=alice).json()["games"][0]["id"]
            web.post(f"/api/admin/games/{game}/void", headers=admin)
            table = {row["bot"]: row["games"] for row in web.get("/api/standings").json()}
            assert table == {"alice": 1, "sample": 1}
            web.post("/api/admin/bots/alice/disable", headers=admin)
            assert [row["bot"] for row in web.get("/api/standings").json()] == ["sample"]
            assert arena.contest(store, "cup") is not None
    finally:
        store.close()
