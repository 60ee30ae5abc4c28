"""The supervisor reaps a worker that ended, logs its cause, starts another after a pause
that doubles while it keeps failing (1 s up to 60 s, back to 1 s after a steady run), and
stops the workers cleanly; with fake processes and a fake clock, then one real process."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time

import pytest

from botarena.core.supervisor import Backoff, Supervisor


class Fake:
    """A started worker whose end the test decides."""

    count = 0

    def __init__(self) -> None:
        Fake.count += 1
        self.pid = 1000 + Fake.count
        self.code: int | None = None
        self.signals: list[int] = []

    def poll(self) -> int | None:
        return self.code

    def send_signal(self, sig: int) -> None:
        self.signals.append(sig)
        self.code = -sig

    def wait(self, timeout: float | None = None) -> int:
        assert self.code is not None
        return self.code

    def kill(self) -> None:
        self.code = -signal.SIGKILL


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_pause_doubles_up_to_a_minute_and_resets_after_a_steady_run() -> None:
    backoff = Backoff()
    assert [backoff.pause(0.5) for _ in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert backoff.pause(61.0) == 1  # it ran a while: a fresh start
    assert backoff.pause(2.0) == 2


def test_a_dead_worker_is_reaped_logged_and_restarted_after_its_pause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock, started, ended = Clock(), [], []

    def start() -> Fake:
        started.append(Fake())
        return started[-1]

    supervisor = Supervisor(
        "worker", start, on_exit=lambda pid, code: ended.append((pid, code)), clock=clock
    )
    supervisor.step()
    assert len(started) == 1
    clock.now = 5.0
    started[0].code = -signal.SIGKILL  # kill -9
    with caplog.at_level(logging.WARNING, logger="botarena"):
        assert supervisor.step() == pytest.approx(1.0)
    assert ended == [(started[0].pid, -signal.SIGKILL)]
    assert f"worker {started[0].pid} ended (killed by SIGKILL)" in caplog.text
    assert "starting another in 1 s" in caplog.text
    clock.now = 5.5
    supervisor.step()
    assert len(started) == 1  # not yet
    clock.now = 6.0
    supervisor.step()
    assert len(started) == 2
    started[1].code = 3  # fails again at once: twice the pause
    clock.now = 6.1
    assert supervisor.step() == pytest.approx(2.0)
    assert "exit code 3" in caplog.text
    clock.now = 8.1
    supervisor.step()
    assert len(started) == 3
    clock.now = 100.0  # runs steadily, then ends: the pause is back to 1 s
    started[2].code = 1
    assert supervisor.step() == pytest.approx(1.0)


def test_stop_terminates_and_reaps_without_restarting() -> None:
    clock, started = Clock(), []

    def start() -> Fake:
        started.append(Fake())
        return started[-1]

    supervisor = Supervisor("worker", start, count=2, clock=clock)
    supervisor.step()
    supervisor.stop()
    assert [child.signals for child in started] == [[signal.SIGTERM]] * 2
    supervisor.step()
    assert len(started) == 2


def test_a_real_worker_killed_9_is_reaped_and_replaced() -> None:
    """No zombie: the supervisor's thread reaps it within a poll."""
    from botarena.core.liveness import alive

    children: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        children.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
        return children[-1]

    supervisor = Supervisor("worker", start, backoff=lambda: Backoff(first=0.1))
    supervisor.run_in_thread()
    try:
        first = children[0]
        first.send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 20
        while len(children) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert first.returncode == -signal.SIGKILL  # reaped
        assert alive(children[1].pid)
    finally:
        supervisor.stop(grace=5)
    assert all(child.returncode is not None for child in children)
