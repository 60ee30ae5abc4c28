"""Real misbehaving bot programs under the Amazes rules: each fault ends as the rules say,
the jury keeps going, and no process is left behind."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

import botarena

READ_LOOK = """\
import os, sys, time, signal, select
def look():
    first = sys.stdin.readline()
    if not first or first.strip() == "Quit":
        sys.exit(0)
    lines = [] if first.strip() == "Start" else [first]
    while len(lines) < 5:
        lines.append(sys.stdin.readline())
    return lines
turn = 0
"""


def bot(tmp_path: Path, name: str, body: str) -> str:
    """A Python bot program: READ_LOOK's helpers, then `body` run once per turn."""
    path = tmp_path / f"{name}.py"
    loop = "while True:\n    look()\n    turn += 1\n" + textwrap.indent(
        textwrap.dedent(body), "    "
    )
    path.write_text(READ_LOOK + loop)
    return f"{sys.executable} {path}"


def gone(pid: int) -> bool:
    """Whether no process (not even a zombie) has this pid any more."""
    return not Path(f"/proc/{pid}").exists()


def play(bots: list[str], **options: object):
    """Without the sandbox: these bots leave their pids in the test's folder (the hostile
    suite, tests/test_hostile.py, plays bots in the sandbox)."""
    return botarena.play("amazes", bots, seed=7, sandbox=False, **options)


def assert_rules_outcome(result, seat: int, status: str) -> None:
    """The faulty seat scores 0 with `status`; the game still ran all its turns."""
    player = result.players[seat]
    assert player.status == status
    assert player.score == 0
    assert player.faults == 1
    assert result.turns == 2 * 150
    assert result.end_reason == "turns"


def test_crash_after_a_few_turns(tmp_path: Path) -> None:
    crasher = bot(
        tmp_path,
        "crash",
        """
        print("T", flush=True)
        if turn == 3:
            sys.exit(3)
    """,
    )
    result = play([crasher, "builtin:amazes/random"])
    assert_rules_outcome(result, 0, "crashed")
    assert result.players[1].status == "ok"


def test_killed_by_a_signal(tmp_path: Path) -> None:
    segv = bot(
        tmp_path,
        "segv",
        """
        if turn == 2:
            os.kill(os.getpid(), signal.SIGSEGV)
        print("T", flush=True)
    """,
    )
    result = play(["builtin:amazes/random", segv], replay=tmp_path / "r.json")
    assert_rules_outcome(result, 1, "crashed")
    faults = [
        act["fault"] for step in result.document["steps"] for act in step["acts"] if "fault" in act
    ]
    assert faults == [["crashed", "closed its output, killed by SIGSEGV"]]


def test_exit_leaving_a_child_on_the_pipe_is_a_crash(tmp_path: Path) -> None:
    """The bot is its own process: a child still holding its output open does not turn its
    exit into a timeout, and the child goes with the bot's process group."""
    pid_file = tmp_path / "child.pid"
    leaver = bot(
        tmp_path,
        "leaver",
        f"""
        if turn == 2:
            import subprocess
            child = subprocess.Popen(["sleep", "60"])
            open({str(pid_file)!r}, "w").write(str(child.pid))
            sys.exit(3)
        print("T", flush=True)
    """,
    )
    result = play([leaver, "builtin:amazes/random"], replay=tmp_path / "r.json")
    assert_rules_outcome(result, 0, "crashed")
    faults = [
        act["fault"] for step in result.document["steps"] for act in step["acts"] if "fault" in act
    ]
    assert faults == [["crashed", "closed its output, exit code 3"]]
    assert gone(int(pid_file.read_text()))


def test_endless_output_is_cut_off_as_invalid(tmp_path: Path) -> None:
    """A bot that writes without end never completes a reply (Amazes replies are one line,
    so this writes one endless line): the jury stops reading at 16 MiB (an invalid reply,
    docs/sandbox.md), long before the budget, instead of filling its memory."""
    flooder = bot(
        tmp_path,
        "flood",
        """
        if turn == 2:
            while True:
                sys.stdout.write("F" * 65536)
        print("T", flush=True)
    """,
    )
    result = play([flooder, "builtin:amazes/random"], budget_ms=60_000, replay=tmp_path / "r.json")
    assert_rules_outcome(result, 0, "invalid")
    faults = [
        act["fault"] for step in result.document["steps"] for act in step["acts"] if "fault" in act
    ]
    assert faults == [["invalid", "a reply line longer than 16 MiB"]]


def test_hang_past_the_game_budget_is_a_timeout(tmp_path: Path) -> None:
    hanger = bot(
        tmp_path,
        "hang",
        """
        if turn == 2:
            time.sleep(3600)
        print("T", flush=True)
    """,
    )
    result = play([hanger, "builtin:amazes/random"], budget_ms=800)
    assert_rules_outcome(result, 0, "timeout")
    assert 750 <= result.players[0].time_ms < 3000


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ('"X"', "illegal character 'X'"),
        ('""', "empty line"),
        ('"F" * 257', "257 steps"),
        ('"ftlr"', "illegal character 'f'"),
    ],
)
def test_bad_replies_are_invalid(tmp_path: Path, reply: str, why: str) -> None:
    bad = bot(
        tmp_path,
        "bad",
        f"""
        print("T" if turn < 5 else {reply}, flush=True)
    """,
    )
    result = play(["builtin:amazes/random", bad], replay=tmp_path / "r.json")
    assert_rules_outcome(result, 1, "invalid")
    (fault,) = [
        act["fault"] for step in result.document["steps"] for act in step["acts"] if "fault" in act
    ]
    assert fault[0] == "invalid" and why in fault[1]
    # From the fault on, the jury plays T for that seat: no act is asked of it any more.
    asked = [act["seat"] for step in result.document["steps"] for act in step["acts"]]
    assert asked.count(1) == 5


