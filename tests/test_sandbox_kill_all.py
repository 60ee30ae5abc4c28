"""`kill_all` (a pool worker whose runner died, about to end): every process this process
started is killed, a start under way on another thread too, and none starts after it."""

from __future__ import annotations

import subprocess
import threading
import time

import pytest

from botarena.core.sandbox import confinement as module
from botarena.core.sandbox.limits import NONE


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """kill_all ends this process's starts for good: the test's own registry and lock."""
    monkeypatch.setattr(module, "_RUNNING", {})
    monkeypatch.setattr(module, "_LAUNCHES", threading.Lock())
    monkeypatch.setattr(module, "_ENDING", threading.Event())


def start(box: module.Confinement, under_way: threading.Event | None = None) -> subprocess.Popen:
    """Start `box`'s process as a player does; `under_way`: set once inside the start,
    which then takes 0.3 s before the process is forked (a slow Popen)."""
    with box.launching():
        if under_way is not None:
            under_way.set()
            time.sleep(0.3)
        proc = subprocess.Popen(box.argv, start_new_session=True)
        box.started(proc.pid)
    return proc


def test_every_started_process_is_killed() -> None:
    procs = [start(module.Confinement(["sleep", "600"], NONE)) for _ in range(3)]
    module.kill_all()
    assert [proc.wait(timeout=5) for proc in procs] == [-9, -9, -9]


def test_a_start_under_way_is_waited_for_and_killed() -> None:
    """The start that kill_all would have missed: forked, not yet `started`."""
    box = module.Confinement(["sleep", "600"], NONE)
    under_way, procs = threading.Event(), []
    thread = threading.Thread(target=lambda: procs.append(start(box, under_way)))
    thread.start()
    assert under_way.wait(timeout=5)
    module.kill_all()
    thread.join(timeout=5)
    assert len(procs) == 1 and procs[0].wait(timeout=5) == -9


def test_no_process_starts_after_it() -> None:
    module.kill_all()
    box = module.Confinement(["sleep", "600"], NONE)
    with pytest.raises(OSError, match="ending"):
        start(box)
    assert module._RUNNING == {}
