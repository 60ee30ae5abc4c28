"""Workers are supervised: `arena serve`'s worker killed -9 at random-ish moments (an upload
claimed, a game claimed, any time) is reaped, replaced, and its claims go back at once; every
upload reaches a final status; nothing of a dead worker is left running (its pool, its
bubblewrap, its bots); and a ladder's `tournament run` killed -9 mid-game leaves no process."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from arena_helpers import BROKEN, PASSWORD, good_bot, register_live, upload_live
from conftest import processes

pytestmark = pytest.mark.slow

STRAY_S = 10.0
"""How long a dead worker's pool and games may take to end (a pool worker notices its
runner's end within half a second; a loaded machine may take longer to run it)."""
FINAL = {"active", "build-failed", "test-failed", "retired"}


def botarena(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "botarena", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def descendants(root: int) -> set[int]:
    """`root` and every live process under it."""
    children: dict[int, list[int]] = {}
    for pid, state, parent, _ in processes():
        if state != "Z":
            children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        found.add(pid)
        todo += children.get(pid, [])
    return found


def strays(folder: Path, keep: set[int]) -> list[str]:
    """Live processes naming `folder` (command line or working folder), but those in `keep`:
    what a dead worker, its pool or its games would leave."""
    left = []
    for pid, state, _, cmdline in processes():
        if state == "Z" or pid in keep or pid == os.getpid():
            continue
        with contextlib.suppress(OSError):
            cwd = os.readlink(f"/proc/{pid}/cwd")
            if str(folder).encode() in cmdline or cwd.startswith(str(folder)):
                left.append(f"{pid} ({state}): {cmdline[:120]!r} in {cwd}")
    return left


def reap_adopted() -> None:
    """Reap the orphans this process adopted: the sandbox's probe made it a child subreaper,
    so a dead worker's ended pool processes come to it as zombies."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def wait_for(what: str, check: Callable[[], Any], timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


def claims_of(engine: sa.Engine, runner: str) -> list[str]:
    """The uploads and games `runner` still holds."""
    with engine.connect() as conn:
        held = conn.execute(
            sa.text(
                "SELECT 'upload ' || id FROM arena_uploads WHERE claimed_by = :r"
                " UNION ALL SELECT 'game ' || id FROM games"
                " WHERE claimed_by = :r AND status = 'claimed'"
            ),
            {"r": runner},
        )
        return list(held.scalars())


KILL_MOMENTS = ("upload", "game", "any")
"""When serve's worker is killed: building an upload, playing a game, at a random moment."""


def test_serves_worker_killed_9_is_replaced_and_loses_nothing(db: str, tmp_path: Path) -> None:
    from botarena.core.sandbox import confinement_missing

    insecure = ["--insecure-no-sandbox"] if confinement_missing() else []
    (tmp_path / "pw").write_text(PASSWORD)
    made = botarena(
        "arena", "new", "cup", "--game", "amazes", "--db", db, "--admin-password-file",
        str(tmp_path / "pw"), "-o", "turns=60", cwd=tmp_path,
    )  # fmt: skip
    assert made.wait(timeout=120) == 0, made.stderr and made.stderr.read()
    serve = botarena(
        "arena", "serve", "cup", "--db", db, "--port", "0", "--workers", "1", *insecure,
        cwd=tmp_path,
    )  # fmt: skip
    engine = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    rng = random.Random()
    try:
        assert serve.stdout is not None
        url = serve.stdout.readline().split()[2]
        tokens = [register_live(url, f"u{i}") for i in range(4)]
        for index, token in enumerate(tokens):
            assert (
                upload_live(url, token, "bot.py", (BROKEN if index == 3 else good_bot()).encode())
                == 202
            )

        def worker() -> tuple[int, str]:
            """serve's worker (`tournament work`) and its runner id, once registered."""
            with engine.connect() as conn:
                rows = conn.execute(sa.text("SELECT id, pid FROM runners")).all()
            ours = {
                pid
                for pid, _, parent, cmdline in processes()
                if parent == serve.pid and b"work" in cmdline
            }
            return next(((pid, rid) for rid, pid in rows if pid in ours), None)  # type: ignore[return-value]

        def claimed(kind: str) -> bool:
            query = {
                "upload": "SELECT count(*) FROM arena_uploads WHERE claimed_by IS NOT NULL",
                "game": "SELECT count(*) FROM games WHERE status = 'claimed'",
            }[kind]
            with engine.connect() as conn:
                return conn.execute(sa.text(query)).scalar_one() > 0

        def left() -> list[str]:
            return strays(tmp_path, descendants(serve.pid))

        # each moment once: the supervisor's pause doubles after each kill in a row (1, 2, 4 s)
        for moment in KILL_MOMENTS:
            pid, runner = wait_for("serve's worker", worker)
            if moment == "any":
                time.sleep(rng.uniform(0.0, 3.0))
            else:
                with contextlib.suppress(AssertionError):  # else at the time it gave up
                    wait_for(f"a claimed {moment}", lambda m=moment: claimed(m), timeout=20)
                time.sleep(rng.uniform(0.0, 0.3))
            os.kill(pid, signal.SIGKILL)
            # reaped (no zombie), its claims back at once, its pool and games gone
            wait_for("the dead worker reaped", lambda p=pid: not os.path.exists(f"/proc/{p}"))
            wait_for("its claims given back", lambda r=runner: not claims_of(engine, r), 10)
            with contextlib.suppress(AssertionError):  # a loaded machine: a few seconds
                wait_for("its pool and games gone", lambda: not left(), timeout=STRAY_S)
            assert left() == []

        def final() -> bool:
            with engine.connect() as conn:
                statuses = conn.execute(sa.text("SELECT status FROM arena_uploads")).scalars()
                return set(statuses) <= FINAL

        wait_for("every upload's final status", final, timeout=180)
        with engine.connect() as conn:
            statuses = sorted(conn.execute(sa.text("SELECT status FROM arena_uploads")).scalars())
        assert statuses == ["active"] * 3 + ["build-failed"]
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=90)
        reap_adopted()
    assert serve.stderr is not None
    log = serve.stderr.read()
    assert log.count("killed by SIGKILL): starting another in") == len(KILL_MOMENTS), log
    time.sleep(1.0)
    assert strays(tmp_path, set()) == []
    with engine.connect() as conn:
        assert (
            conn.execute(
                sa.text("SELECT count(*) FROM games WHERE status = 'claimed'")
            ).scalar_one()
            == 0
        )
        assert (
            conn.execute(
                sa.text("SELECT count(*) FROM arena_uploads WHERE claimed_by IS NOT NULL")
            ).scalar_one()
            == 0
        )
    engine.dispose()


