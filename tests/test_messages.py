"""Messages a user can act on: each confusing message of the hardening issue, fixed by its
general cause, checked through the real command line with real files and programs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from testdata import AMAZES_MAZES

PYTHON = sys.executable


def botarena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "botarena", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def error_of(*args: str, cwd: Path | None = None) -> str:
    """The one error line of a command that must exit 2."""
    done = botarena(*args, cwd=cwd)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    return done.stderr.removeprefix("botarena: error: ").rstrip("\n")


RANDOM = "builtin:amazes/random"


@pytest.mark.slow
def test_bot_specs_name_what_is_wrong(tmp_path: Path) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    assert error_of("play", "amazes", str(folder), RANDOM) == (
        f"bot spec {str(folder)!r}: {folder} is a folder, not a program"
    )
    for name, first_line, problem in (
        (
            "nointerp.py",
            "#!/usr/bin/no-such-python",
            "starts with #!/usr/bin/no-such-python, which does not exist",
        ),
        (
            "noenv.py",
            "#!/usr/bin/env no-such-python3",
            "starts with #!/usr/bin/env no-such-python3, and 'no-such-python3' is not on PATH",
        ),
        (
            "plain.py",
            "print('hello')",
            "is neither a #! script nor a Linux executable (Exec"
            f" format error); name its interpreter, e.g."
            f" 'python3 {tmp_path}/plain.py'",
        ),
    ):
        script = tmp_path / name
        script.write_text(first_line + "\n")
        script.chmod(0o755)
        assert error_of("play", "amazes", str(script), RANDOM) == (
            f"bot spec {str(script)!r}: {script} {problem}"
        )


def test_a_prefix_of_another_game_names_that_game(tmp_path: Path) -> None:
    post = tmp_path / "bot.md"
    post.write_text("# Adventurers: x\n\n```js\nreturn {};\n```\n")
    assert error_of("play", "amazes", f"post:{post}", RANDOM) == (
        f"bot spec 'post:{post}': post: bots play only labyrinth, not amazes"
    )


@pytest.mark.slow
def test_output_files_one_rule(tmp_path: Path) -> None:
    assert error_of("play", "amazes", RANDOM, RANDOM, "--replay", "") == (
        "--replay .: is a folder; give a file name inside it"
    )
    assert error_of("play", "amazes", RANDOM, RANDOM, "--replay", "/no-such-dir-x/g.json") == (
        "--replay /no-such-dir-x/g.json: folder /no-such-dir-x does not exist (botarena creates"
        " one missing folder, inside an existing one other than /)"
    )
    deep = tmp_path / "a" / "b" / "g.json"
    assert error_of("play", "amazes", RANDOM, RANDOM, "--replay", str(deep)).startswith(
        f"--replay {deep}: folder {deep.parent} does not exist"
    )
    assert not (tmp_path / "a").exists()
    one_level = tmp_path / "runs" / "g.json"
    done = botarena("play", "amazes", RANDOM, RANDOM, "--replay", str(one_level))
    assert done.returncode == 0 and one_level.is_file()
    assert error_of("amazes", "maze", "generate", "-o", str(deep)).startswith(
        f"--output {deep}: folder {deep.parent} does not exist"
    )


def test_export_replay_never_overwrites_its_input(tmp_path: Path) -> None:
    replay = tmp_path / "ants.json.gz"
    assert (
        botarena(
            "play",
            "ants",
            "builtin:ants/random",
            "builtin:ants/random",
            "-o",
            "turns=5",
            "--replay",
            str(replay),
        ).returncode
        == 0
    )
    before = replay.read_bytes()
    assert error_of("ants", "export-replay", str(replay), str(replay)) == (
        f"OUTPUT {replay}: is the input file; it would be overwritten"
    )
    assert replay.read_bytes() == before


def test_map_messages_name_the_real_problem(tmp_path: Path, data: Path) -> None:
    maze = tmp_path / "maze.txt"
    maze.write_text("-1 -1 N\n3 3 S\n" + (AMAZES_MAZES / "maze01.txt").read_text())
    assert error_of("play", "amazes", RANDOM, RANDOM, "--map", str(maze)) == (
        f"{maze}:1: start line '-1 -1 N' is not 'row col facing' (1-based row and column,"
        " facing N, E, S or W)"
    )
    ants_map = tmp_path / "neg.map"
    ants_map.write_text("rows -5\ncols 10\nplayers 2\n")
    assert error_of("ants", "map", "check", str(ants_map)) == (
        f"{ants_map}: line 1: rows must be between 1 and 200, got -5"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("food_turn=0", "option food_turn: 0 is below the minimum 1"),
        ("food_turn=0,1", "option food_turn: 0 is below the minimum 1"),
        ("cutoff_percent=nan", "option cutoff_percent: 'nan' is not a finite number"),
        ("cutoff_percent=inf", "option cutoff_percent: 'inf' is not a finite number"),
        ("food_rate=-1", "option food_rate: -1 is below the minimum 0"),
        ("food_start=-3,5", "option food_start: -3 is below the minimum 0"),
        ("food_visible=-1", "option food_visible: -1 is below the minimum 0"),
        ("turns=ten", "option turns: 'ten' is not valid (expected a whole number)"),
    ],
)
def test_ants_options_are_bounded_where_declared(option: str, message: str) -> None:
    assert (
        error_of("play", "ants", "builtin:ants/random", "builtin:ants/random", "-o", option)
        == message
    )


def test_seeds_are_checked_by_play() -> None:
    assert error_of("play", "amazes", RANDOM, RANDOM, "--seed", "-1") == (
        "seed -1 is outside 0 to 2**63-1"
    )
    assert error_of("play", "amazes", RANDOM, RANDOM, "--seed", "abc") == (
        "--seed 'abc' is not an integer"
    )


def test_json_scores_are_integers_and_stderr_joins_the_json() -> None:
    done = botarena(
        "play",
        "falldown",
        *["builtin:falldown/random"] * 4,
        "-o",
        "turns=8",
        "--seed",
        "3",
        "--json",
        "--stderr",
    )
    result = json.loads(done.stdout)
    assert all(type(player["score"]) is int for player in result["players"])
    assert result["stderr"] == ["", "", "", ""]


def test_a_strict_kill_counts_as_a_fault(tmp_path: Path) -> None:
    bot = tmp_path / "bad_orders.py"
    bot.write_text(
        "import sys\nfor line in sys.stdin:\n"
        "    if line.strip() in ('ready', 'go'):\n"
        "        print('o 0 0 X' if line.strip() == 'go' else 'go')\n"
        "        print('go') if line.strip() == 'go' else None\n"
        "        sys.stdout.flush()\n"
    )
    done = botarena(
        "play",
        "ants",
        f"{PYTHON} {bot}",
        "builtin:ants/hold",
        "-o",
        "strict=1",
        "-o",
        "turns=5",
        "--seed",
        "1",
        "--json",
    )
    player = json.loads(done.stdout)["players"][0]
    assert (player["status"], player["faults"]) == ("invalid", 1)


def test_a_handshake_timeout_counts_its_time(tmp_path: Path) -> None:
    bot = tmp_path / "slow.py"
    bot.write_text("import time\ntime.sleep(60)\n")
    done = botarena(
        "play",
        "ants",
        f"{PYTHON} {bot}",
        "builtin:ants/hold",
        "-o",
        "loadtime=300",
        "-o",
        "turns=3",
        "--seed",
        "1",
        "--json",
    )
    player = json.loads(done.stdout)["players"][0]
    assert player["status"] == "timeout" and player["time_ms"] >= 300