def test_256_letters_are_still_legal(tmp_path: Path) -> None:
    longest = bot(
        tmp_path,
        "long",
        """
        print("T" * 256, flush=True)
        if turn == 150:
            sys.exit(0)
    """,
    )
    result = play([longest, "builtin:amazes/random"])
    assert result.players[0].status == "ok"


@pytest.mark.slow
def test_stopped_bot_gets_no_cpu(tmp_path: Path) -> None:
    """A bot that spins between its turns burns CPU only while the jury waits for it."""
    spinner = bot(
        tmp_path,
        "spin",
        """
        print("T", flush=True)
        if turn == 40:
            sys.exit(0)
        while not select.select([sys.stdin], [], [], 0)[0]:
            pass
    """,
    )
    sleeper = bot(
        tmp_path,
        "sleep",
        """
        time.sleep(0.025)
        print("T", flush=True)
        if turn == 40:
            sys.exit(0)
    """,
    )
    result = play([spinner, sleeper], turns=40)
    assert [p.status for p in result.players] == ["ok", "ok"]
    assert result.players[1].time_ms >= 40 * 25
    assert result.players[0].cpu_ms < 300  # spinning unstopped would burn about 1000 ms


def test_no_process_outlives_the_game(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    forker = bot(
        tmp_path,
        "fork",
        f"""
        if turn == 1:
            child = os.fork()
            if child == 0:
                time.sleep(3600)
                os._exit(0)
            open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child}}")
        print("T", flush=True)
    """,
    )
    result = play([forker, "builtin:amazes/random"], turns=5)
    assert result.players[0].status == "ok"
    parent, child = map(int, pids.read_text().split())
    assert gone(parent) and gone(child)


def test_stderr_is_kept_capped_and_never_blocks(tmp_path: Path) -> None:
    chatty = bot(
        tmp_path,
        "chatty",
        """
        sys.stderr.write("x" * 50_000 + "\\n")
        sys.stderr.flush()
        print("T", flush=True)
        if turn == 150:
            sys.exit(0)
    """,
    )
    result = play([chatty, "builtin:amazes/random"], replay=tmp_path / "r.json")
    assert result.players[0].status == "ok"
    assert result.document["stderr"][0] == "x" * 10_000


def test_jury_survives_a_bot_that_closes_stdin(tmp_path: Path) -> None:
    closer = bot(
        tmp_path,
        "closer",
        """
        print("T", flush=True)
        if turn == 2:
            os.close(0)
            time.sleep(3600)
    """,
    )
    result = play([closer, "builtin:amazes/random"], budget_ms=600)
    assert_rules_outcome(result, 0, "timeout")


def test_process_builtin_bot_plays_a_whole_game() -> None:
    command = f"{sys.executable} -m botarena.games.amazes.bots.random"
    result = play([command, "builtin:amazes/random"])
    assert result.players[0].status == "ok"
    assert result.turns == 300


@pytest.mark.slow
def test_bots_that_never_exit_share_one_grace_period(tmp_path: Path) -> None:
    import time

    stubborn = bot(
        tmp_path,
        "stubborn",
        """
        print("T", flush=True)
        if turn == 2:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(1)
    """,
    )
    started = time.monotonic()
    result = play([stubborn, stubborn], turns=2)
    elapsed = time.monotonic() - started
    assert [p.status for p in result.players] == ["ok", "ok"]
    assert elapsed < 1.9  # one shared 1-second grace period, not one per bot


def _first_fault(replay: Path, seat: int) -> str:
    from botarena.core.replay import load

    document = load(replay)
    for step in document["steps"]:
        for act in step["acts"]:
            if act["seat"] == seat and "fault" in act:
                return str(act["fault"][1])
    raise AssertionError("no fault recorded")


def test_a_bot_that_never_flushes_is_told_to_flush(tmp_path: Path) -> None:
    """The newcomer's mistake: replies printed without a flush stay in the bot's buffer
    (block-buffered into a pipe), so the jury sees nothing; the reason says to flush."""
    buffered = 'out = globals().setdefault("out", open(1, "w", buffering=8192, closefd=False))\n'
    unflushed = bot(tmp_path, "quiet", buffered + 'out.write("T\\n")\n')  # as C's stdio would
    replay = tmp_path / "game.json"
    result = play([unflushed, "builtin:amazes/random"], budget_ms=300, replay=replay)
    assert result.players[0].status == "timeout"
    reason = _first_fault(replay, 0)
    assert reason.startswith("no reply in time, and nothing ever came on its standard output")
    assert "print(..., flush=True)" in reason and "fflush(stdout)" in reason


def test_a_bot_that_answered_before_and_then_hangs_is_not_told_to_flush(tmp_path: Path) -> None:
    hanger = bot(tmp_path, "hang", 'if turn == 2:\n    time.sleep(3600)\nprint("T", flush=True)\n')
    replay = tmp_path / "game.json"
    play([hanger, "builtin:amazes/random"], budget_ms=300, replay=replay)
    assert _first_fault(replay, 0) == "no complete reply in time"