SLOW_BOT = """
import os, sys, time
if os.fork() == 0:  # a child of its own, which must die with the game too
    time.sleep(3600)
    os._exit(0)
while True:
    ahead = sys.stdin.readline().strip()
    if ahead in ("", "Quit"):
        break
    if ahead == "Start":
        continue
    for _ in range(4):
        sys.stdin.readline()
    time.sleep(0.02)
    print("F" if len(ahead) > 1 else "R", flush=True)
"""


def test_a_ladder_run_killed_9_mid_game_leaves_no_process(tmp_path: Path) -> None:
    """The bwrap case: nothing of a game outlives its jury (its pool worker), whether the
    runner dies at the start of a game or in its middle."""
    (tmp_path / "slow.py").write_text(SLOW_BOT)
    db = f"sqlite:///{tmp_path / 'l.db'}"
    bots = [f"--bot=b{i}=python3 slow.py" for i in range(2)]
    made = botarena(
        "tournament", "new", "L", "--game", "amazes", "--schedule", "ladder", *bots,
        "--db", db, cwd=tmp_path,
    )  # fmt: skip
    assert made.wait(timeout=120) == 0, made.stderr and made.stderr.read()
    rng = random.Random()
    for _ in range(4):
        run = botarena("tournament", "run", "L", "--for", "30", "--db", db, cwd=tmp_path)
        # a random moment once its first bots run: at a game's start or in its middle
        wait_for("a game's bots", lambda r=run: len(descendants(r.pid)) > 3, timeout=60)
        time.sleep(rng.uniform(0.0, 1.5))
        run.kill()  # its parent (this test) does not reap it yet: a zombie for a while
        with contextlib.suppress(AssertionError):
            wait_for(
                "its pool and games gone", lambda r=run: not strays(tmp_path, {r.pid}), STRAY_S
            )
        try:
            assert strays(tmp_path, {run.pid}) == []
        finally:
            run.wait()
            reap_adopted()
