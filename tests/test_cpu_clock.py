"""`-o clock=cpu`: time limits charged in the bot's own CPU time (all its threads), with a wall
cap of twice the limit plus a second; the rules' wall clock stays the default."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

import botarena
from botarena.core.rules import Clock
from hostile_bots import busy_bot

FALLDOWN_BOT = """\
import sys, time, threading
def burn(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
print("READY", flush=True)
slot = 0
for line in sys.stdin:
    if line.strip() != "EOD":
        continue
    slot += 1
{body}
    print("N", flush=True)
"""


def falldown_bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(FALLDOWN_BOT.format(body=textwrap.indent(textwrap.dedent(body), "    ")))
    return f"{name}={sys.executable} {path}"


def play(bot: str, **options: str) -> dict:
    result = botarena.play(
        "falldown", [bot] + ["builtin:falldown/random"] * 3, seed=4, turns=12, **options
    )
    return result.to_dict()["players"][0] | {"detail": result.document.get("faults")}


def test_the_clock_turns_wall_limits_into_cpu_limits_with_a_wall_cap() -> None:
    """The cap is twice the limit plus a second: 1.2 s for 100 ms, 11 s for a 5 s budget."""
    assert Clock(reply_s=0.1).in_cpu_time() == Clock(reply_s=pytest.approx(1.2), cpu_s=0.1)
    assert Clock(budget_s=5.0).in_cpu_time() == Clock(budget_s=11.0, cpu_budget_s=5.0)
    assert Clock(cpu_s=0.05).in_cpu_time().cpu_s == 0.05  # a CPU limit stays as it is


def test_sleeping_past_the_wall_limit_times_out_only_on_the_wall_clock(tmp_path: Path) -> None:
    """300 ms asleep in slot 2 against Falldown's 100 ms: a time-out by the rules' clock, no
    fault by the CPU clock (it used no CPU, and 300 ms is within the 1 s safety)."""
    sleeper = falldown_bot(tmp_path, "sleeper", "if slot == 2:\n    time.sleep(0.3)")
    assert play(sleeper)["status"] == "timeout"
    charged = play(sleeper, clock="cpu")
    assert charged["status"] == "ok" and charged["faults"] == 0


@pytest.mark.slow
def test_sleeping_past_the_safety_limit_times_out_on_the_cpu_clock(tmp_path: Path) -> None:
    sleeper = falldown_bot(tmp_path, "long", "if slot == 2:\n    time.sleep(1.5)")
    assert play(sleeper, clock="cpu")["status"] == "timeout"


def test_cpu_over_the_limit_times_out_and_threads_count(tmp_path: Path) -> None:
    """Two threads burning 80 ms each at once: 160 ms of CPU for one reply, over the 100 ms
    limit, although the reply takes only about 80 ms of wall time when both run in
    parallel (on one core, 160 ms: a wall time-out as well)."""
    threads = falldown_bot(
        tmp_path,
        "threads",
        """\
        if slot == 2:
            workers = [threading.Thread(target=burn, args=(0.08,)) for _ in range(2)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        """,
    )
    charged = play(threads, clock="cpu")
    assert charged["status"] == "timeout"


def test_a_busy_bot_within_its_cpu_limit_is_never_charged_a_fault(tmp_path: Path) -> None:
    busy = falldown_bot(tmp_path, "busy", "burn(0.06)")
    charged = play(busy, clock="cpu")
    assert charged["status"] == "ok" and charged["faults"] == 0


def test_the_game_budget_is_charged_in_cpu_time_too(tmp_path: Path) -> None:
    """50 ms of CPU a turn against a 500 ms budget for the game: over it at the 10th turn,
    or a turn or two sooner for the CPU the interpreter's start-up costs (more under load)."""
    path = tmp_path / "spender.py"
    path.write_text(busy_bot(0.05))
    result = botarena.play(
        "amazes",
        [f"{sys.executable} {path} amazes", "builtin:amazes/random"],
        seed=2,
        turns=20,
        budget_ms=500,
        clock="cpu",
        replay=tmp_path / "game.json",
    )
    spender = result.to_dict()["players"][0]
    assert spender["status"] == "timeout" and spender["score"] == 0
    faults = [
        (index, act)
        for index, step in enumerate(result.document["steps"])
        for act in step["acts"]
        if act.get("fault")
    ]
    ((index, act),) = faults
    assert act["fault"][0] == "timeout" and "budget 500.0 ms" in act["fault"][1]
    assert 6 <= index // 2 <= 10  # Red's 10th turn (index 9), sooner by the start-up's CPU


@pytest.mark.parametrize("game", ["amazes", "falldown", "ants"])
def test_the_games_timed_by_the_wall_clock_offer_the_option(game: str) -> None:
    from botarena.games import get_game

    info = get_game(game).info
    assert info.option("clock").default == "wall"
    assert info.resolve_options({"clock": "cpu"})["clock"] == "cpu"
    with pytest.raises(ValueError, match="expected wall or cpu"):
        info.resolve_options({"clock": "gpu"})


class Sleepy:
    """Labyrinth's wall follower that sleeps 60 ms of wall time (no CPU) before each turn."""

    def __init__(self) -> None:
        from botarena.games.labyrinth.bots.wallfollower import WallFollower

        self.bot = WallFollower()

    def setup(self, seat: int, seed: str) -> None:
        self.bot.setup(seat, seed)

    def act(self, call):
        import time

        time.sleep(0.06)
        return self.bot.act(call)


def test_an_in_process_bot_is_charged_its_own_threads_cpu_not_the_wall() -> None:
    """Sleeping 60 ms a turn, over Labyrinth's 50 ms bank of CPU time per round, costs an
    in-process bot nothing: it is charged the CPU its thread used (a loaded machine's wait
    is not its time)."""
    import botarena

    result = botarena.play(
        "labyrinth", [Sleepy(), "builtin:labyrinth/static"], seed="sleepy", max_rounds=1
    )
    assert [player.status for player in result.players] == ["ok", "ok"]
    assert result.players[0].cpu_ms < 60 * result.turns / 2


@pytest.mark.slow
def test_contests_use_the_cpu_clock_unless_told_and_play_says_which(tmp_path) -> None:
    """Tournaments and compare default to clock=cpu where a game offers the option (a loaded
    machine decides no game); `-o clock=wall` keeps the engines' clock; `play` keeps the
    rules' default and says which clock it used."""
    import subprocess
    import sys

    from botarena.games import game_info

    amazes = game_info("amazes")
    assert amazes.contest_options({}) == {"clock": "cpu"}
    assert amazes.contest_options({"clock": "wall"}) == {"clock": "wall"}
    assert game_info("labyrinth").contest_options({"max_rounds": "3"}) == {"max_rounds": "3"}

    def botarena(*args: str) -> str:
        run = subprocess.run(
            [sys.executable, "-m", "botarena", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    db = f"sqlite:///{tmp_path / 'c.db'}"
    bots = ["--bot", "builtin:amazes/random", "--bot", "b=builtin:amazes/random"]
    botarena("tournament", "new", "cpu", "--game", "amazes", *bots, "--db", db)
    botarena("tournament", "new", "wall", "--game", "amazes", *bots, "-o", "clock=wall", "--db", db)
    from botarena.tournament.cli import open_store

    with open_store(db) as store:
        assert store.tournament("cpu").options == {"clock": "cpu"}
        assert store.tournament("wall").options == {"clock": "wall"}
    assert "clock: wall" in botarena(
        "play", "amazes", "builtin:amazes/random", "builtin:amazes/random"
    )
    assert "clock: cpu" in botarena(
        "play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "-o", "clock=cpu"
    )
