"""The command-line contract: play's table and JSON, verify's exit codes, user errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from testdata import AMAZES_MAZES

BOTS = ["builtin:amazes/random", "builtin:amazes/explorer"]


def botarena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_play_json_has_the_contract_shape(tmp_path: Path) -> None:
    replay = tmp_path / "game.json.gz"
    run = botarena("play", "amazes", *BOTS, "--seed", "3", "--replay", str(replay), "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert list(result) == ["game", "seed", "turns", "end_reason", "replay", "players"]
    assert (result["game"], result["seed"], result["turns"]) == ("amazes", 3, 280)
    assert result["end_reason"] == "sudden_death"  # the explorer completes, then catches
    assert result["replay"] == str(replay)
    assert [p["bot"] for p in result["players"]] == ["random", "explorer"]
    for player in result["players"]:
        assert list(player) == ["bot", "score", "rank", "status", "time_ms", "faults"]
        assert player["status"] == "ok" and player["faults"] == 0
    assert botarena("verify", str(replay)).returncode == 0


def test_play_prints_a_table_and_python_play_agrees() -> None:
    import botarena as api

    run = botarena("play", "amazes", *BOTS, "--seed", "8")
    assert run.returncode == 0
    assert "seed 8" in run.stdout and "explorer" in run.stdout
    result = api.play("amazes", BOTS, seed=8)
    for player in result.players:
        assert f"{player.score:g}" in run.stdout


@pytest.mark.slow
def test_verify_exit_codes(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    assert botarena("play", "amazes", *BOTS, "--replay", str(replay)).returncode == 0
    document = json.loads(replay.read_text())
    document["steps"][10]["frame"]["players"][0][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    run = botarena("verify", str(bad))
    assert run.returncode == 1 and "step 11" in run.stdout
    (tmp_path / "junk.json").write_text("junk")
    run = botarena("verify", str(tmp_path / "junk.json"))
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "junk.json" in run.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "amazes", "builtin:amazes/random"], "needs 2 bots"),
        (["play", "chess", *BOTS], "unknown game 'chess'"),
        (["play", "amazes", "builtin:amazes/nope", BOTS[0]], "no built-in bot 'nope'"),
        (["play", "amazes", "./no/such/bot", BOTS[0]], "./no/such/bot does not exist"),
        (["play", "amazes", "no-such-program-xyz", BOTS[0]], "no program 'no-such-program-xyz'"),
        (["play", "amazes", *BOTS, "-o", "colour=red"], "unknown option 'colour'"),
        (["play", "amazes", *BOTS, "-o", "turns=many"], "option turns"),
        (["play", "amazes", *BOTS, "-o", "turns=0"], "below the minimum"),
        (["play", "amazes", *BOTS, "-o", "turns"], "not KEY=VALUE"),
        (["play", "amazes", *BOTS, "--map", "/no/such/maze.txt"], "/no/such/maze.txt"),
        (["play", "amazes", *BOTS, "--seed", "abc"], "not an integer"),
        (["games", "chess"], "unknown game"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    run = botarena(*args)
    assert run.returncode == 2
    assert words in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_bad_maze_file_names_file_line_and_problem(tmp_path: Path) -> None:
    lines = (AMAZES_MAZES / "maze01.txt").read_text().splitlines()
    lines[4] = lines[4][:10] + "x" + lines[4][11:]
    maze = tmp_path / "broken.txt"
    maze.write_text("\n".join(lines) + "\n")
    run = botarena("play", "amazes", *BOTS, "--map", str(maze))
    assert run.returncode == 2
    assert f"{maze}:5: column 11 is 'x'" in run.stderr


@pytest.mark.slow
def test_games_lists_games_and_options() -> None:
    run = botarena("games")
    assert run.returncode == 0 and "amazes" in run.stdout
    run = botarena("games", "amazes")
    assert "turns" in run.stdout and "150" in run.stdout and "builtin:amazes/explorer" in run.stdout
    # the jury's own memory option, taken by every game, is listed with its default
    for game in ("amazes", "falldown", "ants", "labyrinth"):
        run = botarena("games", game)
        assert re.search(r"│ memory\s+│ 1024\s+│ MiB a process bot may use", run.stdout), game


def test_official_maze_plays_with_drawn_starts() -> None:
    run = botarena("play", "amazes", *BOTS, "--map", "amazes:maze04", "--seed", "2", "--json")
    assert run.returncode == 0
    assert json.loads(run.stdout)["turns"] == 254  # the explorer's sudden death


def _every_builtin_bot() -> list[str]:
    from botarena.games import get_game

    games = ("amazes", "falldown", "labyrinth", "ants")
    return [get_game(name).bot_module(bot) for name in games for bot in get_game(name).bots]


@pytest.mark.parametrize("module", _every_builtin_bot())
def test_every_builtin_bot_runs_as_a_module_cleanly(module: str) -> None:
    """`python -m botarena.games.GAME.bots.NAME` imports its module once (no runpy warning)
    and ends quietly when its input ends before the game starts."""
    run = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-m", module],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Warning" not in run.stderr and "Traceback" not in run.stderr, run.stderr


HOLD_BOT = (
    "import sys\nfor line in sys.stdin:\n"
    "    if line.startswith(('ready', 'go')):\n        print('go', flush=True)\n"
    "    elif line.startswith('end'):\n        print('[bold]bye', file=sys.stderr)\n"
    "        break\n"
)


def test_names_and_paths_are_printed_as_the_user_wrote_them(tmp_path: Path) -> None:
    """Brackets and colons are text, not rich markup or emoji codes: a replay named
    x[red]y:smile:.json is reported by its name, whole, however long its path."""
    bot = tmp_path / "hold[bold]x:smile:.py"
    bot.write_text(HOLD_BOT)
    replay = tmp_path / ("long" * 20) / "x[red]y:smile:.json"
    spec = f"{sys.executable} {bot}"
    run = botarena(
        "play", "ants", spec, spec, "--map", "ants:tutorial1", "--seed", "1", "-o", "turns=3",
        "--replay", str(replay), "--stderr",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "│ hold[bold]x:smile: " in run.stdout and "│ hold[bold]x:smile:#2 " in run.stdout
    assert f"\nreplay: {replay}\n" in run.stdout and replay.exists()
    assert "stderr of hold[bold]x:smile::\n[bold]bye" in run.stdout
