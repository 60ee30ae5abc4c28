"""Labyrinth's interfaces around the rules: the in-process Python API with the original
method names and data shapes (rule text, "Adventurers Interface" / "Maze Master Interface"),
the PettingZoo adapter, `botarena play labyrinth ... --json` and `botarena verify`."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

from pettingzoo.test import api_test

import botarena
from botarena.core.replay import load
from botarena.games.labyrinth.api import Adventurers, MazeMaster
from botarena.games.labyrinth.rng import seeded_random


def open_maze(n: int) -> list[list[dict[str, bool]]]:
    return [[{"east": False, "south": False} for _ in range(n)] for _ in range(n)]


class Walker(Adventurers):
    """A east then south, 2n - 1 turns; B waits. Records what it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def start_round(self, maze_size: int) -> None:
        self.calls.append(("start_round", maze_size))
        self.n, self.step = maze_size, 0

    def take_turn(self, vision: list[dict[str, Any]]) -> list[int]:
        self.calls.append(("take_turn", vision))
        self.step += 1
        return [2 if self.step == self.n else 1, 0]


class Recorder(MazeMaster):
    """Open mazes; never changes them; records its arguments and its RNG draws."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def generate_maze(self, maze_size: int) -> Any:
        self.calls.append(("generate_maze", maze_size, self.random()))
        return open_maze(maze_size)

    def take_turn(self, mana: int, maze: Any, adventurers: Any) -> Any:
        self.calls.append(("take_turn", mana, maze, adventurers))
        return None


class TwoArguments(MazeMaster):
    """Written for the original interface: takeTurn(mana, maze)."""

    def generate_maze(self, maze_size: int) -> Any:
        return open_maze(maze_size)

    def take_turn(self, mana: int, maze: Any) -> Any:
        return [None, [1, 1, "east"]] if mana == 1 else None


def test_python_bots_get_the_original_calls_and_data_shapes() -> None:
    walker, recorder = Walker(), Recorder()
    result = botarena.play("labyrinth", [walker, recorder], seed="shapes", max_rounds=2)
    assert result.end_reason == "round_cap" and result.scores == [2000 - 5 - 7] * 2
    assert [call[0:2] for call in recorder.calls if call[0] == "generate_maze"] == [
        ("generate_maze", 3),
        ("generate_maze", 4),
    ]
    assert [call for call in walker.calls if call[0] == "start_round"] == [
        ("start_round", 3),
        ("start_round", 4),
    ]
    vision = walker.calls[1][1]
    assert len(vision) == 2 and set(vision[0]) == {"ahead", "leftAhead", "rightAhead", "friend"}
    assert vision[0]["ahead"][0] == {"ahead": False, "left": True, "right": False}
    _, mana, maze, adventurers = next(call for call in recorder.calls if call[0] == "take_turn")
    assert mana == 1 and len(maze) == 3 and all(len(row) == 3 for row in maze)
    assert maze[0][0] == {"east": False, "eastCost": 1, "south": False, "southCost": 1}
    assert adventurers == [
        {"row": 0, "col": 1, "dir": "east"},
        {"row": 0, "col": 0, "dir": "south"},
    ]
    turns_round_1 = sum(1 for call in recorder.calls[:6] if call[0] == "take_turn")
    assert turns_round_1 == 4  # 5 turns, none on the goal turn


def test_each_bot_draws_from_its_own_seeded_generator() -> None:
    recorder = Recorder()
    botarena.play("labyrinth", [Walker(), recorder], seed="rng", max_rounds=2)
    draws = [call[2] for call in recorder.calls if call[0] == "generate_maze"]
    expected = seeded_random("rng:M")
    assert draws == [expected(), expected()]


def test_a_two_argument_take_turn_still_runs() -> None:
    result = botarena.play("labyrinth", [Walker(), TwoArguments()], seed="two", max_rounds=1)
    assert result.players[1].status == "ok" and result.scores == [995, 995]


def test_the_same_seed_plays_the_same_game(tmp_path: Path) -> None:
    specs = ["builtin:labyrinth/cartographer", "builtin:labyrinth/warden"]
    frames = []
    for seed in ("again", "again", "other"):
        path = tmp_path / f"{len(frames)}.json.gz"
        botarena.play("labyrinth", specs, seed=seed, max_rounds=3, cpu_limits=0, replay=path)
        frames.append([step["frame"] for step in load(path)["steps"]])
    assert frames[0] == frames[1] and len(frames[0]) > 20
    assert frames[0] != frames[2]


# -- PettingZoo ------------------------------------------------------------------------------
def test_labyrinth_passes_the_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(botarena.make("labyrinth", seed=1), num_cycles=100)


def test_the_env_plays_the_json_lines_and_rewards_the_score() -> None:
    env = botarena.make("labyrinth", seed=5, max_rounds=1)
    env.reset()
    assert env.agent_selection == "maze master"
    assert env.last()[0]["text"] == '{"call":"generateMaze","args":[3]}\n'
    env.step(json.dumps(open_maze(3)))
    assert env.agent_selection == "adventurers"
    assert env.last()[0]["text"] == '{"call":"startRound","args":[3]}\n'
    env.step("null")
    replies = ["[1,1]", "null", "[1,1]", "null", "[2,4]", "null", "[1,1]", "null", "[1,0]"]
    rewards, master_rewards = [], []
    for reply in replies:
        env.step(reply)
        rewards.append(env.rewards["adventurers"])
        master_rewards.append(env.rewards["maze master"])
    assert rewards == [-1, 0, -1, 0, -1, 0, -1, 0, 999]
    assert master_rewards == [1, 0, 1, 0, 1, 0, 1, 0, -999]  # it wants the score low
    assert env.state.is_over() and env.state.score == 995


def test_a_reply_that_is_not_json_is_a_strike_in_the_env() -> None:
    env = botarena.make("labyrinth", seed=5)
    env.reset()
    env.step("{oops")
    assert "not JSON" in env.infos["maze master"]["fault"]
    assert env.state.strike["role"] == "maze master" and env.state.is_over()


# -- the command line ------------------------------------------------------------------------
def botarena_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args], capture_output=True, text=True, timeout=120
    )


def test_play_json_carries_each_roles_score_and_the_replay_verifies(tmp_path: Path) -> None:
    replay = tmp_path / "game.json.gz"
    run = botarena_cli(
        "play",
        "labyrinth",
        "builtin:labyrinth/cartographer",
        "builtin:labyrinth/static",
        "--seed",
        "abc",
        "-o",
        "max_rounds=3",
        "-o",
        "cpu_limits=0",
        "--replay",
        str(replay),
        "--json",
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["game"] == "labyrinth" and result["seed"] == "abc"
    adventurers, maze_master = result["players"]
    assert (adventurers["bot"], maze_master["bot"]) == ("cartographer", "static")
    assert adventurers["score"] == maze_master["score"]  # one score; the maze master wants it low
    if result["end_reason"] == "round_cap":
        assert adventurers["score"] == 3000 - result["turns"]
    else:
        assert result["end_reason"] == "turns"
        assert adventurers["score"] % 1000 == (-result["turns"]) % 1000
    assert [p["rank"] for p in result["players"]] == [1, 1]
    assert [p["status"] for p in result["players"]] == ["ok", "ok"]
    verified = botarena_cli("verify", str(replay))
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_maze_master_that_is_not_json_is_struck_and_ranks_last(tmp_path: Path) -> None:
    bot = tmp_path / "garbage.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('oops', flush=True)\n")
    replay = tmp_path / "struck.json.gz"
    run = botarena_cli(
        "play",
        "labyrinth",
        "builtin:labyrinth/wallfollower",
        f"{sys.executable} {bot}",
        "--seed",
        "1",
        "--json",
        "--replay",
        str(replay),
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["players"][1]["status"] == "strike" and result["players"][1]["rank"] == 2
    assert result["players"][0]["status"] == "ok" and result["players"][0]["rank"] == 1
    assert "strike (maze master)" in result["end_reason"] and "outlier" in result["end_reason"]
    assert "not JSON" in result["end_reason"] and result["turns"] == 0
    assert load(replay)["steps"][-1]["frame"]["outlier"] is True
    assert botarena_cli("verify", str(replay)).returncode == 0


def test_a_bad_option_is_one_line_and_exit_2() -> None:
    run = botarena_cli(
        "play",
        "labyrinth",
        "builtin:labyrinth/wallfollower",
        "builtin:labyrinth/static",
        "-o",
        "max_rounds=0",
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "max_rounds" in run.stderr
