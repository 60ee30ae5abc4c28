"""In a game where one bot thinks at a time, a bot running a single thread moves onto the
jury's core after its first reply; a bot with threads of its own, and every bot of a
simultaneous game, keeps every core (docs/sandbox.md, "Which cores a bot runs on")."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

import botarena
from botarena.core.cores import cores

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(cores() < 2, reason="one core: every bot shares it with the jury"),
]


@pytest.fixture(autouse=True)
def own_core_locks(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Core locks of these tests' own: games of other tests run at once hold the machine's."""
    from botarena.core import cores as module

    folder = tmp_path_factory.mktemp("locks")
    monkeypatch.setattr(module, "CORE_LOCKS", str(folder / "core-{core}.lock"))


# An Amazes bot that says on stderr which cores it may run on, every turn; THREAD: it keeps
# a second thread waiting.
AMAZES = textwrap.dedent("""
    import os, sys, threading, time
    if {thread}:
        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
    for turn in range(150):
        first = sys.stdin.readline()
        if not first or first.startswith("Quit"):
            time.sleep(0.1)  # the jury gives its cores back as the game ends
            print("end", sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
            break
        for _ in range(5 if first.startswith("Start") else 4):
            sys.stdin.readline()
        print(sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
        print("T", flush=True)
""")

# The same for Ants: its settings end with `ready`, each turn with `go`.
ANTS = textwrap.dedent("""
    import os, sys
    for line in sys.stdin:
        if line.strip() in ("ready", "go"):
            print(sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
            print("go", flush=True)
""")


def affinities(tmp_path: Path, game: str, body: str, **options: object) -> list[list[str]]:
    """Each bot's cores, turn by turn, over a short game of two copies of `body`."""
    path = tmp_path / "bot.py"
    path.write_text(body)
    tmp_path.chmod(0o755)
    spec = f"{sys.executable} {path}"
    result = botarena.play(game, [spec, spec], seed=5, **options)
    assert [p.status for p in result.players] == ["ok", "ok"], result.to_dict()
    return [text.splitlines() for text in result.stderr]


def test_a_single_threaded_bot_joins_the_jurys_core_after_its_first_reply(
    tmp_path: Path,
) -> None:
    everyone = str(sorted(os.sched_getaffinity(0)))
    seen = affinities(tmp_path, "amazes", AMAZES.format(thread=False), turns=10)
    for turns in seen:
        assert turns[0] == everyone  # its first turn: where it started
        assert len(set(turns[1:-1])) == 1 and turns[1].count(",") == 0  # then one core
        assert turns[-1] == f"end {everyone}"  # and every core to end with the others
    assert seen[0][1] == seen[1][1]  # the same one for both: the jury's


class Spy:
    """An in-process Amazes bot that looks, on each of its turns, at which cores the
    process bot (the one running `script`) may use meanwhile."""

    def __init__(self, script: Path) -> None:
        self.script = str(script).encode()
        self.seen: list[set[int]] = []

    def act(self, observation: object) -> str:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as handle:
                        argv = handle.read().split(b"\0")
                    if argv[:2] == [sys.executable.encode(), self.script]:  # not bubblewrap
                        self.seen.append(os.sched_getaffinity(int(entry)))
                except OSError:
                    pass
        return "T"


def test_between_its_turns_a_joined_bot_is_kept_off_the_referees_core(tmp_path: Path) -> None:
    """So that, if it thinks there before it is caught, it takes no CPU from the bot on turn."""
    path = tmp_path / "bot.py"
    path.write_text(AMAZES.format(thread=False))
    tmp_path.chmod(0o755)
    spy = Spy(path)
    result = botarena.play("amazes", [f"{sys.executable} {path}", spy], seed=5)
    assert result.players[0].status == "ok", result.to_dict()
    own = {line for line in result.stderr[0].splitlines()[1:] if not line.startswith("end")}
    assert len(own) == 1  # on its turns: the referee's core
    referee = set(json.loads(own.pop()))
    assert len(spy.seen) > 100
    assert all(cores == set(os.sched_getaffinity(0)) - referee for cores in spy.seen[1:])


LATE_THREADS = textwrap.dedent("""
    import os, sys, threading, time
    for turn in range(150):
        first = sys.stdin.readline()
        if not first or first.startswith("Quit"):
            break
        for _ in range(5 if first.startswith("Start") else 4):
            sys.stdin.readline()
        print(sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
        if turn == 3:  # it starts thinking in parallel, in a long turn
            threading.Thread(target=helper, daemon=True).start()
            time.sleep({think})
        print("T", flush=True)
""")
LATE_THREADS = (
    "import os, sys, time\n"
    + textwrap.dedent("""
    def helper():
        time.sleep(0.2)
        print("helper", sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
        time.sleep(600)
""")
    + LATE_THREADS
)


@pytest.mark.parametrize("think", [0.01, 0.3])  # noticed at the reply, or while awaited
def test_a_joined_bot_that_starts_threads_gets_every_core_back(tmp_path: Path, think) -> None:
    everyone = str(sorted(os.sched_getaffinity(0)))
    for lines in affinities(tmp_path, "amazes", LATE_THREADS.format(think=think)):
        turns = [line for line in lines if not line.startswith("helper")]
        assert turns[0] == everyone and turns[1].count(",") == 0  # joined after its first
        assert set(turns[4:]) == {everyone}
        if think > 0.2:  # its new thread too, from the look while its reply is awaited
            assert lines[4] == f"helper {everyone}"  # after turn 3's line, before turn 4's


def test_a_bot_with_threads_of_its_own_keeps_every_core(tmp_path: Path) -> None:
    everyone = str(sorted(os.sched_getaffinity(0)))
    for turns in affinities(tmp_path, "amazes", AMAZES.format(thread=True), turns=10):
        assert set(turns[:-1]) == {everyone}


