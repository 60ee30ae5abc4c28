"""Between turns a bot that waits idle for its input is left running; one that uses CPU there
is stopped between all its turns from then on (docs/sandbox.md, "Why a bot is not always
stopped")."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

import botarena
from botarena.core import cgroups
from botarena.core.sandbox import Confinement
from conftest import debian_program

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def counted_cpu() -> None:
    """Bubblewrap, and a cgroup counting each bot's CPU (else every bot is stopped every
    turn, as before)."""
    debian_program("bwrap", "bubblewrap")
    group = cgroups.new_group(None, None)
    try:
        if not group.counts_cpu:
            pytest.skip("no cgroup counts a bot's CPU here: every bot is stopped every turn")
    finally:
        group.remove()


# An Amazes bot that reads its 5 or 6 lines a turn and turns; SPIN: it thinks between turns.
BOT = textwrap.dedent("""
    import sys, time
    SPIN = {spin}
    for turn in range(150):
        first = sys.stdin.readline()
        for _ in range(5 if first.startswith("Start") else 4):
            sys.stdin.readline()
        print("T", flush=True)
        if SPIN and turn >= SPIN:
            end = time.process_time() + 0.02
            while time.process_time() < end:
                pass
""")


class Slow:
    """An in-process Amazes bot that thinks 30 ms a turn: time the other bot must not use."""

    def act(self, observation: object) -> str:
        time.sleep(0.03)
        return "T"


def stops_per_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spin: int, opponent: object = None
) -> list[int]:
    """How often each process bot was stopped with SIGSTOP over a 20-turn game."""
    stops: dict[int, int] = {}
    stop = Confinement._stop

    def counted(box: Confinement) -> None:
        stops[id(box)] = stops.get(id(box), 0) + 1
        stop(box)

    monkeypatch.setattr(Confinement, "_stop", counted)
    path = tmp_path / "bot.py"
    path.write_text(BOT.format(spin=spin))
    tmp_path.chmod(0o755)
    spec = f"{sys.executable} {path}"
    result = botarena.play("amazes", [spec, opponent or spec], seed=5, turns=20)
    assert [p.status for p in result.players] == ["ok", "ok"]
    return sorted(stops.values())


def test_an_idle_bot_is_stopped_only_until_its_first_turn(
    counted_cpu: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert stops_per_bot(tmp_path, monkeypatch, spin=0) == [1, 1]


def test_a_bot_thinking_between_turns_is_stopped_from_then_on(
    counted_cpu: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It spins 20 ms of CPU after each reply from its 5th turn on, while its opponent
    thinks 30 ms: the check before its 6th turn catches it at the latest, and each of its
    later turns ends in a stop (the start's, then 15 more; one more where a counter's lag
    made an earlier check see more than its idle CPU)."""
    assert stops_per_bot(tmp_path, monkeypatch, spin=4, opponent=Slow()) in ([16], [17])


def test_a_bot_whose_cpu_is_charged_turn_by_turn_is_stopped_between_all_its_turns(
    counted_cpu: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a CPU clock (here `-o clock=cpu`), CPU between turns must not leak into the
    next turn's count: the idle bot is stopped after each of its 20 turns too."""
    stops: list[int] = []
    stop = Confinement._stop
    monkeypatch.setattr(Confinement, "_stop", lambda box: (stops.append(1), stop(box)))
    path = tmp_path / "bot.py"
    path.write_text(BOT.format(spin=0))
    tmp_path.chmod(0o755)
    result = botarena.play(
        "amazes", [f"{sys.executable} {path}", Slow()], seed=5, turns=20, clock="cpu"
    )
    assert [p.status for p in result.players] == ["ok", "ok"]
    assert len(stops) == 21  # the start's, then one after each turn