def test_bots_thinking_at_once_keep_every_core(tmp_path: Path) -> None:
    everyone = str(sorted(os.sched_getaffinity(0)))
    for turns in affinities(tmp_path, "ants", ANTS, turns=5):
        assert len(turns) > 3 and set(turns) == {everyone}


def test_games_side_by_side_take_a_core_each_and_never_the_same() -> None:
    """Referees of games played at once on one machine lock a core each (flock): with every
    core taken, the next one pins nothing and the system balances it."""
    import contextlib
    import threading

    from botarena.core.cores import jury_core

    held: list[int | None] = []
    ready, done = threading.Barrier(cores() + 2), threading.Event()

    def referee() -> None:
        with jury_core(True) as core:
            held.append(core)
            ready.wait()
            done.wait()

    threads = [threading.Thread(target=referee) for _ in range(cores() + 1)]
    for thread in threads:
        thread.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        ready.wait(timeout=10)
    done.set()
    for thread in threads:
        thread.join()
    taken = [core for core in held if core is not None]
    assert sorted(taken) == sorted(os.sched_getaffinity(0))  # each core once
    assert held.count(None) == 1


def test_a_core_lock_is_never_taken_through_a_link(tmp_path: Path) -> None:
    """A link planted where a lock file goes is not followed (as root, following it would
    create a file wherever it points)."""
    from botarena.core import cores as module

    target = tmp_path / "elsewhere"
    (tmp_path / "lock").symlink_to(target)
    assert module._lock_file(str(tmp_path / "lock")) is None
    assert not target.exists()
    made = module._lock_file(str(tmp_path / "fresh"))
    assert made is not None and (tmp_path / "fresh").is_file()
    os.close(made)


class Referee:
    """An in-process Amazes bot: it runs on the referee's thread, so it sees the
    referee's cores. From its turn `claim_at` on, it holds every other core's lock (as
    other games' referees would) and takes 10 ms a turn."""

    def __init__(self, claim_at: int | None = None) -> None:
        self.seen: list[set[int]] = []
        self.claim_at = claim_at
        self.held: list[int] = []

    def act(self, observation: object) -> str:
        self.seen.append(os.sched_getaffinity(0))
        if self.claim_at is not None and len(self.seen) >= self.claim_at:
            if not self.held:
                self.held = hold_other_cores(self.seen[-1])
            time.sleep(0.01)
        return "T"


MACHINE = os.sched_getaffinity(0)
"""The cores the tests may use (a referee's thread is pinned to one while it plays)."""


def hold_other_cores(own: set[int]) -> list[int]:
    """Every core's lock but `own`'s, held as another game's referee holds its core's."""
    import fcntl

    from botarena.core import cores as module

    held = []
    for core in sorted(MACHINE - own):
        lock = os.open(module.CORE_LOCKS.format(core=core), os.O_RDONLY | os.O_CREAT, 0o644)
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.append(lock)
    return held


def calls_only_game(tmp_path: Path, referee: Referee | None = None) -> tuple[set[int], list[str]]:
    """A game of a bot that runs only in its calls (as a Labyrinth post does) against an
    in-process one: the referee's cores during the game, and the bot's, turn by turn."""
    from botarena.core.match import run_match
    from botarena.core.setup import set_up

    path = tmp_path / "bot.py"
    path.write_text(AMAZES.format(thread=False))
    tmp_path.chmod(0o755)
    referee = referee or Referee()
    turns = 10 if referee.claim_at is None else 100
    setup = set_up(
        "amazes", [f"{sys.executable} {path}", referee], seed=5, options={"turns": turns}
    )
    setup.players[0].runs_only_in_calls = True
    result = run_match(
        setup.game, setup.players, seed=setup.seed, options=setup.options, record=False
    )
    assert result.players[0].status == "ok", result.to_dict()
    for lock in referee.held:
        os.close(lock)
    (jury,) = {frozenset(cores) for cores in referee.seen}
    turns = [line for line in result.stderr[0].splitlines() if not line.startswith("end")]
    return set(jury), turns


def test_bots_that_run_only_in_calls_get_a_free_core_beside_the_referees(tmp_path: Path) -> None:
    """On a virtual machine a switch between two processes on one core costs more than a
    wake-up on another core that the referee polls for (docs/sandbox.md)."""
    jury, turns = calls_only_game(tmp_path)
    assert len(jury) == 1
    (bot,) = {frozenset(json.loads(turn)) for turn in turns}
    assert len(bot) == 1 and not bot & jury


def test_with_no_core_free_they_share_the_referees(tmp_path: Path) -> None:
    """Every other core held by another game's referee (a tournament's workers): the bots
    that run only in calls stay on this game's core."""
    held = hold_other_cores({min(os.sched_getaffinity(0))})
    try:
        jury, turns = calls_only_game(tmp_path)
    finally:
        for lock in held:
            os.close(lock)
    assert {frozenset(json.loads(turn)) for turn in turns} == {frozenset(jury)}


def test_a_lent_core_claimed_by_another_game_sends_them_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game started meanwhile pins its referee on the lent core: within LOAN_CHECK_S
    the bots move to their own referee's core, and each game has a core of its own."""
    from botarena.core import match

    monkeypatch.setattr(match, "LOAN_CHECK_S", 0.05)
    jury, turns = calls_only_game(tmp_path, Referee(claim_at=5))
    cores = [frozenset(json.loads(turn)) for turn in turns]
    assert len(cores) >= 90
    lent = cores[0]
    assert len(lent) == 1 and not lent & jury
    assert set(cores[:4]) == {lent}  # before the claim
    assert set(cores[-40:]) == {frozenset(jury)}  # home, 40 turns = 0.4 s after at most
